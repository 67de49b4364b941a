-- Live matches of every game: the matches, the secrets that let their
-- players and judge act (only their hashes), and the append-only log of
-- moves. The same statements run on SQLite and PostgreSQL.

-- +goose Up
CREATE TABLE matches (
    id            TEXT    PRIMARY KEY,
    game          TEXT    NOT NULL,
    variant       TEXT    NOT NULL,
    rules_version TEXT    NOT NULL,  -- the rules it started with; it is never replayed under others
    mode          TEXT    NOT NULL,  -- the game's live mode ('' for its only one)
    setup         TEXT    NOT NULL,  -- engine.Setup as JSON: seed, players, options
    config        TEXT    NOT NULL,  -- the host's settings as JSON: time control, judge
    listed        BOOLEAN NOT NULL,  -- shown in the list of matches
    status        TEXT    NOT NULL,  -- running, over, aborted
    seq           BIGINT  NOT NULL,  -- the moves in the log
    result        TEXT    NOT NULL,  -- engine.Result as JSON once over, else ''
    created       BIGINT  NOT NULL,  -- Unix milliseconds
    updated       BIGINT  NOT NULL,  -- of the last move or change
    lease_owner   TEXT    NOT NULL,  -- the server that drives it (bots, deadlines)
    lease_until   BIGINT  NOT NULL   -- until when, in Unix milliseconds
);
CREATE INDEX matches_by_created ON matches (created);
CREATE INDEX matches_by_status ON matches (status, updated);

CREATE TABLE secrets (
    hash     TEXT    PRIMARY KEY,    -- SHA-256 of the secret, hex
    match_id TEXT    NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    role     TEXT    NOT NULL,       -- seat, judge or player
    seat     INTEGER NOT NULL,       -- the seat; -1 for the judge and named players
    name     TEXT    NOT NULL        -- a named player's name; '' otherwise
);
CREATE INDEX secrets_by_match ON secrets (match_id);

CREATE TABLE moves (
    match_id  TEXT    NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq       BIGINT  NOT NULL,      -- 1, 2, 3, ... in the order the rules applied them
    actor     INTEGER NOT NULL,      -- the seat, or -1 for the judge
    request   BIGINT  NOT NULL,      -- the request answered; -1 for none
    move      TEXT    NOT NULL,      -- the game's JSON
    fault     TEXT    NOT NULL,      -- engine.Fault as JSON when the move is a default; else ''
    note      TEXT    NOT NULL,      -- the judge's word on a correction; else ''
    at        BIGINT  NOT NULL,      -- Unix milliseconds of the commit
    idem_key  TEXT    NOT NULL,      -- the Idempotency-Key it was sent with; else ''
    idem_hash TEXT    NOT NULL,      -- SHA-256 of the request it answered with that key
    PRIMARY KEY (match_id, seq)
);
CREATE UNIQUE INDEX moves_by_key ON moves (match_id, idem_key) WHERE idem_key <> '';

-- +goose Down
DROP TABLE moves;
DROP TABLE secrets;
DROP TABLE matches;
