-- Safe retries and a map that follows the log.
--
-- actions.request is the caller's id for a call: the same id again returns
-- the first answer rather than acting twice. state.map_seq is the action the
-- map files show, so that of two processes the later state always wins.
-- state.turn_started is when the turn began, for turn_duration.

-- +goose Up
ALTER TABLE actions ADD COLUMN request TEXT;
CREATE UNIQUE INDEX actions_request ON actions (request) WHERE request IS NOT NULL;
ALTER TABLE state ADD COLUMN map_seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE state ADD COLUMN turn_started TEXT;

-- +goose Down
DROP INDEX actions_request;
ALTER TABLE actions DROP COLUMN request;
ALTER TABLE state DROP COLUMN map_seq;
ALTER TABLE state DROP COLUMN turn_started;
