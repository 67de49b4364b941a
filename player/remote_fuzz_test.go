package player

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
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

// FuzzMoveError holds a move's "error" to what docs/protocol.md says of
// it: whatever JSON value it is, the bot could not decide, and the fault
// is an error in its words (a string's text, any other value's JSON
// text), at most maxSaid bytes of them; left out, empty, null or false,
// it says nothing, and the move is played. An "error" that is no JSON at
// all makes the line garbage.
func FuzzMoveError(f *testing.F) {
	for _, s := range []string{`"no idea"`, `""`, `null`, `false`, `true`, `0`, `{"code": 3}`, `[1, "a"]`, `"\u00e9"`, `{"a":`, `"` + strings.Repeat("x", 400) + `"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		line := `{"type":"move","id":7,"move":"conquer","error":` + value + `}`
		r := &Remote[string, int]{Spec: "exec:fuzz", conn: &scripted{lines: [][]byte{[]byte(line)}}}
		req := &engine.Request[string]{ID: 7, Kind: "turn", Default: "develop", Deadline: time.Second}
		mv, err := r.Decide(context.Background(), req, 0)
		var v any
		if json.Unmarshal([]byte(value), &v) != nil || json.Unmarshal([]byte(line), new(map[string]any)) != nil {
			if fault := engine.FaultOf(err); err == nil || fault.Kind != engine.FaultGarbage {
				t.Fatalf("%s: move %q, %v; want garbage", line, mv, err)
			}
			return
		}
		var words string
		switch v := v.(type) {
		case nil, bool:
			if v == true {
				words = "true"
			}
		case string:
			words = v
		default:
			var b bytes.Buffer
			_ = json.Compact(&b, []byte(value))
			words = b.String()
		}
		if words == "" {
			if err != nil || mv != "conquer" {
				t.Fatalf("%s: move %q, %v; want conquer played", line, mv, err)
			}
			return
		}
		fault := engine.FaultOf(err)
		if err == nil || fault.Kind != engine.FaultError || fault.Detail != said(words) {
			t.Fatalf("%s: move %q, fault %+v; want an error saying %q", line, mv, fault, said(words))
		}
		if len(fault.Detail) > maxSaid+len("…") {
			t.Fatalf("%s: the fault keeps %d bytes; want at most %d", line, len(fault.Detail), maxSaid)
		}
	})
}
