//go:build !unix

package territories

import (
	"errors"
	"os"
)

// canWrite says why this process may not write the file at path, or nil:
// where there is no access(2), a file is opened for reading and writing,
// and a directory's read-only attribute is looked at.
func canWrite(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		if fi.Mode().Perm()&0o200 == 0 {
			return errors.New("read-only")
		}
		return nil
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	return f.Close()
}
