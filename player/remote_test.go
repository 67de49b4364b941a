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
