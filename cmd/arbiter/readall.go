package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// maxInput bounds what a command reads from a file or standard input.
const maxInput = 64 << 20

// readAll reads r whole, refusing more than maxInput bytes.
func readAll(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxInput {
		return nil, fmt.Errorf("larger than %d MiB, the most Arbiter reads from one file", maxInput>>20)
	}
	return b, nil
}

// readInput reads the file at path whole, as readAll does. Its errors do
// not repeat the path: callers name the file or the flag.
func readInput(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, pe.Err
		}
		return nil, err
	}
	defer f.Close()
	return readAll(f)
}
