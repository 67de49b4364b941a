-- The tables of territories beside the live store's (matches, secrets,
-- moves): a projection of each territories match's log for other programs
-- to read, written in the transaction of every move, keyed by match so
-- that one database holds many (arbiter serve's) as well as one (a game
-- file of arbiter territories: one match, in mode referee). The same
-- statements run on SQLite and PostgreSQL. The store's moves table is the
-- log, and the truth: arbiter territories replay rebuilds every table
-- below from it and compares.
--
-- Where a game file of the layout before (its own schema, versions 1 to
-- 3, application id ARBT) keeps things after its conversion, in one
-- transaction, to the store's layout (application id ARBL):
--   game.config           the match's setup: its seed, and the option board
--                         (the configuration as JSON, with its output)
--   game.rules_version    matches.rules_version
--   game.created          matches.created
--   game.map_svg          territories_maps.svg
--   actions.player/action moves.move, {"player": ..., "action": ...}, the
--                         action as the referee resolved it ("raise CA"),
--                         made by the judge (actor -1)
--   actions.request       moves.idem_key (a call's --request id; idem_hash
--                         is the SHA-256 of the move)
--   actions.at            moves.at (to the millisecond), and actions.at
--   actions, nations, holdings   the tables below, as they were
--   state                 territories_states (map_seq 0 and turn_started ''
--                         at version 1)
-- These migrations are recorded in territories_db_version; the store's own
-- in goose_db_version.

-- +goose Up
CREATE TABLE actions (
    match_id TEXT   NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq      BIGINT NOT NULL,  -- the move's seq
    player   TEXT   NOT NULL,  -- '' for the judge (end-turn)
    action   TEXT   NOT NULL,  -- as the rules read it, territories by id: "attack CA NV"
    dice     TEXT   NOT NULL,  -- JSON array of the draws: an attack's roll, a join's colour
    outcome  TEXT   NOT NULL,  -- JSON, as the caller was told
    at       TEXT   NOT NULL,  -- RFC 3339, when it was stored (to the nanosecond in converted games)
    PRIMARY KEY (match_id, seq)
);

CREATE TABLE nations (
    match_id     TEXT    NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    player       TEXT    NOT NULL,
    color        TEXT    NOT NULL,  -- #rrggbb
    joined       BIGINT  NOT NULL,  -- the action that founded it
    out          BIGINT,            -- the battle that took its last army; NULL while in the game
    actions_left INTEGER,           -- in this turn, under turn management; NULL without
    PRIMARY KEY (match_id, name),
    UNIQUE (match_id, player)
);

CREATE TABLE holdings (
    match_id  TEXT    NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    territory TEXT    NOT NULL,  -- the territory's id; unclaimed territories have no row
    nation    TEXT    NOT NULL,
    armies    INTEGER NOT NULL CHECK (armies > 0),
    PRIMARY KEY (match_id, territory)
);

-- What a game file of arbiter territories keeps beside its log: the map
-- it draws, written once; and, rewritten by every call, the rules' state
-- after an action, so that the next call resumes without replaying the
-- log (the moves after it, if any, are applied to it), and the action its
-- map files show. Matches of arbiter serve have no rows.
CREATE TABLE territories_maps (
    match_id TEXT PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    svg      TEXT NOT NULL  -- the map as given at init, checked against the territories
);

CREATE TABLE territories_states (
    match_id     TEXT   PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    seq          BIGINT NOT NULL,  -- the action of world
    world        TEXT   NOT NULL,  -- the rules' snapshot: dice, turn, nations, holdings
    turn_started TEXT   NOT NULL,  -- RFC 3339, when the turn began (turn_duration); '' unknown
    map_seq      BIGINT NOT NULL   -- the action the map files show
);

-- +goose Down
DROP TABLE territories_states;
DROP TABLE territories_maps;
DROP TABLE holdings;
DROP TABLE nations;
DROP TABLE actions;
