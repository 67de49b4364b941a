-- The file says what it is: SQLite's application id (PRAGMA
-- application_id, in the file's header) is "ARBT", 0x41524254, so that
-- Arbiter knows a game of territories before it changes anything, and
-- leaves every other file alone. Games made before the id was kept in
-- every file get it here.

-- +goose Up
PRAGMA application_id = 1095909972;

-- +goose Down
PRAGMA application_id = 0;
