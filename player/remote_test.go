package player

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// shBot is a program of the shell script script, as a seat of a game whose
// moves and views are strings.
func shBot(t *testing.T, script string) *Remote[string, string] {
	t.Helper()
	r := NewRemote[string, string]("exec:sh -c "+strconv.Quote(script), External{Logs: &Logs{Dir: t.TempDir()}})
	t.Cleanup(func() { r.Close() })
	return r
}

func startIn(r *Remote[string, string], startup time.Duration) error {
	return r.Start(context.Background(), engine.MatchInfo{Game: 1, Time: engine.TimeControl{Deadline: time.Second, StartDeadline: startup}})
}

func TestSilentProgramIsToldToFlush(t *testing.T) {
	// A program that writes its ready into a buffer it never flushes
	// (Python's print to a pipe) sends nothing at all: its fault says
	// that each line must be flushed.
	const hint = "nothing came on its standard output: a program must flush each line it writes"
	err := startIn(shBot(t, `read hello; exec sleep 60`), 200*time.Millisecond)
	f := engine.FaultOf(err)
	if f.Kind != engine.FaultStart || !strings.Contains(f.Detail, "no answer in time; "+hint) {
		t.Errorf("fault %+v; want a start fault that says %q", f, hint)
	}
	// A program that wrote something, but not a whole line, is not told.
	err = startIn(shBot(t, `read hello; printf '{"type":'; exec sleep 60`), 200*time.Millisecond)
	if f := engine.FaultOf(err); !strings.Contains(f.Detail, "no answer in time") || strings.Contains(f.Detail, "flush") {
		t.Errorf("fault %+v; want a timeout with no word of flushing", f)
	}
}

func TestProgramThatExitsBeforeReadyFailsToStart(t *testing.T) {
	// "start: the program could not start, or did not answer hello with
	// ready": an interpreter whose script does not exist exits at once.
	for _, c := range []struct{ script, detail string }{
		{`exit 2`, "exited with code 2"},
		{`read hello; echo '{"type":"move"}'`, `answered hello with "{\"type\":\"move\"}"`},
	} {
		f := engine.FaultOf(startIn(shBot(t, c.script), 5*time.Second))
		if f.Kind != engine.FaultStart || !strings.Contains(f.Detail, c.detail) {
			t.Errorf("%s: fault %+v; want a start fault that says %q", c.script, f, c.detail)
		}
	}
}
