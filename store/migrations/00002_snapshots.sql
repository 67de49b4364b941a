-- Snapshots of matches, for fast resumption: a match is read by restoring
-- its latest snapshot and replaying only the moves after it. A snapshot is
-- a cache of what the log says, never a second source of truth: one that
-- is missing, or that these rules cannot restore, is replaced by the
-- replay of the whole log.

-- +goose Up
CREATE TABLE snapshots (
    match_id TEXT   NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq      BIGINT NOT NULL,  -- the match as it stood after this move
    state    TEXT   NOT NULL,  -- the game's snapshot (engine.Restorer): every secret of the match, never shown
    opened   TEXT   NOT NULL,  -- when each request then open was opened: JSON {"id": Unix milliseconds}
    PRIMARY KEY (match_id, seq)
);

-- +goose Down
DROP TABLE snapshots;
