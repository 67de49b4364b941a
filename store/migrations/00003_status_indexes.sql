-- The matches by status, in indexes that a move does not write: the old
-- index on (status, updated) moved a running match's entry with every move
-- (each commit wrote its pages, and PostgreSQL could not update the row in
-- place). A running match is found in matches_running, by when it was
-- created; an ended one in matches_ended, whose entries change only when a
-- match ends. Queries name the status 'running' as it is written here, so
-- that both databases can use these partial indexes, and a move that
-- leaves its match running does not set the status (SQLite rewrites the
-- indexes of every column an UPDATE sets, changed or not).

-- +goose Up
DROP INDEX matches_by_status;
CREATE INDEX matches_running ON matches (created) WHERE status = 'running';
CREATE INDEX matches_ended ON matches (status) WHERE status <> 'running';

-- +goose Down
DROP INDEX matches_ended;
DROP INDEX matches_running;
CREATE INDEX matches_by_status ON matches (status, updated);
