package filelock

// flock(2) and fcntl(2) locks are apart on Linux.
const meetsSQLite = false
