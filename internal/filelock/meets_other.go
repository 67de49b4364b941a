//go:build !linux

package filelock

// On macOS and the BSDs flock(2) and fcntl(2) locks meet; on Windows the
// byte locked is apart from SQLite's, but a mandatory lock on SQLite's file
// is not risked: a file beside it costs nothing.
const meetsSQLite = true
