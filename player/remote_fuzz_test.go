package player

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// scripted is a conn whose program answers with the given lines.
type scripted struct{ lines [][]byte }

func (s *scripted) call(ctx context.Context, msg []byte, deadline time.Time) ([]byte, error) {
	return s.next(ctx, deadline)
}
func (s *scripted) next(context.Context, time.Time) ([]byte, error) {
	if len(s.lines) == 0 {
		return nil, errTimeout
	}
	l := s.lines[0]
	s.lines = s.lines[1:]
	return l, nil
}
func (s *scripted) tell([]byte) error { return nil }
func (s *scripted) close() error      { return nil }

// FuzzReply feeds a program's answers to a request: whatever a bot writes,
// Decide returns a move of the game or an error, and never panics or hangs.
func FuzzReply(f *testing.F) {
	for _, s := range []string{
		`{"type":"move","id":7,"move":"conquer"}`,
		`{"type":"move","id":6,"move":"late"}` + "\n" + `{"type":"move","id":7,"move":3}`,
		`{"type":"move","id":7}`,
		`hello`,
		`{"type":"ready"}`,
		`[1,2,3]`,
		`{"type":"move","id":7,"move":{"nested":[1,{"a":null}]}}`,
		``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		var lines [][]byte
		start := 0
		for i := 0; i <= len(reply); i++ {
			if i == len(reply) || reply[i] == '\n' {
				lines = append(lines, []byte(reply[start:i]))
				start = i + 1
			}
		}
		r := &Remote[string, int]{Spec: "exec:fuzz", conn: &scripted{lines: lines}}
		req := &engine.Request[string]{ID: 7, Kind: "turn", Default: "develop", Deadline: time.Second}
		if _, err := r.Decide(context.Background(), req, 0); errors.Is(err, engine.ErrForfeit) {
			// Only a program that exits, or strikes out, loses its seat.
			t.Errorf("a reply forfeited the seat: %v", err)
		}
	})
}
