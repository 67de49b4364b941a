package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The files a run writes are checked before anything is played: a file that
// exists is replaced only with --force, and a path that cannot be written
// (a directory that does not exist, a file where a directory is wanted) is
// refused with exit 2, naming the path as it was given.

// checkOutput checks the file path that --flag names.
func checkOutput(flag, path string, force bool) error {
	if path == "" {
		return nil
	}
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return usagef("--%s %s is a directory; give a file name", flag, path)
	case err == nil && !force:
		return usagef("--%s %s: the file exists; give --force to replace it", flag, path)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return usagef("--%s %s: %v", flag, path, pathCause(err))
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return usagef("--%s %s: there is no directory %s", flag, path, dir)
	}
	return nil
}

// checkRecordDir checks --record DIR for a series of games: the directory
// is made when missing, and records of the same numbers are replaced only
// with --force.
func checkRecordDir(dir string, games int, force bool) error {
	if dir == "" {
		return nil
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return usagef("--record %s is a file; give a directory for the records", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usagef("--record %s: %v", dir, pathCause(err))
	}
	if force {
		return nil
	}
	names, _ := filepath.Glob(filepath.Join(dir, "game-*.jsonl"))
	for _, name := range names {
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(name), "game-"), ".jsonl"))
		if err == nil && n >= 1 && n <= games {
			return usagef("--record %s: %s exists; give --force to replace the records, or another directory", dir, filepath.Base(name))
		}
	}
	return nil
}

// pathCause is an os error's cause, without the path it repeats (which may
// be a temporary file's rather than the one the user gave).
func pathCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
