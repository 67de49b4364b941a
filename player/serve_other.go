//go:build !unix

package player

import "os"

// protocolOutput cannot change the process's file descriptors here: only
// os.Stdout, set to os.Stderr while Serve runs, keeps prints off the
// protocol's lines.
func protocolOutput() (out *os.File, restore func(), ok bool) { return nil, nil, false }
