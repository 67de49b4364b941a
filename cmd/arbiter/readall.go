package main

import (
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
		return nil, fmt.Errorf("input larger than %d MiB", maxInput>>20)
	}
	return b, nil
}

// readInput reads the file at path whole, as readAll does.
func readInput(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f)
}
