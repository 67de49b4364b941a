package player

import (
	"strings"
	"testing"
)

// TestAtTerminalSaysHowToSeat: a bot run at a terminal is told how to seat
// it by its path, and one run by go run, from a temporary build, by the
// program go build makes.
func TestAtTerminalSaysHowToSeat(t *testing.T) {
	for _, c := range []struct{ command, want string }{
		{"./raider", "arbiter play tncc --player exec:./raider\n"},
		{"/tmp/go-build1234/b001/exe/raider", "arbiter play tncc --player exec:./raider, built with go build\n"},
	} {
		if got := atTerminal("tncc", c.command); !strings.HasPrefix(got, "This is a bot of tncc") || !strings.HasSuffix(got, c.want) {
			t.Errorf("%s: %q; want it to end %q", c.command, got, c.want)
		}
	}
}
