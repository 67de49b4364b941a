package player

import (
	"errors"

	"github.com/arbiter-games/arbiter/engine"
)

// errNoPrograms is why a program cannot be a player on Windows: what keeps
// a program in bounds (its own session, limits, the end of everything it
// started) is built on Unix's processes.
var errNoPrograms = errors.New("exec: bots run on Linux, macOS and the BSDs; on Windows, run Arbiter under WSL, or serve the bot over HTTP and give its http:// URL (starters/python/http_bot.py)")

// execSupported says why programs cannot be players here.
func execSupported() error { return errNoPrograms }

// startProgram refuses: see errNoPrograms.
func startProgram(string, External, *seatLog, engine.MatchInfo) (conn, error) {
	return nil, errNoPrograms
}

// limitArgs, sandboxProgram and sandboxFilter are never reached here
// (startProgram refuses first).
func limitArgs(_ []rlimit, argv, env []string) (_, _ []string, limited bool, _ error) {
	return nil, nil, false, errNoPrograms
}
func sandboxProgram() (string, error) { return "", errNoPrograms }
func sandboxFilter() []byte           { return nil }

// The rlimit resources, which Windows has not: they name the limits only.
const (
	resourceAS = iota
	resourceCPU
	resourceNPROC
	resourceFSIZE
)
