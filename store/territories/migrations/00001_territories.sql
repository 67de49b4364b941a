-- A game of territories: its configuration and map, the log of accepted
-- actions, the rules' state after the last one, and the nations and
-- holdings tables that other programs read. Every action writes its log
-- row, the rows it changes and the state in one transaction.

-- +goose Up
CREATE TABLE game (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    rules_version TEXT    NOT NULL,
    config        TEXT    NOT NULL, -- the configuration as JSON, its seed included
    map_svg       BLOB    NOT NULL, -- the map as given when the game was created
    created       TEXT    NOT NULL  -- RFC 3339
);

CREATE TABLE actions (
    seq     INTEGER PRIMARY KEY,    -- 1, 2, 3, ... in the order the rules applied them
    player  TEXT    NOT NULL,       -- '' for the judge (end-turn)
    action  TEXT    NOT NULL,       -- as the rules read it, territories by id: "attack CA NV"
    dice    TEXT    NOT NULL,       -- JSON array of the draws: an attack's roll, a join's colour
    outcome TEXT    NOT NULL,       -- JSON, as the caller was told
    at      TEXT    NOT NULL        -- RFC 3339, when it was accepted
);

CREATE TABLE nations (
    name         TEXT    PRIMARY KEY,
    player       TEXT    NOT NULL UNIQUE,
    color        TEXT    NOT NULL,  -- #rrggbb
    joined       INTEGER NOT NULL REFERENCES actions (seq),
    out          INTEGER REFERENCES actions (seq), -- the battle that took its last army; NULL while in the game
    actions_left INTEGER            -- in this turn, under turn management; NULL without
);

CREATE TABLE holdings (
    territory TEXT    PRIMARY KEY,  -- the territory's id; unclaimed territories have no row
    nation    TEXT    NOT NULL REFERENCES nations (name),
    armies    INTEGER NOT NULL CHECK (armies > 0)
);

CREATE TABLE state (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    seq   INTEGER NOT NULL,         -- the last action applied
    world TEXT    NOT NULL          -- the rules' snapshot after it: dice, turn, nations, holdings
);

-- +goose Down
DROP TABLE state;
DROP TABLE holdings;
DROP TABLE nations;
DROP TABLE actions;
DROP TABLE game;
