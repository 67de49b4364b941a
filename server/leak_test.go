package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/server"
)

// reader is one client of a match: a seat's player, or a spectator, who
// keeps every byte it receives, from GETs and from its event stream.
type reader struct {
	secret string
	seat   int // -1 for a spectator
	got    recorder
}

// readAlong follows the match's stream for r until ctx ends, keeping every
// byte.
func (ts *testServer) readAlong(ctx context.Context, id string, r *reader) {
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.http.URL+"/api/v1/matches/"+id+"/events", nil)
	if r.secret != "" {
		req.Header.Set("Authorization", "Bearer "+r.secret)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return
	}
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<22)
		for sc.Scan() {
			r.got.add(sc.Bytes())
		}
	}()
}

func TestNoReaderLearnsWhatItMayNot(t *testing.T) {
	// "Leaks: for every game, a client per seat and a spectator record
	// every byte they receive (GET, SSE, record download); a test checks
	// none contains what that reader may not know."
	games := []struct {
		name string
		body map[string]any
		// simultaneous: a seat's move must show to nobody until its round
		// resolves.
		simultaneous bool
		check        func(t *testing.T, r *reader, record []byte)
	}{
		{"zombie identities", map[string]any{"game": "zombie", "seats": people(5), "options": map[string]any{"zombies": 2, "viruses": 2, "antibodies": 1, "turns": 6}},
			true, checkZombie},
		{"tncc flanks", map[string]any{"game": "tncc", "seats": append(people(1), map[string]any{"player": "blitz"}, map[string]any{"player": "war"}),
			"options": map[string]any{"preset": `{"base":"default","gold_for_war":50,"max_cycles":12}`}}, false, checkFlanks},
		{"ajveciv choices", map[string]any{"game": "ajveciv", "seats": append(people(2), map[string]any{"player": "basic.conquer"}), "options": map[string]any{"turns": 4}}, true, nil},
		{"reaj choices", map[string]any{"game": "reaj", "seats": append(people(2), map[string]any{"player": "adapt"}), "options": map[string]any{"turns": 4}}, true, nil},
		{"territories seats", map[string]any{"game": "territories", "mode": "seats", "seats": append(people(1), map[string]any{"player": "greedy"}), "options": map[string]any{"turns": 3}}, false, nil},
	}
	ts := newServer(t, server.Config{})
	for _, g := range games {
		t.Run(g.name, func(t *testing.T) {
			c := ts.create(g.body)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			readers := []*reader{{seat: -1}}
			for _, s := range c.Seats {
				if s.Secret != "" {
					readers = append(readers, &reader{secret: s.Secret, seat: s.Seat})
				}
			}
			for _, r := range readers {
				ts.readAlong(ctx, c.ID, r)
			}
			// Play: each person, when asked, reads the match (kept) and
			// sends its default; a simultaneous move changes nothing the
			// others can see until the round resolves.
			for round := 0; ; round++ {
				m := ts.state(c.ID, "")
				if m.Status != "running" {
					break
				}
				moved := false
				for _, r := range readers[1:] {
					a := ts.call("GET", "/api/v1/matches/"+c.ID, r.secret, nil)
					r.got.add(a.body)
					var ms matchState
					json.Unmarshal(a.body, &ms)
					for _, q := range ms.Requests {
						others := viewsOf(ts, c.ID, readers, r)
						if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", r.secret, map[string]any{"request": q.ID, "move": q.Default}); a.status == 200 {
							moved = true
							if after := ts.state(c.ID, r.secret); after.Status == "running" && len(after.Requests) == 0 {
								// Others still owe this round: what they see
								// must not have changed.
								if now := viewsOf(ts, c.ID, readers, r); g.simultaneous && now != others {
									t.Errorf("seat %d's move showed before its round resolved", r.seat)
								}
							}
						}
					}
				}
				if !moved {
					time.Sleep(2 * time.Millisecond)
				}
				if round > 100000 {
					t.Fatal("the match does not end")
				}
			}
			time.Sleep(50 * time.Millisecond) // the last events reach the streams
			cancel()
			rec := ts.call("GET", "/api/v1/matches/"+c.ID+"/record", c.Judge0(), nil)
			var seed struct {
				Setup struct{ Seed uint64 }
			}
			json.Unmarshal(bytes.SplitN(rec.body, []byte("\n"), 2)[0], &seed)
			for _, r := range readers {
				got := r.got.String()
				if got == "" {
					t.Fatalf("reader %d received nothing", r.seat)
				}
				// The seed, while hidden draws remain, and other seats'
				// secrets are nobody's.
				if strings.Contains(got, strconv.FormatUint(seed.Setup.Seed, 10)) {
					t.Errorf("reader %d received the match's seed", r.seat)
				}
				for _, s := range c.Seats {
					if s.Secret != "" && s.Seat != r.seat && strings.Contains(got, s.Secret) {
						t.Errorf("reader %d received seat %d's secret", r.seat, s.Seat)
					}
				}
				if g.check != nil {
					g.check(t, r, rec.body)
				}
			}
		})
	}
}

// Judge0 is a created match's judge secret, or "" (its record is then
// everyone's once over).
func (c created) Judge0() string {
	if c.Judge == nil {
		return ""
	}
	return c.Judge.Secret
}

func people(n int) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		out[i] = map[string]any{"player": "person"}
	}
	return out
}

// viewsOf returns what every reader but r sees now, as one string.
func viewsOf(ts *testServer, id string, readers []*reader, r *reader) string {
	var b strings.Builder
	for _, o := range readers {
		if o != r {
			b.Write(ts.state(id, o.secret).View)
		}
	}
	return b.String()
}

// checkZombie: a player learns no other player's identity and never the
// word infected; the record (everyone's once over) tells the truth.
func checkZombie(t *testing.T, r *reader, record []byte) {
	got := r.got.String()
	if strings.Contains(got, "infected") {
		t.Errorf("reader %d was told of an infection", r.seat)
	}
	// A reader who was never a zombie, or a spectator, never sees the
	// word zombie as anyone's identity: it would be another's.
	var end struct {
		Result struct{ Status []string }
	}
	lines := bytes.Split(bytes.TrimSpace(record), []byte("\n"))
	json.Unmarshal(lines[len(lines)-1], &end)
	human := r.seat < 0 || r.seat < len(end.Result.Status) && end.Result.Status[r.seat] == ""
	if len(end.Result.Status) == 0 {
		t.Fatalf("the record has no result: %s", lines[len(lines)-1])
	}
	if human && strings.Contains(got, `"identity":"zombie"`) {
		t.Errorf("reader %d, never a zombie, saw a zombie's identity", r.seat)
	}
	if r.seat < 0 && strings.Contains(got, `"identity"`) {
		t.Errorf("the spectator saw an identity")
	}
	// Every private message a reader gets is its own: the view's "me"
	// and "messages" belong to the reader's seat.
	for _, line := range strings.Split(got, "\n") {
		line = strings.TrimPrefix(line, "data: ")
		var m struct{ View struct{ You *int } }
		if json.Unmarshal([]byte(line), &m) == nil && m.View.You != nil && *m.View.You != r.seat {
			t.Errorf("reader %d received the view of seat %d", r.seat, *m.View.You)
		}
	}
}

// checkFlanks: no reader but the judge sees how an attacker split its
// army, before or after the battle.
func checkFlanks(t *testing.T, r *reader, record []byte) {
	got := r.got.String()
	wars := 0
	for _, line := range bytes.Split(record, []byte("\n")) {
		var step struct {
			Seat int
			Move struct {
				Type   string
				Flanks []int64
			}
		}
		if json.Unmarshal(line, &step) != nil || step.Move.Type != "war" {
			continue
		}
		wars++
		split, _ := json.Marshal(step.Move.Flanks)
		if strings.Contains(got, `"flanks":`+string(split)) && step.Seat != r.seat {
			t.Errorf("reader %d saw seat %d's flanks %s", r.seat, step.Seat, split)
		}
	}
	if wars == 0 {
		t.Error("no war was fought: the test saw no flanks")
	}
}
