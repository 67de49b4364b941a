package player_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/ajveciv"
	"github.com/arbiter-games/arbiter/games/tncc"
	"github.com/arbiter-games/arbiter/player"
)

// play plays a match of rules among seats and returns its record's steps
// as JSON, and its faults.
func play[M, V any](t *testing.T, rules engine.Ruleset[M, V], setup engine.Setup, seats []engine.Seat[M, V]) (string, []engine.SeatFault) {
	t.Helper()
	m, err := rules.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewRecord[M](rules.Info(), setup)
	var runner engine.Runner[M, V]
	if err := runner.Run(context.Background(), m, seats, rec); err != nil {
		t.Fatal(err)
	}
	steps, _ := json.Marshal(rec.Steps)
	return string(steps), rec.Faults()
}

// entrant returns the built-in player called name of a game.
func entrant[M, V any](t *testing.T, bots func(string) ([]engine.Entrant[M, V], error), name string) func() engine.Player[M, V] {
	t.Helper()
	es, err := bots(name)
	if err != nil || len(es) != 1 {
		t.Fatalf("%s: %v", name, err)
	}
	return es[0].New
}

// TestProgramPlaysAsInProcess: Go players served as programs behind a URL
// (Program.ServeHTTP), two seats of one match at once, play the match move
// for move as they do in process, with no fault: the views, the requests
// and the seeds they are sent read back into what they are given in
// process.
func TestProgramPlaysAsInProcess(t *testing.T) {
	t.Run("ajveciv", func(t *testing.T) {
		names := []string{"guide", "planner", "random", "guide"}
		setup := engine.Setup{Seed: 11, Players: names, Options: map[string]string{"turns": "25"}}
		served := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), New: entrant(t, ajveciv.Bots, "guide"), Name: "served guide"}
		checkServed(t, ajveciv.Original(), ajveciv.Bots, setup, served, 0, 3)
	})
	t.Run("tncc", func(t *testing.T) {
		names := []string{"blitz", "marshal", "trader", "war"}
		setup := engine.Setup{Seed: 3, Players: names, Options: map[string]string{"preset": "default"}}
		served := &player.Program[tncc.Move, tncc.View]{Rules: tncc.Game{}, New: entrant(t, tncc.Bots, "marshal")}
		checkServed(t, tncc.Game{}, tncc.Bots, setup, served, 1)
	})
}

// checkServed plays setup in process, then with the seats remote played by
// served behind a URL, and compares the two.
func checkServed[M, V any](t *testing.T, rules engine.Ruleset[M, V], bots func(string) ([]engine.Entrant[M, V], error), setup engine.Setup, served *player.Program[M, V], remote ...int) {
	t.Helper()
	var log bytes.Buffer
	served.Log = &log
	srv := httptest.NewServer(served)
	defer srv.Close()
	seats := func(remotes bool) []engine.Seat[M, V] {
		out := make([]engine.Seat[M, V], setup.Seats())
		for s, name := range setup.Players {
			out[s] = engine.Seat[M, V]{Name: name, Player: entrant(t, bots, name)(), Deadline: time.Minute}
		}
		if remotes {
			for _, s := range remote {
				out[s].Player = player.NewRemote[M, V](srv.URL, player.External{})
			}
		}
		return out
	}
	want, faults := play(t, rules, setup, seats(false))
	if len(faults) > 0 {
		t.Fatalf("in process: faults %+v", faults)
	}
	got, faults := play(t, rules, setup, seats(true))
	if len(faults) > 0 {
		t.Fatalf("served: faults %+v\n%s", faults, log.String())
	}
	if got != want {
		t.Errorf("served, the match went otherwise:\n got %.800s\nwant %.800s\nlog: %s", got, want, log.String())
	}
	if log.Len() > 0 {
		t.Errorf("the program logged: %s", log.String())
	}
}

// conversation runs a Program of AjveCiv's raider on lines and returns
// what it answered and logged.
func conversation(t *testing.T, p *player.Program[ajveciv.Value, ajveciv.View], lines ...string) (out, log string, err error) {
	t.Helper()
	var o, l bytes.Buffer
	p.Log = &l
	err = p.Run(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n"), &o)
	return o.String(), l.String(), err
}

// raider chooses conquer when offered, else the first choice; it can be
// made to fail.
type raider struct {
	fail    error
	panics  bool
	started *engine.MatchInfo
	result  *engine.Result
}

func (r *raider) Decide(_ context.Context, req *engine.Request[ajveciv.Value], v ajveciv.View) (ajveciv.Value, error) {
	if r.panics {
		panic("the raider fell over")
	}
	if r.fail != nil {
		return 0, r.fail
	}
	if v.Offers(ajveciv.Conquer) {
		return ajveciv.Conquer, nil
	}
	return req.Choices[0], nil
}

func (r *raider) Start(_ context.Context, info engine.MatchInfo) error {
	r.started = &info
	return nil
}

func (r *raider) Finish(_ context.Context, res engine.Result) { r.result = &res }

// ajvecivLines returns a hello and a first request of a game of AjveCiv,
// for seat 1, as Arbiter sends them, with the request's id.
func ajvecivLines(t testing.TB, match string) (hello, request string, id int64) {
	t.Helper()
	setup := engine.Setup{Seed: 5, Players: []string{"basic.develop", "exec:bot"}, Options: map[string]string{"turns": "10", "inflections": "true"}}
	m, err := ajveciv.Original().NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := json.Marshal(player.Hello{Type: "hello", Match: match, Protocol: player.ProtocolVersion, Game: "ajveciv", Variant: "original", RulesVersion: ajveciv.RulesVersion,
		Seat: 1, Players: setup.Players, Options: setup.Options, Seed: 77, Time: player.TimeLimits{DecisionMS: 1000, ReplyMS: 1000, StartupMS: 10000}})
	req := m.Pending()[1]
	r, _ := json.Marshal(player.RequestMessage[ajveciv.Value, ajveciv.View]{Type: "request", Match: match, Seat: 1, ID: req.ID, Kind: string(req.Kind),
		Choices: req.Choices, Default: req.Default, View: m.View(1), DeadlineMS: 1000})
	return string(h), string(r), req.ID
}

// TestProgramConversation: hello is answered with ready, after the player
// is started with the match as the hello tells it; each request with the
// player's move; the result reaches a Finisher; bye ends the program.
func TestProgramConversation(t *testing.T) {
	bot := &raider{}
	p := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), New: func() engine.Player[ajveciv.Value, ajveciv.View] { return bot }, Name: "raider"}
	hello, request, id := ajvecivLines(t, "run-3")
	result := `{"type":"result","match":"run-3","seat":1,"result":{"scores":[1,2],"ranks":[2,1],"winners":[1],"reason":"turns"}}`
	out, log, err := conversation(t, p, hello, request, result, `{"type":"bye","match":"run-3","seat":1}`, `{"type":"request","id":99}`)
	if err != nil || log != "" {
		t.Fatalf("Run: %v; logged %q", err, log)
	}
	var req struct{ Choices []ajveciv.Value }
	_ = json.Unmarshal([]byte(request), &req)
	move := req.Choices[0]
	for _, c := range req.Choices {
		if c == ajveciv.Conquer {
			move = c
		}
	}
	want := fmt.Sprintf("{\"type\":\"ready\",\"name\":\"raider\"}\n{\"type\":\"move\",\"id\":%d,\"move\":\"%v\"}\n", id, move)
	if out != want {
		t.Errorf("answered\n%s\nwant\n%s", out, want)
	}
	i := bot.started
	if i == nil || i.Seat != 1 || i.Seed != 77 || i.Game != 3 || i.Ruleset != "ajveciv" || i.Options["turns"] != "10" || i.Time.Deadline != time.Second || i.Players[1] != "exec:bot" {
		t.Errorf("started with %+v", i)
	}
	if bot.result == nil || bot.result.Winners[0] != 1 {
		t.Errorf("finished with %+v", bot.result)
	}
}

// TestProgramRefusesAnotherGame: a program built for one game, asked to
// play another (or another variant, or protocol), says so and stops, with
// no ready: Arbiter plays the seat by default moves.
func TestProgramRefusesAnotherGame(t *testing.T) {
	p := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), New: func() engine.Player[ajveciv.Value, ajveciv.View] { return &raider{} }}
	hello, _, _ := ajvecivLines(t, "m-1")
	for _, c := range []struct{ from, to, want string }{
		{`"game":"ajveciv"`, `"game":"tncc"`, `this program plays ajveciv, and Arbiter asks it to play "tncc"`},
		{`"variant":"original"`, `"variant":"flood"`, `under the original rules, and the match is played under the "flood" rules`},
		{`"protocol":1`, `"protocol":2`, "Arbiter speaks protocol 2; this program speaks protocol 1"},
		{`"turns":"10"`, `"turns":"ten"`, "the match cannot be played: option turns"},
		{`"seat":1`, `"seat":5`, "the match cannot be played: ajveciv: seat 5"},
	} {
		bad := strings.Replace(hello, c.from, c.to, 1)
		out, log, err := conversation(t, p, bad, `{"type":"bye","match":"m-1","seat":1}`)
		if err == nil || out != "" || !strings.Contains(log, c.want) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: answered %q, logged %q, returned %v; want no answer and %q", c.to, out, log, err, c.want)
		}
	}
	started := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), New: func() engine.Player[ajveciv.Value, ajveciv.View] {
		return &failingStart{}
	}}
	if out, log, err := conversation(t, started, hello); err == nil || out != "" || !strings.Contains(log, "the player did not start: no map") {
		t.Errorf("a player that fails to start: answered %q, logged %q, returned %v", out, log, err)
	}
}

type failingStart struct{ raider }

func (*failingStart) Start(context.Context, engine.MatchInfo) error { return errors.New("no map") }

// TestProgramBadLines: a line that is no message, a request before its
// hello, a view that does not read, a player that fails or panics: each is
// logged, the request answered with its default move and, when no move
// could be decided, what went wrong as the move's error, for Arbiter's
// fault; play goes on; nothing panics.
func TestProgramBadLines(t *testing.T) {
	hello, request, id := ajvecivLines(t, "m-1")
	var req struct {
		Default ajveciv.Value
	}
	_ = json.Unmarshal([]byte(request), &req)
	def := func(said string) string {
		move, _ := json.Marshal(req.Default)
		b, _ := json.Marshal(player.MoveMessage{Type: "move", ID: id, Move: move, Error: said})
		return string(b) + "\n"
	}
	const ready = `{"type":"ready"}` + "\n"
	cases := []struct {
		name  string
		bot   *raider
		lines []string
		out   string
		log   []string
	}{
		{"not JSON", &raider{}, []string{"hello there", hello, "[1, 2]", `{"type":"shout"}`}, ready,
			[]string{"line 1: not a message of the protocol", "line 3: not a message of the protocol", `line 4: a message of type "shout", which the protocol has not`}},
		{"request before hello", &raider{}, []string{request}, def(`match "m-1", seat 1, has had no hello`),
			[]string{`line 1: request ` + fmt.Sprint(id) + `: match "m-1", seat 1, has had no hello; the default move is sent, and Arbiter records the fault`}},
		{"a view that does not read", &raider{}, []string{hello, strings.Replace(request, `"yield":20`, `"yield":"many"`, 1)},
			ready + def("its view cannot be read: ajveciv: view: world: yield: want a whole number, got a JSON string"),
			[]string{"line 2: request " + fmt.Sprint(id) + ": its view cannot be read: ajveciv: view: world: yield"}},
		{"a choice that is no move", &raider{}, []string{hello, strings.Replace(request, `"choices":["`, `"choices":["sing","`, 1)},
			ready + def(`its choice "sing" is no move of ajveciv: unknown value "sing"; the values are conquer, exchange, discover, expand, develop, consent`),
			[]string{`its choice "sing" is no move of ajveciv`}},
		{"a request with no id", &raider{}, []string{hello, strings.Replace(request, fmt.Sprintf(`"id":%d,`, id), "", 1)}, ready,
			[]string{"line 2: a request with no id"}},
		{"an error", &raider{fail: errors.New("no idea")}, []string{hello, request}, ready + def("no idea"),
			[]string{"the player failed: no idea; the default move is sent, and Arbiter records the fault"}},
		{"an error with no words", &raider{fail: errors.New("")}, []string{hello, request}, ready + def("an error with no words"),
			[]string{"the player failed: ; the default move is sent"}},
		{"a panic", &raider{panics: true}, []string{hello, request}, ready + def("Decide panicked: the raider fell over"),
			[]string{"line 2: Decide panicked: the raider fell over", "goroutine", "the player failed: Decide panicked: the raider fell over; the default move is sent"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), New: func() engine.Player[ajveciv.Value, ajveciv.View] { return c.bot }}
			out, log, err := conversation(t, p, c.lines...)
			if err != nil || out != c.out {
				t.Errorf("answered %q (%v); want %q", out, err, c.out)
			}
			for _, w := range c.log {
				if !strings.Contains(log, w) {
					t.Errorf("logged %q; want %q in it", log, w)
				}
			}
		})
	}
}

// TestProgramOverHTTPNamesTheSeatInItsLog: behind a URL, one program
// plays many matches and seats at once, and each line of its log says
// which match and seat it is about: a failing player's request, the stack
// of a panic, a message that is not the protocol's.
func TestProgramOverHTTPNamesTheSeatInItsLog(t *testing.T) {
	var log bytes.Buffer
	p := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), Log: &log, New: func() engine.Player[ajveciv.Value, ajveciv.View] {
		return &raider{panics: true}
	}}
	srv := httptest.NewServer(p)
	defer srv.Close()
	post := poster(t, srv)
	h1, r1, id := ajvecivLines(t, "run-1")
	h2, r2, _ := ajvecivLines(t, "run-2")
	for _, m := range []string{h1, h2, r2, r1, `{"type":"shout","match":"run-2","seat":1}`} {
		post(m)
	}
	for _, w := range []string{
		`match "run-2", seat 1: Decide panicked: the raider fell over`,
		fmt.Sprintf(`match "run-2", seat 1: request %d: the player failed: Decide panicked`, id),
		`match "run-1", seat 1: Decide panicked: the raider fell over`,
		fmt.Sprintf(`match "run-1", seat 1: request %d: the player failed`, id),
		`match "run-2", seat 1: a message of type "shout"`,
	} {
		if !strings.Contains(log.String(), w) {
			t.Errorf("logged %s\nwant %q in it", log.String(), w)
		}
	}
}

// slowReading is AjveCiv whose views take delay to read back.
type slowReading struct {
	ajveciv.Game
	delay time.Duration
}

func (g slowReading) ReadViews(info engine.MatchInfo) (func(int64, []byte) (ajveciv.View, error), error) {
	read, err := g.Game.ReadViews(info)
	return func(id int64, data []byte) (ajveciv.View, error) {
		time.Sleep(g.delay)
		return read(id, data)
	}, err
}

// deadlined notes when its decision's context ends.
type deadlined struct {
	raider
	ends time.Time
}

func (d *deadlined) Decide(ctx context.Context, req *engine.Request[ajveciv.Value], v ajveciv.View) (ajveciv.Value, error) {
	d.ends, _ = ctx.Deadline()
	return d.raider.Decide(ctx, req, v)
}

// TestProgramDeadlineCountsFromTheRequest: Decide's context ends before
// the request's deadline, counted from when the request came, however
// long its view took to read: a player that decides until its context
// ends answers in time.
func TestProgramDeadlineCountsFromTheRequest(t *testing.T) {
	const deadline, reading = 10 * time.Second, 2 * time.Second
	bot := &deadlined{}
	p := &player.Program[ajveciv.Value, ajveciv.View]{Rules: slowReading{ajveciv.Original(), reading}, Log: io.Discard,
		New: func() engine.Player[ajveciv.Value, ajveciv.View] { return bot }}
	hello, request, _ := ajvecivLines(t, "m-1")
	request = strings.Replace(request, `"deadline_ms":1000`, fmt.Sprintf(`"deadline_ms":%d`, deadline.Milliseconds()), 1)
	sent := time.Now()
	if _, _, err := conversation(t, p, hello, request); err != nil {
		t.Fatal(err)
	}
	// The request came at once (its line was there to read): its context
	// ends by sent + 9/10 of the deadline, a little after for a slow
	// start, and well before sent + the deadline.
	if bot.ends.IsZero() || bot.ends.After(sent.Add(deadline)) {
		t.Errorf("the context ended %v after the request was sent, its view read in %v; want before its deadline, %v", bot.ends.Sub(sent), reading, deadline)
	}
}

// TestProgramManyMatches: one program plays several matches and seats
// whose messages come interleaved, each with a player of its own, and
// ends when the last says bye.
func TestProgramManyMatches(t *testing.T) {
	made := 0
	p := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), New: func() engine.Player[ajveciv.Value, ajveciv.View] { made++; return &raider{} }}
	h1, r1, id := ajvecivLines(t, "run-1")
	h2, r2, _ := ajvecivLines(t, "run-2")
	pr, pw := io.Pipe()
	var out bytes.Buffer
	done := make(chan error)
	go func() { done <- p.Run(context.Background(), pr, &out) }()
	for _, l := range []string{h1, h2, r2, r1, `{"type":"bye","match":"run-1","seat":1}`, r2, `{"type":"bye","match":"run-2","seat":1}`} {
		if _, err := io.WriteString(pw, l+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the program did not end after the last bye")
	}
	_ = pw.Close()
	if lines := strings.Count(out.String(), "\n"); lines != 5 || made != 2 || strings.Count(out.String(), fmt.Sprintf(`"id":%d`, id)) != 3 {
		t.Errorf("%d players made; answered\n%s", made, out.String())
	}
}

// TestProgramNeedsAViewReader: rules whose views cannot be read back are
// refused before play, with the reason.
func TestProgramNeedsAViewReader(t *testing.T) {
	p := &player.Program[string, string]{Rules: opaque{}, New: func() engine.Player[string, string] { return nil }, Log: io.Discard}
	if err := p.Run(context.Background(), strings.NewReader(""), io.Discard); err == nil || !strings.Contains(err.Error(), "opaque views cannot be read") {
		t.Errorf("Run: %v", err)
	}
}

type opaque struct{}

func (opaque) Info() engine.Info                                      { return engine.Info{Name: "opaque"} }
func (opaque) New(engine.Setup) (engine.Match[string, string], error) { return nil, errors.New("no") }

// FuzzProgram: whatever lines a program is sent after its hello, it
// answers each with a line of the protocol or nothing, and never panics.
func FuzzProgram(f *testing.F) {
	hello, request, _ := ajvecivLines(f, "m-1")
	f.Add(request)
	f.Add(strings.Replace(request, `"conquer"`, `null`, -1))
	f.Add(`{"type":"result","match":"m-1","seat":1,"result":{}}`)
	f.Add(`{"type":"bye","match":"m-1","seat":1}`)
	f.Add(`{"type":"request","match":"m-1","seat":1,"id":1,"view":{"you":1}}`)
	f.Fuzz(func(t *testing.T, line string) {
		p := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), Log: io.Discard,
			New: func() engine.Player[ajveciv.Value, ajveciv.View] { return &raider{} }}
		var out bytes.Buffer
		if err := p.Run(context.Background(), strings.NewReader(hello+"\n"+line+"\n"), &out); err != nil {
			if !strings.Contains(line, `"hello"`) {
				t.Fatalf("Run: %v", err)
			}
			return
		}
		for i, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil || (m["type"] != "ready" && m["type"] != "move") || i == 0 && m["type"] != "ready" {
				t.Fatalf("answered %q", l)
			}
		}
	})
}

func TestProgramOverHTTPKeepsAtMostMaxSeats(t *testing.T) {
	// Behind a URL anyone may open seats, and a seat whose match never
	// says bye stays open: past MaxSeats, the seat heard from least
	// recently is closed for the new one, and the log says so; a seat
	// heard from since stays.
	var log bytes.Buffer
	p := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), Log: &log, MaxSeats: 2,
		New: func() engine.Player[ajveciv.Value, ajveciv.View] { return &raider{} }}
	srv := httptest.NewServer(p)
	defer srv.Close()
	post := poster(t, srv)
	h1, r1, _ := ajvecivLines(t, "m-1")
	h2, _, _ := ajvecivLines(t, "m-2")
	h3, _, _ := ajvecivLines(t, "m-3")
	post(h1)
	post(h2)
	if move := post(r1); !strings.Contains(move, `"type":"move"`) { // m-1 heard from last
		t.Fatalf("m-1's request: %s", move)
	}
	post(h3)
	if !strings.Contains(log.String(), `2 seats are open, the most kept (MaxSeats): seat 1 of match "m-2"`) {
		t.Errorf("logged %q; want m-2's seat closed for m-3's", log.String())
	}
	if move := post(r1); !strings.Contains(move, `"type":"move"`) {
		t.Errorf("m-1's seat, heard from since m-2's, was closed: %s", move)
	}
}

// TestProgramCutsALongError: a player's error of any length is sent as
// much of it as Arbiter keeps, on a line far short of the protocol's
// longest (1 MiB, past which the line is garbage); the log has it whole.
func TestProgramCutsALongError(t *testing.T) {
	hello, request, _ := ajvecivLines(t, "m-1")
	long := strings.Repeat("x", 2<<20)
	p := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), New: func() engine.Player[ajveciv.Value, ajveciv.View] {
		return &raider{fail: errors.New(long)}
	}}
	out, log, err := conversation(t, p, hello, request)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var m player.MoveMessage
	if len(lines) != 2 || json.Unmarshal([]byte(lines[1]), &m) != nil || len(lines[1]) > 1000 || m.Error != strings.Repeat("x", 300)+"…" {
		t.Errorf("answered %.300q… (%d bytes); want a move whose error is the first 300 bytes of the player's", out, len(out))
	}
	if !strings.Contains(log, long) {
		t.Errorf("the log lacks the whole error")
	}
}

// offBeat plays a value it is not offered.
type offBeat struct{}

func (offBeat) Decide(_ context.Context, req *engine.Request[ajveciv.Value], v ajveciv.View) (ajveciv.Value, error) {
	for _, c := range []ajveciv.Value{ajveciv.Conquer, ajveciv.Exchange, ajveciv.Discover, ajveciv.Expand, ajveciv.Develop, ajveciv.Consent} {
		if !v.Offers(c) {
			return c, nil
		}
	}
	return req.Default, nil
}

func TestProgramTellsItsLogOfAnIllegalMove(t *testing.T) {
	// A move the rules will refuse is sent as the player made it (Arbiter
	// judges it, and its report tells the fault), and the bot's log, which
	// its author reads, says so: a value not offered is none of the
	// request's choices.
	p := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), New: func() engine.Player[ajveciv.Value, ajveciv.View] { return offBeat{} }}
	hello, request, id := ajvecivLines(t, "run-9")
	out, log, err := conversation(t, p, hello, request)
	if err != nil || !strings.Contains(out, `"type":"move"`) {
		t.Fatalf("Run: %v; wrote %q", err, out)
	}
	if want := fmt.Sprintf("request %d: the move ", id); !strings.Contains(log, want) || !strings.Contains(log, "is none of the request's choices; it is sent, and Arbiter will play the default and record the move as illegal") {
		t.Errorf("logged %q", log)
	}
	// A legal move says nothing.
	q := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), New: func() engine.Player[ajveciv.Value, ajveciv.View] { return &raider{} }}
	if _, log, _ := conversation(t, q, hello, request); strings.Contains(log, "request") {
		t.Errorf("a legal move logged %q", log)
	}
}

// classNoter notes the class of each request it is asked, and answers as
// raider does.
type classNoter struct {
	raider
	classes []engine.DeadlineClass
}

func (c *classNoter) Decide(ctx context.Context, req *engine.Request[ajveciv.Value], v ajveciv.View) (ajveciv.Value, error) {
	c.classes = append(c.classes, req.Class)
	return c.raider.Decide(ctx, req, v)
}

// TestProgramIsToldARequestsClass: a request that answers another seat's
// move says so, "class": "reply", even when the seat's reply deadline is
// its decision deadline, and the served player's request has Class Reply;
// a request for the seat's own move has no class, and is Ordinary.
func TestProgramIsToldARequestsClass(t *testing.T) {
	bot := &classNoter{}
	served := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), New: func() engine.Player[ajveciv.Value, ajveciv.View] { return bot }}
	var (
		mu     sync.Mutex
		bodies []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(b))
		served.ServeHTTP(w, r)
	}))
	defer srv.Close()
	setup := engine.Setup{Seed: 5, Players: []string{"basic.develop", "served"}, Options: map[string]string{"turns": "10", "inflections": "true"}}
	m, err := ajveciv.Original().NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	remote := player.NewRemote[ajveciv.Value, ajveciv.View](srv.URL, player.External{})
	defer remote.Close()
	info := engine.MatchInfo{Ruleset: "ajveciv", Variant: "original", RulesVersion: ajveciv.RulesVersion, Game: 1, Seat: 1, Players: setup.Players, Options: setup.Options,
		Time: engine.TimeControl{Deadline: time.Minute, ReplyDeadline: time.Minute, StartDeadline: time.Minute}}
	if err := remote.Start(context.Background(), info); err != nil {
		t.Fatal(err)
	}
	for _, class := range []engine.DeadlineClass{engine.Reply, engine.Ordinary} {
		req := m.Pending()[1]
		req.Class, req.Deadline = class, time.Minute
		if _, err := remote.Decide(context.Background(), &req, m.View(1)); err != nil {
			t.Fatal(err)
		}
	}
	if fmt.Sprint(bot.classes) != fmt.Sprint([]engine.DeadlineClass{engine.Reply, engine.Ordinary}) {
		t.Errorf("the player was asked requests of classes %v; want a reply, then an ordinary one", bot.classes)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 3 || !strings.HasSuffix(bodies[1], `,"class":"reply"}`) || strings.Contains(bodies[2], `"class"`) {
		t.Errorf("Arbiter sent %q; want hello, a request with \"class\":\"reply\", and one with no class", bodies)
	}
}

// TestProgramTellsAReplyFromAnOlderArbitersDeadline: from an Arbiter that
// writes no class, a request whose deadline is the seat's reply deadline,
// when that differs from its decision deadline, is a reply; a class
// written is taken as it is, whatever the deadline, and one that is no
// string is not a reply: the request is answered all the same.
func TestProgramTellsAReplyFromAnOlderArbitersDeadline(t *testing.T) {
	hello, request, _ := ajvecivLines(t, "m-1")
	older := strings.Replace(hello, `"reply_ms":1000`, `"reply_ms":300`, 1)
	for _, c := range []struct {
		name, hello, request string
		want                 engine.DeadlineClass
	}{
		{"no class, the reply deadline", older, strings.Replace(request, `"deadline_ms":1000`, `"deadline_ms":300`, 1), engine.Reply},
		{"no class, the decision deadline", older, request, engine.Ordinary},
		{"no class, both deadlines the same", hello, request, engine.Ordinary},
		{"a reply, both deadlines the same", hello, strings.Replace(request, `"bank_ms":0`, `"bank_ms":0,"class":"reply"`, 1), engine.Reply},
		{"a class of no reply, the reply deadline", older, strings.Replace(request, `"deadline_ms":1000`, `"deadline_ms":300,"class":"turn"`, 1), engine.Ordinary},
		{"a class of null, the reply deadline", older, strings.Replace(request, `"deadline_ms":1000`, `"deadline_ms":300,"class":null`, 1), engine.Reply},
		{"a class that is a number, the reply deadline", older, strings.Replace(request, `"deadline_ms":1000`, `"deadline_ms":300,"class":3`, 1), engine.Ordinary},
		{"a class that is an object", hello, strings.Replace(request, `"bank_ms":0`, `"bank_ms":0,"class":{"reply":true}`, 1), engine.Ordinary},
		{"a class that is a list", hello, strings.Replace(request, `"bank_ms":0`, `"bank_ms":0,"class":["reply"]`, 1), engine.Ordinary},
	} {
		bot := &classNoter{}
		p := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), New: func() engine.Player[ajveciv.Value, ajveciv.View] { return bot }}
		if _, log, err := conversation(t, p, c.hello, c.request, `{"type":"bye","match":"m-1","seat":1}`); err != nil || log != "" {
			t.Fatalf("%s: Run: %v; logged %q", c.name, err, log)
		}
		if len(bot.classes) != 1 || bot.classes[0] != c.want {
			t.Errorf("%s: the player was asked requests of classes %v; want %v", c.name, bot.classes, c.want)
		}
	}
}

// stalling is a raider whose Decide of request stall ignores its context
// and waits for release; it notes its calls, and the most at once.
type stalling struct {
	raider
	stall   int64
	entered chan struct{} // closed when the Decide of stall has begun
	release chan struct{}

	mu       sync.Mutex
	decided  []int64
	in, most int
	finished bool
}

func newStalling(stall int64) *stalling {
	return &stalling{stall: stall, entered: make(chan struct{}), release: make(chan struct{})}
}

func (s *stalling) Decide(ctx context.Context, req *engine.Request[ajveciv.Value], v ajveciv.View) (ajveciv.Value, error) {
	s.mu.Lock()
	s.decided = append(s.decided, req.ID)
	s.in++
	s.most = max(s.most, s.in)
	s.mu.Unlock()
	if req.ID == s.stall {
		close(s.entered)
		<-s.release
	}
	s.mu.Lock()
	s.in--
	s.mu.Unlock()
	return s.raider.Decide(ctx, req, v)
}

func (s *stalling) Finish(context.Context, engine.Result) {
	s.mu.Lock()
	s.finished = true
	s.mu.Unlock()
}

func (s *stalling) seen() (decided []int64, most int, finished bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.decided), s.most, s.finished
}

// notingReads is AjveCiv whose views' readers note the requests whose
// views they read, in order.
type notingReads struct {
	ajveciv.Game
	mu  *sync.Mutex
	ids *[]int64
}

func (g notingReads) ReadViews(info engine.MatchInfo) (func(int64, []byte) (ajveciv.View, error), error) {
	read, err := g.Game.ReadViews(info)
	return func(id int64, data []byte) (ajveciv.View, error) {
		g.mu.Lock()
		*g.ids = append(*g.ids, id)
		g.mu.Unlock()
		return read(id, data)
	}, err
}

// syncBuffer is a bytes.Buffer for writers on several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// requestLine is request, an AjveCiv request of id was, with id and the
// deadline deadline.
func requestLine(request string, was, id int64, deadline time.Duration) string {
	request = strings.Replace(request, fmt.Sprintf(`"id":%d,`, was), fmt.Sprintf(`"id":%d,`, id), 1)
	return strings.Replace(request, `"deadline_ms":1000`, fmt.Sprintf(`"deadline_ms":%d`, deadline.Milliseconds()), 1)
}

// TestProgramAnswersOnTimeWhileADecideOverruns: a Decide that ignores its
// context and outlasts its request's deadline goes on aside, and the
// program reads on. The next request, which comes while it runs, is
// answered within its own time with its default and the reason, the
// player not being asked twice at once; once the Decide has returned,
// its move is sent, late, and the next request is decided, the view
// missed read first. Its result reaches the player.
func TestProgramAnswersOnTimeWhileADecideOverruns(t *testing.T) {
	hello, request, was := ajvecivLines(t, "m-1")
	bot := newStalling(11)
	var (
		mu   sync.Mutex
		read []int64
		log  syncBuffer
	)
	p := &player.Program[ajveciv.Value, ajveciv.View]{Rules: notingReads{ajveciv.Original(), &mu, &read}, Log: &log,
		New: func() engine.Player[ajveciv.Value, ajveciv.View] { return bot }}
	in, send := io.Pipe()
	answers, out := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- p.Run(context.Background(), in, out) }()
	lines := bufio.NewReader(answers)
	say := func(line string) {
		t.Helper()
		if _, err := io.WriteString(send, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	heard := func() map[string]any {
		t.Helper()
		var line string
		var err error
		got := make(chan struct{})
		go func() { line, err = lines.ReadString('\n'); close(got) }()
		select {
		case <-got:
		case <-time.After(time.Minute): // an allowance: the answers come in well under a second
			t.Fatal("no answer within a minute")
		}
		var m map[string]any
		if err != nil || json.Unmarshal([]byte(line), &m) != nil {
			t.Fatalf("answered %q, %v", line, err)
		}
		return m
	}
	say(hello)
	heard() // ready
	// Request 11's deadline passes while its Decide waits for release;
	// request 12 comes meanwhile, and has 200 ms: release comes only
	// once it is answered.
	say(requestLine(request, was, 11, 50*time.Millisecond))
	<-bot.entered
	say(requestLine(request, was, 12, 200*time.Millisecond))
	var req struct{ Default string }
	_ = json.Unmarshal([]byte(request), &req)
	const why = "its Decide of request 11 still runs: a player is not asked twice at once"
	if m := heard(); m["id"] != 12.0 || m["move"] != req.Default || m["error"] != why {
		t.Errorf("request 12 answered %v; want its default %q, with the error %q", m, req.Default, why)
	}
	close(bot.release)
	if m := heard(); m["id"] != 11.0 || m["error"] != nil {
		t.Errorf("request 11, its Decide over, answered %v; want its move, late", m)
	}
	say(requestLine(request, was, 13, time.Minute))
	if m := heard(); m["id"] != 13.0 || m["error"] != nil {
		t.Errorf("request 13 answered %v; want the player's move", m)
	}
	say(`{"type":"result","match":"m-1","seat":1,"result":{"scores":[1,2],"ranks":[2,1],"winners":[1],"reason":"turns"}}`)
	say(`{"type":"bye","match":"m-1","seat":1}`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	decided, most, finished := bot.seen()
	if fmt.Sprint(decided) != "[11 13]" || most != 1 || !finished {
		t.Errorf("the player decided %v, at most %d at once, finished %v; want 11 and 13, one at a time, then the result", decided, most, finished)
	}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(read) != "[11 12 13]" {
		t.Errorf("views read %v; want 11, 12 and 13, in order", read)
	}
	for _, want := range []string{
		"line 3: request 12: the player's Decide of request 11, which came ",
		"before this one, still runs, and a player is not asked twice at once: it is not asked this one; the default move is sent, and Arbiter records the fault",
		"line 2: request 11: Decide took ",
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log says\n%s\nwant %q", log.String(), want)
		}
	}
}

// TestProgramTellsNoResultWhileADecideOverruns: the result of a match
// whose Decide still runs is not told the player, whose calls never
// overlap, as in process; the program ends at bye all the same, and its
// log tells of the Decide it leaves running. Over
// HTTP, a request that comes while a Decide runs is answered in time with
// its default too.
func TestProgramTellsNoResultWhileADecideOverruns(t *testing.T) {
	hello, request, was := ajvecivLines(t, "m-1")
	t.Run("run", func(t *testing.T) {
		bot := newStalling(11)
		defer close(bot.release)
		var log syncBuffer
		p := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), Log: &log,
			New: func() engine.Player[ajveciv.Value, ajveciv.View] { return bot }}
		in, send := io.Pipe()
		var out syncBuffer
		done := make(chan error, 1)
		go func() { done <- p.Run(context.Background(), in, &out) }()
		for _, l := range []string{hello, requestLine(request, was, 11, 50*time.Millisecond)} {
			_, _ = io.WriteString(send, l+"\n")
		}
		<-bot.entered
		for _, l := range []string{`{"type":"result","match":"m-1","seat":1,"result":{"scores":[1,2],"ranks":[2,1],"winners":[1],"reason":"turns"}}`, `{"type":"bye","match":"m-1","seat":1}`} {
			_, _ = io.WriteString(send, l+"\n")
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(time.Minute):
			t.Fatal("the program did not end at bye within a minute")
		}
		if _, _, finished := bot.seen(); finished {
			t.Error("the player was told the result while its Decide ran")
		}
		for _, want := range []string{
			"line 3: the player is not told the result (Finish): its Decide of request 11, which came ",
			"line 2: request 11: Decide still ran as the program ended, ",
			", past the request's deadline of 50ms (its context ended at 45ms): Arbiter plays the default move and records a timeout",
		} {
			if !strings.Contains(log.String(), want) {
				t.Errorf("the log says\n%s\nwant %q", log.String(), want)
			}
		}
		if strings.Count(out.String(), "\n") != 1 {
			t.Errorf("answered %q; want the ready only", out.String())
		}
	})
	t.Run("http", func(t *testing.T) {
		bot := newStalling(11)
		p := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), Log: io.Discard,
			New: func() engine.Player[ajveciv.Value, ajveciv.View] { return bot }}
		srv := httptest.NewServer(p)
		defer srv.Close()
		post := func(line string) string {
			client := &http.Client{Timeout: time.Minute}
			resp, err := client.Post(srv.URL, "application/json", strings.NewReader(line))
			if err != nil {
				t.Error(err)
				return ""
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return string(b)
		}
		post(hello)
		first := make(chan string, 1)
		go func() { first <- post(requestLine(request, was, 11, 50*time.Millisecond)) }()
		<-bot.entered
		if got := post(requestLine(request, was, 12, 200*time.Millisecond)); !strings.Contains(got, `"id":12,`) || !strings.Contains(got, `"error":"its Decide of request 11 still runs`) {
			t.Errorf("request 12 answered %s; want its default, the Decide of request 11 running", got)
		}
		close(bot.release)
		if got := <-first; !strings.Contains(got, `"id":11,`) {
			t.Errorf("request 11 answered %s", got)
		}
	})
}

// poster returns a function that posts a protocol message to the program
// behind srv and returns its answer.
func poster(t *testing.T, srv *httptest.Server) func(body string) string {
	return func(body string) string {
		t.Helper()
		res, err := srv.Client().Post(srv.URL, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
}
