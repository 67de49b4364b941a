package server_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/server"
)

func TestPlayAMatchThroughTheAPI(t *testing.T) {
	// "A newcomer runs arbiter serve, creates a match from curl, plays a
	// seat ... and watches the stream": a person against a built-in bot,
	// to the end, and its record replays.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}, "options": map[string]any{"turns": 4}})
	if len(c.Seats) != 2 || c.Seats[0].Secret == "" || c.Seats[1].Secret != "" || !strings.Contains(c.Seats[0].URL, "#s="+c.Seats[0].Secret) {
		t.Fatalf("seats %+v; want a secret and a link for the person only", c.Seats)
	}
	m := ts.playDefaults(c)
	if m.Status != "over" || m.Result == nil || len(m.Result.Scores) != 2 {
		t.Fatalf("the match ended %+v", m)
	}
	rec := ts.call("GET", "/api/v1/matches/"+c.ID+"/record", "", nil)
	if rec.status != http.StatusOK {
		t.Fatalf("record: %d %s", rec.status, rec.body)
	}
	g, _ := catalog.Find("reaj")
	got, err := g.Replay(rec.body)
	if err != nil || got.Moves != int(m.Seq) || got.Hash == "" {
		t.Errorf("the record does not replay: %+v %v\n%s", got, err, rec.body)
	}
}

func TestEveryGameLive(t *testing.T) {
	// Every game of the catalog plays live: its default bots and one
	// person, to the end.
	ts := newServer(t, server.Config{})
	for _, g := range catalog.Games() {
		info := g.Info()
		t.Run(info.Name, func(t *testing.T) {
			seats := []map[string]any{{"player": "person"}}
			for _, b := range strings.Split(info.DefaultPlayers, ",") {
				seats = append(seats, map[string]any{"player": b})
			}
			options := map[string]any{}
			for _, o := range info.Options {
				if o.Name == "turns" {
					options["turns"] = 3
				}
			}
			body := map[string]any{"game": info.Name, "seats": seats, "options": options}
			if lg, ok := g.(catalog.LiveGame); ok {
				for _, mode := range lg.Modes() {
					if !mode.Judge {
						body["mode"] = mode.Name
						break
					}
				}
			}
			c := ts.create(body)
			m := ts.playDefaults(c)
			if m.Status != "over" {
				t.Fatalf("status %s", m.Status)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	// Every refusal of live.md, as {"error": {"code", "message"}} with its
	// status, and none changes the match.
	ts := newServer(t, server.Config{Limits: server.Limits{Body: 2048, Creates: 6000}})
	c := ts.create(map[string]any{"game": "ajveciv", "seats": []map[string]any{{"player": "person"}, {"player": "person"}}, "judge": true,
		"options": map[string]any{"turns": 5}})
	other := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "person"}}})
	p0, p1, judge := c.Seats[0].Secret, c.Seats[1].Secret, c.Judge.Secret
	path := "/api/v1/matches/" + c.ID
	before := ts.state(c.ID, p0)
	req := before.Requests[0]
	offered := map[string]bool{}
	for _, ch := range req.Choices {
		offered[strings.Trim(string(ch), `"`)] = true
	}
	notOffered := ""
	for _, v := range []string{"conquer", "exchange", "discover", "expand", "develop", "consent"} {
		if !offered[v] {
			notOffered = v
		}
	}
	cases := []struct {
		name         string
		method, path string
		secret       string
		body         any
		status       int
		code         string
	}{
		{"no secret to move", "POST", path + "/moves", "", map[string]any{"request": req.ID, "move": req.Default}, 401, "unauthorized"},
		{"an unknown secret", "GET", path, "not-a-secret-of-this-server", nil, 401, "unauthorized"},
		{"a malformed header", "GET", path, " ", nil, 401, "unauthorized"},
		{"another match's secret", "POST", path + "/moves", other.Seats[0].Secret, map[string]any{"request": req.ID, "move": req.Default}, 403, "forbidden"},
		{"another seat's request", "POST", path + "/moves", p1, map[string]any{"request": req.ID, "move": req.Default}, 409, "stale-request"},
		{"a request never asked", "POST", path + "/moves", p0, map[string]any{"request": 99999, "move": req.Default}, 409, "stale-request"},
		{"a seat's move without a request", "POST", path + "/moves", p0, map[string]any{"move": req.Default}, 400, "no-request"},
		{"a move not offered", "POST", path + "/moves", p0, map[string]any{"request": req.ID, "move": notOffered}, 422, ""},
		{"not a move of the game", "POST", path + "/moves", p0, map[string]any{"request": req.ID, "move": map[string]any{"fly": 1}}, 422, "not-a-move"},
		{"malformed JSON", "POST", path + "/moves", p0, `{"request": 1, "move": `, 400, "bad-json"},
		{"an unknown field", "POST", path + "/moves", p0, map[string]any{"request": req.ID, "move": req.Default, "extra": 1}, 400, "bad-json"},
		{"two values", "POST", path + "/moves", p0, `{"move":"conquer"} {}`, 400, "bad-json"},
		{"no move", "POST", path + "/moves", p0, map[string]any{"request": req.ID}, 400, "bad-json"},
		{"a request id that is text", "POST", path + "/moves", p0, `{"request": "x", "move": "conquer"}`, 400, "bad-json"},
		{"a body too large", "POST", path + "/moves", p0, map[string]any{"request": req.ID, "move": strings.Repeat("x", 4096)}, 413, "too-large"},
		{"expect_seq behind", "POST", path + "/moves", judge, map[string]any{"move": "conquer", "expect_seq": 7}, 409, "moved"},
		{"a judge move in a game without them", "POST", path + "/moves", judge, map[string]any{"move": "conquer"}, 422, "no-judge-moves"},
		{"an unknown match", "GET", "/api/v1/matches/nosuchmatch", "", nil, 404, "no-match"},
		{"an unknown call", "GET", "/api/v1/nothing", "", nil, 404, "no-such-call"},
		{"a seat aborts", "POST", path + "/abort", p0, nil, 403, "judge-only"},
		{"the judge resigns", "POST", path + "/resign", judge, nil, 403, "seat-only"},
		{"a seat reissues", "POST", path + "/seats/0/reissue", p0, nil, 403, "judge-only"},
		{"reissue a seat that is not", "POST", path + "/seats/9/reissue", judge, nil, 404, "no-seat"},
		{"a record under way", "GET", path + "/record", p0, nil, 403, "running"},
		{"a bad resume", "GET", path + "/events?after=x", "", nil, 400, "invalid"},
		{"resume after the end", "GET", path + "/events?after=999", "", nil, 400, "invalid"},
		{"a bad list limit", "GET", "/api/v1/matches?limit=0", "", nil, 400, "invalid"},
	}
	stale := ts.call("POST", path+"/moves", p0, map[string]any{"request": 99999, "move": req.Default})
	if want := fmt.Sprintf("request 99999 is not open; this seat's open request now is %d", req.ID); !strings.Contains(string(stale.body), want) {
		t.Errorf("a request never asked: %s; want it to say %q", stale.body, want)
	}
	for _, cs := range cases {
		t.Run(cs.name, func(t *testing.T) {
			a := ts.call(cs.method, cs.path, cs.secret, cs.body)
			if a.status != cs.status || cs.code != "" && a.code() != cs.code {
				t.Errorf("%d %s; want %d %s", a.status, a.body, cs.status, cs.code)
			}
			if a.status >= 400 {
				e, ok := a.json["error"].(map[string]any)
				if !ok || e["message"] == "" || e["code"] == "" {
					t.Errorf("not a JSON refusal: %s", a.body)
				}
				if strings.Contains(string(a.body), "Go struct") {
					t.Errorf("the refusal speaks of the server's insides: %s", a.body)
				}
			}
		})
	}
	after := ts.state(c.ID, p0)
	if after.Seq != before.Seq || !bytes.Equal(after.View, before.View) {
		t.Errorf("the refusals changed the match: seq %d → %d", before.Seq, after.Seq)
	}
	// The creation body's refusals.
	for _, body := range []string{
		`{"game": "chess", "seats": [{"player": "person"}, {"player": "person"}]}`,
		`{"game": "reaj", "seats": [{"player": "person"}]}`,
		`{"game": "reaj", "seats": [{"player": "person"}, {"player": "nobody"}]}`,
		`{"game": "reaj", "seats": [{"player": "person"}, {"player": "exec:python3 bot.py"}]}`,
		`{"game": "reaj", "seats": [{"player": "person"}, {"player": "http://127.0.0.1:9/bot"}]}`,
		`{"game": "reaj", "seats": [{"player": "person"}, {"player": "person"}], "options": {"turns": 0}}`,
		`{"game": "reaj", "seats": [{"player": "person"}, {"player": "person"}], "options": {"colour": "red"}}`,
		`{"game": "reaj", "seats": [{"player": "person"}, {"player": "person"}], "options": {"turns": 1.5}}`,
		`{"game": "reaj", "seats": [{"player": "person"}, {"player": "person"}], "mode": "judge"}`,
		`{"game": "reaj", "seats": [{"player": "person"}, {"player": "person"}], "time": {"people_ms": -1}}`,
		`{"game": "reaj", "seats": [{"player": ""}, {"player": "person"}]}`,
		`{"game": "reaj", "seats": [], "wings": 2}`,
		`[]`,
	} {
		a := ts.call("POST", "/api/v1/matches", "", body)
		if a.status != 400 || a.code() == "" {
			t.Errorf("create %s: %d %s; want 400", body, a.status, a.body)
		}
	}
}

func TestSecretsAndRoles(t *testing.T) {
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "person"}}, "judge": true})
	path := "/api/v1/matches/" + c.ID
	// Each caller sees as its role: a seat its own view, the judge all,
	// anyone the public view.
	for _, cs := range []struct{ secret, role string }{{c.Seats[1].Secret, "seat"}, {c.Judge.Secret, "judge"}, {"", "spectator"}} {
		var m struct {
			You      struct{ Role string }
			Requests []any
		}
		json.Unmarshal(ts.call("GET", path, cs.secret, nil).body, &m)
		if m.You.Role != cs.role {
			t.Errorf("role %q; want %q", m.You.Role, cs.role)
		}
		if want := map[string]int{"seat": 1, "judge": 2, "spectator": 0}[cs.role]; len(m.Requests) != want {
			t.Errorf("%s sees %d requests; want %d", cs.role, len(m.Requests), want)
		}
	}
	// A re-issued link: the old secret stops working, the new one works.
	a := ts.call("POST", path+"/seats/1/reissue", c.Judge.Secret, nil)
	if a.status != 200 {
		t.Fatalf("reissue: %d %s", a.status, a.body)
	}
	fresh, _ := a.json["secret"].(string)
	if a.json["player"] != c.Seats[1].Player || c.Seats[1].Player == "" {
		t.Errorf("the new link's player %v; want the seat's, %q", a.json["player"], c.Seats[1].Player)
	}
	if got := ts.call("GET", path, c.Seats[1].Secret, nil); got.status != 401 {
		t.Errorf("the old secret: %d; want 401", got.status)
	}
	if got := ts.call("GET", path, fresh, nil); got.status != 200 {
		t.Errorf("the new secret: %d %s", got.status, got.body)
	}
	// Secrets are stored as hashes only.
	if b := onDisk(t, ts.db); bytes.Contains(b, []byte(fresh)) || bytes.Contains(b, []byte(c.Judge.Secret)) {
		t.Error("a secret is in the database file")
	}
	// Abort: the match ends, for everyone.
	if a := ts.call("POST", path+"/abort", c.Judge.Secret, nil); a.status != 200 {
		t.Fatalf("abort: %d %s", a.status, a.body)
	}
	if m := ts.state(c.ID, ""); m.Status != "aborted" {
		t.Errorf("status after abort: %s", m.Status)
	}
	// A move or the defaults after it are told the judge aborted it.
	if a := ts.call("POST", path+"/moves", c.Seats[0].Secret, map[string]any{"request": 1, "move": "adapt"}); a.status != 409 || !strings.Contains(string(a.body), "its judge aborted it") {
		t.Errorf("a move after abort: %d %s; want 409, the judge aborted it", a.status, a.body)
	}
	if a := ts.call("POST", path+"/defaults", c.Judge.Secret, nil); a.status != 409 || a.code() != "over" || !strings.Contains(string(a.body), "its judge aborted it") {
		t.Errorf("defaults after abort: %d %s; want 409 over, the judge aborted it", a.status, a.body)
	}
}

func TestResignAndDefaults(t *testing.T) {
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "person"}}, "judge": true,
		"options": map[string]any{"turns": 3}})
	path := "/api/v1/matches/" + c.ID
	// The judge plays the defaults: the turn ends.
	a := ts.call("POST", path+"/defaults", c.Judge.Secret, nil)
	if a.status != 200 || a.json["played"].(float64) != 2 || a.json["seq"].(float64) != 2 {
		t.Fatalf("defaults: %d %s; want 200, played 2 at seq 2", a.status, a.body)
	}
	// A seat resigns: its requests get their defaults from then on; the
	// other plays on to the end.
	if a := ts.call("POST", path+"/resign", c.Seats[1].Secret, nil); a.status != 200 {
		t.Fatalf("resign: %d %s", a.status, a.body)
	}
	m := ts.playDefaults(created{ID: c.ID, Seats: c.Seats[:1]})
	if m.Status != "over" {
		t.Fatalf("status %s", m.Status)
	}
	// Once the match is over there is nothing to play: the judge is told
	// so, as abort and correct tell it, and no default is said played.
	if a := ts.call("POST", path+"/defaults", c.Judge.Secret, nil); a.status != 409 || a.code() != "over" {
		t.Errorf("defaults of a match over: %d %s; want 409 over", a.status, a.body)
	}
	rec := ts.call("GET", path+"/record", "", nil)
	if !bytes.Contains(rec.body, []byte("the seat resigned")) || !bytes.Contains(rec.body, []byte("the judge played the defaults")) {
		t.Errorf("the record does not say what happened:\n%s", rec.body)
	}
}

func TestTheJudgesDefaultsEndTheTurnTheJudgeSaw(t *testing.T) {
	// The judge ends a turn by playing the defaults of whoever has not
	// moved. Sent again (its answer lost), or from a console that had not
	// seen the turn end (everyone planned meanwhile), the call played the
	// next turn's defaults as soon as it opened, and nobody planned that
	// turn. With expect_seq, the move the judge saw, it ends that turn
	// only; without, it ends the turn open now, as before.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": people(3), "judge": true, "options": map[string]any{"turns": 5}})
	path := "/api/v1/matches/" + c.ID
	seen := ts.state(c.ID, c.Judge.Secret).Seq
	a := ts.call("POST", path+"/defaults", c.Judge.Secret, map[string]any{"expect_seq": seen})
	if a.status != 200 || a.json["played"] != float64(3) || a.json["seq"] != float64(3) {
		t.Fatalf("the defaults of turn 1: %d %s; want 3 played, at move 3", a.status, a.body)
	}
	again := ts.call("POST", path+"/defaults", c.Judge.Secret, map[string]any{"expect_seq": seen})
	if again.status != http.StatusConflict || again.code() != "moved" || !strings.Contains(string(again.body), "it is at move 3, not 0") {
		t.Errorf("the same call again: %d %s; want 409 moved, turn 2 left to its players", again.status, again.body)
	}
	if m := ts.state(c.ID, c.Judge.Secret); m.Seq != 3 || len(m.Requests) != 3 {
		t.Errorf("after the call again: move %d, %d requests open; want turn 2 at move 3, its 3 requests open", m.Seq, len(m.Requests))
	}
	// Without it, the turn open now ends.
	if a := ts.call("POST", path+"/defaults", c.Judge.Secret, nil); a.status != 200 || a.json["played"] != float64(3) {
		t.Errorf("the defaults with no body: %d %s; want turn 2's 3 played", a.status, a.body)
	}
	for _, body := range []string{`{"expect_seq": -1}`, `{"expect": 6}`, `[]`} {
		if a := ts.call("POST", path+"/defaults", c.Judge.Secret, body); a.status != http.StatusBadRequest {
			t.Errorf("the defaults with %s: %d %s; want 400", body, a.status, a.body)
		}
	}
	if m := ts.state(c.ID, c.Judge.Secret); m.Seq != 6 {
		t.Errorf("the match is at move %d; want 6, two turns ended", m.Seq)
	}
}

func TestIdempotencyKey(t *testing.T) {
	// "a retry with the same key returns the first answer and never applies
	// twice; the same key with a different body is 422."
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "person"}}})
	s0 := c.Seats[0].Secret
	q := ts.state(c.ID, s0).Requests[0]
	body := map[string]any{"request": q.ID, "move": "adapt"}
	first := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", s0, body, "Idempotency-Key", "k1")
	again := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", s0, body, "Idempotency-Key", "k1")
	if first.status != 200 || again.status != 200 || first.json["seq"] != again.json["seq"] || again.json["repeat"] != true {
		t.Fatalf("first %s, again %s", first.body, again.body)
	}
	if m := ts.state(c.ID, s0); m.Seq != 1 { // the mover's: the others are not told of it until the round resolves
		t.Errorf("seq %d after a retried move; want 1", m.Seq)
	}
	other := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", s0, map[string]any{"request": q.ID, "move": "conquer"}, "Idempotency-Key", "k1")
	if other.status != 422 || other.code() != "idempotency-key-reused" {
		t.Errorf("the key with another body: %d %s", other.status, other.body)
	}
}

// A retry is the same request when it means the same, however it is
// spaced or its keys ordered: {"move":"X"} and then { "move" : "X"} with
// one Idempotency-Key were refused 422 idempotency-key-reused, the bytes
// compared, and a client that wrote its retry anew (another JSON library,
// pretty-printed) was told its move was another. A key stored by a server
// before (the hash of the bytes as they came) still answers a retry of the
// same bytes, once; another request with either is refused, and nothing is
// applied twice.
func TestARetryIsTheSameRequestHoweverWritten(t *testing.T) {
	db := newDatabase(t)
	ts := startServer(t, db, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}, "options": map[string]any{"turns": 3}})
	s0, moves := c.Seats[0].Secret, "/api/v1/matches/"+c.ID+"/moves"
	// A key of this server's: the retries spaced and ordered otherwise, a
	// character escaped, are repeats.
	q := ts.state(c.ID, s0).Requests[0]
	first := ts.call("POST", moves, s0, fmt.Sprintf(`{"request":%d,"move":"adapt"}`, q.ID), "Idempotency-Key", "new")
	if first.status != http.StatusOK || first.json["repeat"] != false {
		t.Fatalf("the first sending: %d %s", first.status, first.body)
	}
	for _, body := range []string{
		fmt.Sprintf(`{ "request" : %d, "move" : "adapt"}`, q.ID),
		fmt.Sprintf("{\n  \"move\": \"adapt\",\n  \"request\": %d\n}\n", q.ID),
		fmt.Sprintf(`{"request":%d,"move":"\u0061dapt"}`, q.ID),
	} {
		if a := ts.call("POST", moves, s0, body, "Idempotency-Key", "new"); a.status != http.StatusOK || a.json["repeat"] != true || a.json["seq"] != first.json["seq"] {
			t.Errorf("the retry %q: %d %s; want the first answer, a repeat", body, a.status, a.body)
		}
	}
	if a := ts.call("POST", moves, s0, fmt.Sprintf(`{ "request" : %d, "move" : "conquer"}`, q.ID), "Idempotency-Key", "new"); a.status != 422 || a.code() != "idempotency-key-reused" {
		t.Errorf("the key with another move: %d %s; want 422 idempotency-key-reused", a.status, a.body)
	}
	// A key stored by a server before this one: the hash of the bytes as
	// they came.
	m := ts.waitState(c.ID, s0, func(m matchState) bool { return len(m.Requests) > 0 && m.Requests[0].ID != q.ID })
	q = m.Requests[0]
	sent := fmt.Sprintf(`{"request": %d,  "move": "adapt"}`, q.ID)
	before := ts.call("POST", moves, s0, sent, "Idempotency-Key", "old")
	if before.status != http.StatusOK {
		t.Fatalf("the move under the old key: %d %s", before.status, before.body)
	}
	ts.stop()
	sum := sha256.Sum256([]byte("seat:0\n" + sent))
	storeExec(t, db, `UPDATE moves SET idem_hash = $1 WHERE match_id = $2 AND idem_key = $3`, hex.EncodeToString(sum[:]), c.ID, "seat:0/old")
	ts = startServer(t, db, server.Config{})
	if a := ts.call("POST", moves, s0, sent, "Idempotency-Key", "old"); a.status != http.StatusOK || a.json["repeat"] != true || a.json["seq"] != before.json["seq"] {
		t.Errorf("the same bytes again under a key stored before: %d %s; want the first answer, a repeat", a.status, a.body)
	}
	for _, body := range []string{fmt.Sprintf(`{"request":%d,"move":"conquer"}`, q.ID), fmt.Sprintf(`{"request":%d,"move":"adapt"}`, q.ID)} {
		// Another move; the same one written otherwise, which a key stored
		// before (a hash of the bytes) cannot tell: refused, not made.
		if a := ts.call("POST", moves, s0, body, "Idempotency-Key", "old"); a.status != 422 || a.code() != "idempotency-key-reused" {
			t.Errorf("%s under a key stored before: %d %s; want 422 idempotency-key-reused", body, a.status, a.body)
		}
	}
	logged, err := ts.st.Moves(context.Background(), c.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	mine := 0
	for _, mv := range logged {
		if mv.Actor == 0 {
			mine++
		}
	}
	if mine != 2 {
		t.Errorf("seat 0 has %d moves in the log; want 2, each once", mine)
	}
}

// storeExec runs statement on database db (an SQLite file or a PostgreSQL
// URL), its arguments written $1, $2, ...: as a server before this one
// left it.
func storeExec(t *testing.T, db, statement string, args ...any) {
	t.Helper()
	driver, source := "sqlite", "file:"+db
	if strings.HasPrefix(db, "postgres://") {
		driver, source = "pgx", db
	}
	conn, err := sql.Open(driver, source)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	res, err := conn.Exec(statement, args...)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("%s: %d rows changed; want 1", statement, n)
	}
}

func TestPeopleDeadlines(t *testing.T) {
	// "When it passes, the server applies the default move and records the
	// fault."
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}},
		"options": map[string]any{"turns": 2}, "time": map[string]any{"people_ms": 50}})
	var m matchState
	json.Unmarshal(ts.call("GET", "/api/v1/matches/"+c.ID, c.Seats[0].Secret, nil).body, &m)
	var raw struct {
		Requests []struct{ Deadline *time.Time }
	}
	json.Unmarshal(ts.call("GET", "/api/v1/matches/"+c.ID, c.Seats[0].Secret, nil).body, &raw)
	if len(raw.Requests) == 1 && raw.Requests[0].Deadline == nil {
		t.Error("a person's request with a deadline does not say when")
	}
	ts.waitState(c.ID, "", func(m matchState) bool { return m.Status == "over" })
	rec := ts.call("GET", "/api/v1/matches/"+c.ID+"/record", "", nil)
	if n := bytes.Count(rec.body, []byte(`"kind":"timeout"`)); n != 2 {
		t.Errorf("%d timeouts in the record; want the person's 2:\n%s", n, rec.body)
	}
	// A seat that never once answered cannot win, as in the reports of
	// arbiter play: the match's result says it was absent; the record keeps
	// the rules' own.
	var over struct{ Result engine.Result }
	json.Unmarshal(ts.call("GET", "/api/v1/matches/"+c.ID, "", nil).body, &over)
	if r := over.Result; len(r.Status) != 2 || r.Status[0] != engine.StatusAbsent || slices.Contains(r.Winners, 0) || r.Ranks[0] != 2 {
		t.Errorf("the result of a match the person never played: %+v; want seat 0 absent, ranked last, no winner", r)
	}
}

func TestEventsResumeNothingLostOrRepeated(t *testing.T) {
	// "Last-Event-ID (or ?after=SEQ) resumes with nothing lost or
	// repeated."
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "person"}}, "options": map[string]any{"turns": 6}})
	s0, s1 := c.Seats[0].Secret, c.Seats[1].Secret
	ctx, cancel := context.WithCancel(context.Background())
	evs := ts.follow(ctx, c.ID, s0, -1)
	first := <-evs
	if first.name != "move" || first.id != "0" {
		t.Fatalf("the first event %+v; want the match as it is, id 0", first)
	}
	playTurn := func() {
		for _, s := range []string{s0, s1} {
			q := ts.state(c.ID, s).Requests[0]
			if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", s, map[string]any{"request": q.ID, "move": q.Default}); a.status != 200 {
				t.Fatalf("move: %d %s", a.status, a.body)
			}
		}
	}
	playTurn()
	for _, want := range []string{"1", "2"} {
		if ev := <-evs; ev.id != want {
			t.Fatalf("event %q; want %s", ev.id, want)
		}
	}
	cancel() // the client goes away, and moves go on without it
	playTurn()
	playTurn()
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	evs = ts.follow(ctx2, c.ID, s0, 2)
	for _, want := range []string{"3", "4", "5", "6"} {
		ev := <-evs
		if ev.id != want || ev.name != "move" {
			t.Fatalf("resumed event %+v; want id %s", ev, want)
		}
		var m struct{ Seq int64 }
		json.Unmarshal([]byte(ev.data), &m)
		if want != "" && m.Seq == 0 {
			t.Fatalf("event data %s", ev.data)
		}
	}
	playTurn()
	for _, want := range []string{"7", "8"} {
		if ev := <-evs; ev.id != want {
			t.Fatalf("live event %q after the resumed ones; want %s", ev.id, want)
		}
	}
}

func TestShutdownTellsStreams(t *testing.T) {
	// "graceful shutdown (in-flight moves finish, streams are told)."
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "person"}}})
	evs := ts.follow(context.Background(), c.ID, "", -1)
	<-evs
	go ts.srv.Shutdown(context.Background())
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-evs:
			if !ok {
				t.Fatal("the stream closed without a word")
			}
			if ev.name == "shutdown" {
				return
			}
		case <-deadline:
			t.Fatal("no shutdown event")
		}
	}
}

func TestCreateSecret(t *testing.T) {
	ts := newServer(t, server.Config{CreateSecret: server.HashSecret("0123456789abcdef0123")})
	body := map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}}
	if a := ts.call("POST", "/api/v1/matches", "", body); a.status != 403 || a.code() != "create-forbidden" {
		t.Errorf("no creation secret: %d %s", a.status, a.body)
	}
	if a := ts.call("POST", "/api/v1/matches", "wrong-secret", body); a.status != 403 {
		t.Errorf("a wrong creation secret: %d %s", a.status, a.body)
	}
	if a := ts.call("POST", "/api/v1/matches", "0123456789abcdef0123", body); a.status != 201 {
		t.Errorf("the creation secret: %d %s", a.status, a.body)
	}
}

func TestRateLimit(t *testing.T) {
	ts := newServer(t, server.Config{Limits: server.Limits{Moves: 1, MoveBurst: 2}})
	c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "person"}}})
	limited := false
	for range 5 {
		a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[0].Secret, map[string]any{"request": 99, "move": "adapt"})
		limited = limited || a.status == 429
	}
	if !limited {
		t.Error("5 moves in a moment with a limit of 1 a second and bursts of 2: never refused")
	}
}

func TestJudgesCallsAreRateLimited(t *testing.T) {
	// The judge's calls that write (new links, the end of a turn, a
	// correction) are held to the moves' rate, as its moves are: a judge's
	// secret cannot have the server write without a bound.
	ts := newServer(t, server.Config{Limits: server.Limits{Moves: 1, MoveBurst: 2}})
	c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "person"}}, "judge": true})
	codes := map[int]int{}
	for range 5 {
		a := ts.call("POST", "/api/v1/matches/"+c.ID+"/seats/0/reissue", c.Judge.Secret, nil)
		codes[a.status]++
		if a.status == 429 && !bytes.Contains(a.body, []byte("moves and calls a second with this secret")) {
			t.Errorf("the refusal: %s", a.body)
		}
	}
	if codes[429] == 0 || codes[200] == 0 {
		t.Errorf("5 new links in a moment with a limit of 1 a second and bursts of 2: %v; want some made, then 429", codes)
	}
}

func TestCreationsRefusedForTheirBodyAreNotCounted(t *testing.T) {
	// A body's mistakes make no match, and do not use up the address's
	// creations: a newcomer trying bodies by hand is told what is wrong,
	// not to slow down; creations that make matches are counted.
	ts := newServer(t, server.Config{Limits: server.Limits{Creates: 6}}) // one at once
	for i, body := range []string{`{"game": "chess"}`, `{"game": "reaj", "seats": [{"player": "person"}], "options": {"turns": 0}}`, `{`, `{"game": "reaj", "colour": 1}`} {
		if a := ts.call("POST", "/api/v1/matches", "", body); a.status != 400 {
			t.Fatalf("mistake %d: %d %s; want 400", i, a.status, a.body)
		}
	}
	body := map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}}
	if a := ts.call("POST", "/api/v1/matches", "", body); a.status != 201 {
		t.Fatalf("a creation after the mistakes: %d %s; want 201", a.status, a.body)
	}
	if a := ts.call("POST", "/api/v1/matches", "", body); a.status != 429 {
		t.Errorf("a second creation at once: %d %s; want 429 (one at once)", a.status, a.body)
	}
}

func TestListAndGames(t *testing.T) {
	ts := newServer(t, server.Config{})
	ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}})
	ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}, "private": true})
	var list struct{ Matches []map[string]any }
	json.Unmarshal(ts.call("GET", "/api/v1/matches", "", nil).body, &list)
	if len(list.Matches) != 1 {
		t.Errorf("%d matches listed; want the one that is not private", len(list.Matches))
	}
	// A referee's match has no seats: a list of none, not null.
	if a := ts.call("POST", "/api/v1/matches", "", map[string]any{"game": "territories", "mode": "referee"}); a.status != 201 || !bytes.Contains(a.body, []byte(`"seats":[]`)) {
		t.Errorf("a referee's match created: %d %s; want its seats as []", a.status, a.body)
	}
	if a := ts.call("GET", "/api/v1/matches", "", nil); !bytes.Contains(a.body, []byte(`"game":"territories","mode":"referee"`)) || bytes.Contains(a.body, []byte(`"seats":null`)) {
		t.Errorf("the list: %s; want the referee's match with its seats as []", a.body)
	}
	var games []struct {
		Name  string
		Modes []catalog.Mode
	}
	json.Unmarshal(ts.call("GET", "/api/v1/games", "", nil).body, &games)
	if len(games) != len(catalog.Games()) {
		t.Errorf("%d games; want %d", len(games), len(catalog.Games()))
	}
}

func TestListPagesMissNoMatch(t *testing.T) {
	// "Listing matches while many run": a friend's match created in the
	// same millisecond as others (a burst of creations) is on a page of
	// the list, whatever the page's size; paged by next_before, every
	// listed match comes once.
	var now atomic.Int64
	now.Store(time.UnixMilli(1_800_000_000_000).UnixNano())
	ts := newServer(t, server.Config{Now: func() time.Time { return time.Unix(0, now.Load()) }})
	body := map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}}
	want := []string{ts.create(body).ID}
	now.Add(int64(time.Millisecond))
	for range 3 {
		want = append(want, ts.create(body).ID) // three in one millisecond
	}
	var listed []string
	path := "/api/v1/matches?limit=2"
	for page := 0; page < 10; page++ {
		var list struct {
			Matches    []struct{ ID string }
			NextBefore string `json:"next_before"`
		}
		a := ts.call("GET", path, "", nil)
		if a.status != 200 || json.Unmarshal(a.body, &list) != nil {
			t.Fatalf("GET %s: %d %s", path, a.status, a.body)
		}
		for _, m := range list.Matches {
			listed = append(listed, m.ID)
		}
		if list.NextBefore == "" {
			break
		}
		path = "/api/v1/matches?limit=2&before=" + list.NextBefore
	}
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("paged by 2: %v; want every match once, %v", listed, want)
	}
}

func TestOpenAPIDescribesEveryCall(t *testing.T) {
	// "an OpenAPI document served at /api/v1/openapi.json, checked by a test
	// against the routes."
	ts := newServer(t, server.Config{})
	a := ts.call("GET", "/api/v1/openapi.json", "", nil)
	var doc struct {
		OpenAPI string
		Paths   map[string]map[string]struct{ OperationID string }
	}
	if err := json.Unmarshal(a.body, &doc); err != nil || doc.OpenAPI != "3.1.0" {
		t.Fatalf("%v %s", err, a.body)
	}
	calls := 0
	for path, ops := range doc.Paths {
		for method := range ops {
			calls++
			// Every documented call is routed: a wrong secret is the
			// call's own refusal, never "no such call".
			p := strings.NewReplacer("{id}", "x", "{seat}", "0", "{name}", "alice").Replace(path)
			got := ts.call(strings.ToUpper(method), p, "", "{}")
			if got.code() == "no-such-call" || got.status == http.StatusMethodNotAllowed {
				t.Errorf("%s %s is documented but not routed: %d %s", method, path, got.status, got.body)
			}
		}
	}
	if calls != 19 {
		t.Errorf("%d calls documented; want the 13 of live.md and this server's 6 for replays, the map and the board drawn, and a named player's new link", calls)
	}
}

func TestMoveIsKeptAsTheGameWritesIt(t *testing.T) {
	// A move the game reads more loosely than it writes ("Conquer", with
	// spaces around it) goes into the record as the game writes it.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "ajveciv", "seats": []map[string]any{{"player": "person"}, {"player": "basic"}}, "judge": true})
	var m struct {
		Requests []struct {
			ID      int64
			Choices []string
		}
	}
	json.Unmarshal(ts.call("GET", "/api/v1/matches/"+c.ID, c.Seats[0].Secret, nil).body, &m)
	if len(m.Requests) != 1 || len(m.Requests[0].Choices) == 0 {
		t.Fatalf("the seat's requests: %+v", m.Requests)
	}
	choice := m.Requests[0].Choices[0]
	loose := ` "` + strings.ToUpper(choice[:1]) + choice[1:] + `" `
	body := fmt.Sprintf(`{"request": %d, "move": %s}`, m.Requests[0].ID, loose)
	if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[0].Secret, body); a.status != 200 {
		t.Fatalf("the move %s: %d %s", loose, a.status, a.body)
	}
	rec := ts.call("GET", "/api/v1/matches/"+c.ID+"/record", c.Judge.Secret, nil)
	if want := `{"seat":0,"move":"` + choice + `"}`; !bytes.Contains(rec.body, []byte(want)) {
		t.Errorf("the record:\n%s\nwant the move as %s", rec.body, want)
	}
}

func TestStaleRequestSaysWhose(t *testing.T) {
	// Answering a request of another seat's says whose it is, whether that
	// seat has answered it yet or not (which a seat of a simultaneous
	// round is not told); a request of an earlier round is not open.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "ajveciv", "seats": []map[string]any{{"player": "person", "name": "Ann"}, {"player": "person"}},
		"options": map[string]any{"turns": 5}})
	ann, other := c.Seats[0].Secret, c.Seats[1].Secret
	r0, r1 := ts.state(c.ID, ann).Requests[0], ts.state(c.ID, other).Requests[0]
	move := func(secret string, q int64, dflt json.RawMessage) answer {
		return ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", secret, map[string]any{"request": q, "move": dflt})
	}
	says := func(what string, a answer, status int, want string) {
		t.Helper()
		e, _ := a.json["error"].(map[string]any)
		msg, _ := e["message"].(string)
		if a.status != status || !strings.Contains(msg, want) {
			t.Errorf("%s: %d %s; want %d saying %q", what, a.status, a.body, status, want)
		}
	}
	whose := fmt.Sprintf("request %d is seat 0 (Ann)'s, not this seat's; this seat's open request now is %d: a seat answers its own requests only", r0.ID, r1.ID)
	says("Ann's open request", move(other, r0.ID, r0.Default), 409, whose)
	says("Ann's answer", move(ann, r0.ID, r0.Default), 200, "")
	says("Ann's request, answered", move(other, r0.ID, r0.Default), 409, whose)
	says("Ann's request again", move(ann, r0.ID, r0.Default), 409, fmt.Sprintf("request %d, this seat's, is answered already, and this seat owes no decision now", r0.ID))
	says("the other's answer", move(other, r1.ID, r1.Default), 200, "")
	next := ts.state(c.ID, other).Requests[0]
	says("a request of the turn before", move(other, r0.ID, r0.Default), 409, fmt.Sprintf("request %d is not open; this seat's open request now is %d: it was answered", r0.ID, next.ID))
}

func TestRefusalsSayWhatIsAllowed(t *testing.T) {
	// A refusal names what was wrong and what is allowed.
	ts := newServer(t, server.Config{Limits: server.Limits{Creates: 6000}})
	c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}})
	moves := "/api/v1/matches/" + c.ID + "/moves"
	other := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}, "judge": true})
	for _, cs := range []struct {
		name         string
		method, path string
		secret       string
		body         any
		status       int
		code, says   string
	}{
		{"a misspelt field of a move", "POST", moves, c.Seats[0].Secret, `{"req": 0, "move": "adapt"}`, 400, "bad-json", `unknown field "req"; the fields are request, move, expect_seq, issue_secret`},
		// A field's name in another case is no field: encoding/json
		// would read "Request" as "request".
		{"a field of a move in another case", "POST", moves, c.Seats[0].Secret, `{"Request": 0, "move": "adapt"}`, 400, "bad-json", `field "Request" is written "request": names of fields are read exactly as written, in their case`},
		{"a field of a seat in another case", "POST", "/api/v1/matches", "", `{"game": "reaj", "seats": [{"player": "person"}, {"PLAYER": "adapt"}]}`, 400, "bad-json", `seats[1]: field "PLAYER" is written "player"`},
		{"a field of the time in another case", "POST", "/api/v1/matches", "", `{"game": "reaj", "seats": [{"player": "person"}, {"player": "adapt"}], "time": {"Decision_ms": 5}}`, 400, "bad-json", `time: field "Decision_ms" is written "decision_ms"`},
		{"a seat as a string", "POST", "/api/v1/matches", "", `{"game": "reaj", "seats": ["person", "adapt"]}`, 400, "bad-json", `want an object with the fields player, name, got a JSON string`},
		{"a misspelt field of a seat", "POST", "/api/v1/matches", "", `{"game": "reaj", "seats": [{"player": "person"}, {"player": "adapt", "nam": "x"}]}`, 400, "bad-json", `seats[1]: unknown field "nam"; did you mean name? The fields are player, name`},
		{"a misspelt field of the time", "POST", "/api/v1/matches", "", `{"game": "reaj", "seats": [{"player": "person"}, {"player": "adapt"}], "time": {"people": 5}}`, 400, "bad-json", `time: unknown field "people"; did you mean people_ms? The fields are decision_ms, reply_ms, people_ms, bank_ms, on_timeout`},
		{"no game", "POST", "/api/v1/matches", "", `{"seats": []}`, 400, "invalid", "no game named; games: ajveciv"},
		// A person misspelt, or named as the terminal names one, is
		// offered person; too few seats say how many more.
		{"a person misspelt", "POST", "/api/v1/matches", "", `{"game": "reaj", "seats": [{"player": "persn"}, {"player": "adapt"}]}`, 400, "invalid", `seat 0: unknown player "persn": did you mean person, a person who plays from their own link? Reaj players are`},
		{"a person as at the terminal", "POST", "/api/v1/matches", "", `{"game": "reaj", "seats": [{"player": "repl"}, {"player": "adapt"}]}`, 400, "invalid", `seat 0: unknown player "repl": did you mean person, a person who plays from their own link?`},
		{"one seat", "POST", "/api/v1/matches", "", `{"game": "reaj", "seats": [{"player": "person"}]}`, 400, "invalid", `reaj takes 2 to 16 seats; 1 given (person): name 1 more`},
		{"no seats", "POST", "/api/v1/matches", "", `{"game": "reaj"}`, 400, "invalid", `reaj takes 2 to 16 seats, and none were given: give each its player (seats: [{"player": "person"}`},
		{"seats in the referee's mode", "POST", "/api/v1/matches", "", `{"game": "territories", "seats": [{"player": "greedy"}, {"player": "person"}]}`, 400, "invalid",
			`the referee mode of territories, a match's when it gives no "mode", takes no seats (the referee: the judge`},
		{"seats in the referee's mode, named", "POST", "/api/v1/matches", "", `{"game": "territories", "mode": "referee", "seats": [{"player": "person"}]}`, 400, "invalid", `for seats, give "mode": "seats" (nations in seats`},
		{"a mode of a game of one", "POST", "/api/v1/matches", "", `{"game": "reaj", "mode": "party", "seats": [{"player": "person"}, {"player": "adapt"}]}`, 400, "invalid", `reaj has no mode "party": it is played live one way; leave out "mode"`},
		{"an option of a mode that takes none", "POST", "/api/v1/matches", "", `{"game": "zombie", "mode": "judge", "seats": [{"player": "person"}, {"player": "person"}, {"player": "person"}], "options": {"turns": 3}}`, 400, "invalid",
			`zombie's judge mode takes no options, so not "turns": the script's GAME_START sets max_turns and the starting antibodies and viruses, and its HUMAN and ZOMBIE lines who is what; "turns" is an option of "mode": "party"`},
		{"an option no mode takes", "POST", "/api/v1/matches", "", `{"game": "zombie", "seats": [{"player": "person"}, {"player": "person"}, {"player": "person"}], "options": {"turn": 3}}`, 400, "invalid",
			`zombie's party mode has no option "turn"; its options are zombies, turns, antibodies, viruses`},
		{"an option of a game of one mode", "POST", "/api/v1/matches", "", `{"game": "reaj", "seats": [{"player": "person"}, {"player": "adapt"}], "options": {"turn": 3}}`, 400, "invalid", `reaj has no option "turn"; its options are turns`},
		{"a secret of another match", "POST", moves, other.Seats[0].Secret, `{"request": 0, "move": "adapt"}`, 403, "forbidden", "send one of this match's (a seat's, a named player's or the judge's), or none to watch it"},
		{"a judge's move in a game without them", "POST", "/api/v1/matches/" + other.ID + "/moves", other.Judge.Secret, `{"move": "adapt"}`, 422, "no-judge-moves", "the judge may answer a seat's open request for it, by the request's id"},
		{"a seat's secret on a judge's call", "POST", "/api/v1/matches/" + c.ID + "/abort", c.Seats[0].Secret, nil, 403, "judge-only", "send the judge's secret"},
		{"a method a call does not take", "PUT", moves, c.Seats[0].Secret, `{}`, 405, "method-not-allowed", "PUT is not a call of " + moves + "; its calls are POST"},
	} {
		t.Run(cs.name, func(t *testing.T) {
			a := ts.call(cs.method, cs.path, cs.secret, cs.body)
			e, _ := a.json["error"].(map[string]any)
			msg, _ := e["message"].(string)
			if a.status != cs.status || a.code() != cs.code || !strings.Contains(msg, cs.says) {
				t.Errorf("%d %s; want %d %s saying %s", a.status, a.body, cs.status, cs.code, cs.says)
			}
			if cs.status == 405 && a.header.Get("Allow") != "POST" {
				t.Errorf("Allow: %q; want POST", a.header.Get("Allow"))
			}
		})
	}
}

func TestMatchViewTellsItsClock(t *testing.T) {
	// Everyone sees the match's time, the turn its charts count.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "ajveciv", "seats": []map[string]any{{"player": "person"}, {"player": "basic"}}})
	var m struct {
		Clock     *int   `json:"clock"`
		ClockName string `json:"clock_name"`
		Requests  []struct {
			ID      int64
			Default string
		}
	}
	json.Unmarshal(ts.call("GET", "/api/v1/matches/"+c.ID, c.Seats[0].Secret, nil).body, &m)
	if m.Clock == nil || *m.Clock != 0 || m.ClockName != "turn" || len(m.Requests) != 1 {
		t.Fatalf("before a move: clock %v %q, requests %v; want turn 0 and one request", m.Clock, m.ClockName, m.Requests)
	}
	ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[0].Secret, map[string]any{"request": m.Requests[0].ID, "move": m.Requests[0].Default})
	// The turn ends when the bot has chosen too, on the server's time.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		m.Clock = nil
		json.Unmarshal(ts.call("GET", "/api/v1/matches/"+c.ID, "", nil).body, &m)
		if m.Clock != nil && *m.Clock == 1 {
			break
		}
		if m.Clock == nil || *m.Clock != 0 || time.Now().After(deadline) {
			t.Fatalf("a spectator after the first turn: clock %v; want 1", m.Clock)
		}
	}
}

func TestCreationWarnsOfAMapInParts(t *testing.T) {
	// docs/api.md: "warnings: what the options allow but a game is unlikely
	// to want (a territories board whose territories nobody can reach), one
	// sentence each, named by the option; [] when none." The match is
	// created all the same.
	ts := newServer(t, server.Config{})
	parted := `{"map": "none", "territories": [{"id": "A", "name": "Alpha", "neighbors": ["B"]},
		{"id": "B", "name": "Beta", "neighbors": ["A"]}, {"id": "C", "name": "Gamma", "neighbors": []}]}`
	for _, c := range []struct {
		body map[string]any
		want []string
	}{
		{map[string]any{"game": "territories", "mode": "referee", "options": map[string]any{"board": parted}},
			[]string{"board: the map is in 2 parts that no move or attack crosses: C (no neighbours) cannot be reached from the rest (A and 1 more); a nation there can never be attacked, and a game may run to its last turn"}},
		{map[string]any{"game": "territories", "mode": "referee", "options": map[string]any{"board": timedBoard("1h")}}, []string{}},
		{map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}}, []string{}},
	} {
		a := ts.call("POST", "/api/v1/matches", "", c.body)
		var got struct{ Warnings []string }
		if err := json.Unmarshal(a.body, &got); err != nil || a.status != 201 || !slices.Equal(got.Warnings, c.want) || !bytes.Contains(a.body, []byte(`"warnings":[`)) {
			t.Errorf("%v: %d %s; want the warnings %q", c.body["game"], a.status, a.body, c.want)
		}
	}
}

// A seat's name is printable text of at most 40 characters, counted as
// characters (not bytes): a name that holds a control character (a
// terminal's escape, a NUL) or an invisible one that turns the text
// around (U+202E) is refused, saying which, as one too long is.
func TestSeatNamesArePrintable(t *testing.T) {
	ts := newServer(t, server.Config{Limits: server.Limits{Creates: 6000}})
	seats := func(name string) map[string]any {
		return map[string]any{"game": "zombie", "seats": []map[string]any{{"player": "person", "name": name}, {"player": "person"}, {"player": "person"}}}
	}
	for _, x := range []struct{ name, says string }{
		{"\x1b[31mBob", "U+001B"},
		{"Bob\x00", "U+0000"},
		{"\u202eboB", "U+202E"},
		{strings.Repeat("é", 41), "41 characters"},
	} {
		a := ts.call("POST", "/api/v1/matches", "", seats(x.name))
		if a.status != http.StatusBadRequest || a.code() != "invalid" || !strings.Contains(string(a.body), x.says) {
			t.Errorf("the name %q: %d %s; want 400 invalid, saying %s", x.name, a.status, a.body, x.says)
		}
	}
	for _, name := range []string{"Zoë", "李小龍", "Ann-Marie O'Neil", strings.Repeat("é", 40)} {
		if a := ts.call("POST", "/api/v1/matches", "", seats(name)); a.status != http.StatusCreated {
			t.Errorf("the name %q: %d %s", name, a.status, a.body)
		}
	}
}

// A secret issued again stops working at once, even for a request that
// read the old one from the store just before the reissue: the server does
// not keep it in memory after. Before, such a request kept the old secret
// working on that server for as long as the match was in its memory.
func TestAReissuedSecretIsNotKeptByARequestUnderWay(t *testing.T) {
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": people(2), "judge": true})
	old := c.Seats[0].Secret
	var first atomic.Bool
	ts.srv.OnSecretRead(func() {
		// The first secret read (seat 0's, by the call below) is issued
		// again while that call is under way.
		if first.CompareAndSwap(false, true) {
			if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/seats/0/reissue", c.Judge.Secret, nil); a.status != http.StatusOK {
				t.Errorf("reissue: %d %s", a.status, a.body)
			}
		}
	})
	ts.call("GET", "/api/v1/matches/"+c.ID, old, nil) // under way as the secret is issued again
	if a := ts.call("GET", "/api/v1/matches/"+c.ID, old, nil); a.status != http.StatusUnauthorized {
		t.Errorf("the old secret after its reissue: %d %.200s; want 401", a.status, a.body)
	}
}

func TestAReissuedSecretsStreamCloses(t *testing.T) {
	// "The judge can re-issue a seat's lost link (the old secret stops
	// working)": the event stream opened with the old link too, which
	// went on telling whoever had it the seat's view (a zombie player's
	// identity and counts) move after move. It is told "revoked" and
	// closes; the other streams go on.
	ts := newServer(t, server.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := ts.create(map[string]any{"game": "zombie", "mode": "party", "judge": true, "seats": people(3)})
	first := func(evs <-chan event) {
		t.Helper()
		if ev := <-evs; ev.name != "move" {
			t.Fatalf("the stream begins with %+v; want the match", ev)
		}
	}
	old := ts.follow(ctx, c.ID, c.Seats[0].Secret, -1)
	other := ts.follow(ctx, c.ID, c.Seats[1].Secret, -1)
	for _, evs := range []<-chan event{old, other} {
		first(evs)
	}
	re := ts.call("POST", "/api/v1/matches/"+c.ID+"/seats/0/reissue", c.Judge.Secret, nil)
	if re.status != 200 {
		t.Fatalf("reissue: %d %s", re.status, re.body)
	}
	closed := func(evs <-chan event, who string) {
		t.Helper()
		timeout := time.After(10 * time.Second)
		var got []event
		for {
			select {
			case ev, ok := <-evs:
				if !ok {
					if len(got) != 1 || got[0].name != "revoked" {
						t.Errorf("%s: the stream told %+v before it closed; want revoked alone", who, got)
					}
					return
				}
				got = append(got, ev)
			case <-timeout:
				t.Fatalf("%s: the stream opened with the old secret is still open after its reissue, having told %+v", who, got)
			}
		}
	}
	closed(old, "seat 0")
	// The seat's new link follows the match; the others' streams go on.
	fresh := ts.follow(ctx, c.ID, re.json["secret"].(string), -1)
	first(fresh)
	q := ts.state(c.ID, c.Seats[1].Secret).Requests[0]
	if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Judge.Secret, map[string]any{"request": q.ID, "move": q.Default}); a.status != 200 {
		t.Fatalf("seat 1's move: %d %s", a.status, a.body)
	}
	if ev := <-other; ev.name != "move" {
		t.Errorf("seat 1's stream after the reissue of seat 0's: %+v; want its move", ev)
	}

	// A territories referee's named player's link, issued again.
	tc := ts.create(map[string]any{"game": "territories"})
	join := ts.call("POST", "/api/v1/matches/"+tc.ID+"/moves", tc.Judge.Secret, map[string]any{"move": map[string]any{"player": "alice", "action": "join Pacifica CA"}, "issue_secret": true})
	alice, _ := join.json["player"].(map[string]any)["secret"].(string)
	if join.status != 200 || alice == "" {
		t.Fatalf("alice's join: %d %s", join.status, join.body)
	}
	evs := ts.follow(ctx, tc.ID, alice, -1)
	first(evs)
	if a := ts.call("POST", "/api/v1/matches/"+tc.ID+"/players/alice/reissue", tc.Judge.Secret, nil); a.status != 200 {
		t.Fatalf("alice's reissue: %d %s", a.status, a.body)
	}
	closed(evs, "alice")
}

func TestAStreamOpenedAsItsSecretIsReissuedIsRefused(t *testing.T) {
	// The judge issues seat 0's secret again while a stream is being
	// opened with the old one (its secret read, the stream not yet among
	// the match's): the stream is refused, not left open with a secret
	// that no longer works.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": people(2), "judge": true})
	var first atomic.Bool
	ts.srv.OnSecretRead(func() {
		if first.CompareAndSwap(false, true) {
			if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/seats/0/reissue", c.Judge.Secret, nil); a.status != http.StatusOK {
				t.Errorf("reissue: %d %s", a.status, a.body)
			}
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.http.URL+"/api/v1/matches/"+c.ID+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+c.Seats[0].Secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a stream opened with the secret issued again meanwhile: %d; want 401", resp.StatusCode)
	}
}

// An Idempotency-Key is its caller's own: another seat may use the same
// key for a move of its own, and trying a key tells a seat nothing of
// whether another has moved with it (the example clients make their keys
// of the match and the request, which every seat can guess). A seat's
// retry with its key is a repeat, with a secret issued again too.
func TestIdempotencyKeysAreEachCallersOwn(t *testing.T) {
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": people(3), "judge": true})
	s0, s1 := c.Seats[0].Secret, c.Seats[1].Secret
	q0, q1 := ts.state(c.ID, s0).Requests[0], ts.state(c.ID, s1).Requests[0]
	key := c.ID + "-" + strconv.FormatInt(q0.ID, 10)
	moves := "/api/v1/matches/" + c.ID + "/moves"
	first := ts.call("POST", moves, s0, map[string]any{"request": q0.ID, "move": "adapt"}, "Idempotency-Key", key)
	if first.status != 200 {
		t.Fatalf("seat 0's move: %d %s", first.status, first.body)
	}
	// Seat 1 tries seat 0's key on seat 0's request: refused as another
	// seat's request, as it is without the key.
	if a := ts.call("POST", moves, s1, map[string]any{"request": q0.ID, "move": "adapt"}, "Idempotency-Key", key); a.status != http.StatusConflict || a.code() != "stale-request" {
		t.Errorf("seat 1 tries seat 0's key: %d %s; want 409 stale-request, as without it", a.status, a.body)
	}
	if a := ts.call("POST", moves, s1, map[string]any{"request": q1.ID, "move": "adapt"}, "Idempotency-Key", key); a.status != 200 || a.json["repeat"] != false {
		t.Errorf("seat 1's own move with the same key: %d %s", a.status, a.body)
	}
	// Seat 0's link is made new; its retry with the new secret is still
	// seat 0's.
	re := ts.call("POST", "/api/v1/matches/"+c.ID+"/seats/0/reissue", c.Judge.Secret, nil)
	again := ts.call("POST", moves, re.json["secret"].(string), map[string]any{"request": q0.ID, "move": "adapt"}, "Idempotency-Key", key)
	if again.status != 200 || again.json["repeat"] != true || again.json["seq"] != first.json["seq"] {
		t.Errorf("seat 0's retry with its new secret: %d %s; want the first answer, %s", again.status, again.body, first.body)
	}
}

// A move's request is the id of a request the match asked: a seat that
// sends request -1 is refused, as one that leaves it out is, and its
// move is not made outside its request (a request's id is what keeps a
// stale answer from a later decision). An expect_seq below 0 is refused
// too, not taken as none.
func TestARequestIsOneTheMatchAsked(t *testing.T) {
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": people(2), "judge": true})
	s0 := c.Seats[0].Secret
	moves := "/api/v1/matches/" + c.ID + "/moves"
	for _, x := range []struct {
		secret string
		body   map[string]any
		says   string
	}{
		{s0, map[string]any{"request": -1, "move": "adapt"}, "request -1"},
		{c.Judge.Secret, map[string]any{"request": -1, "move": "adapt"}, "request -1"},
		{s0, map[string]any{"request": 0, "move": "adapt", "expect_seq": -7}, "expect_seq -7"},
	} {
		if a := ts.call("POST", moves, x.secret, x.body); a.status != http.StatusBadRequest || a.code() != "invalid" || !strings.Contains(string(a.body), x.says) {
			t.Errorf("%v: %d %s; want 400 invalid, saying %s", x.body, a.status, a.body, x.says)
		}
	}
	if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/correct", c.Judge.Secret, map[string]any{"move": "adapt", "reason": "r", "expect_seq": -1}); a.status != http.StatusBadRequest || a.code() != "invalid" {
		t.Errorf("a correction with expect_seq -1: %d %s; want 400 invalid", a.status, a.body)
	}
	if m := ts.state(c.ID, c.Judge.Secret); m.Seq != 0 || len(m.Requests) != 2 {
		t.Errorf("after the refusals: move %d, %d requests open; want 0 and 2", m.Seq, len(m.Requests))
	}
}

func TestAPageOfAnotherSiteCannotCreate(t *testing.T) {
	// "Who may create matches: anyone on a loopback address": the game
	// master at their laptop, not every web page their browser opens. A
	// page of another site can send a form's POST (text/plain, no
	// preflight) to 127.0.0.1 from the laptop's own address: it is
	// refused (Sec-Fetch-Site, or an Origin that is not the server's);
	// the server's own pages, curl and programs create as before.
	body := `{"game": "reaj", "seats": [{"player": "adapt"}, {"player": "adapt"}]}`
	ts := newServer(t, server.Config{PublicURL: "http://192.168.1.20:8080/", Limits: server.Limits{Creates: 6000}})
	for _, h := range [][]string{
		{"Sec-Fetch-Site", "cross-site", "Origin", "https://games.example"},
		{"Sec-Fetch-Site", "same-site", "Origin", "http://127.0.0.1:1"}, // another port: another origin of the same site
		{"Origin", "https://games.example"},                             // a browser that sends no Sec-Fetch-Site
		{"Sec-Fetch-Site", "cross-site", "Origin", "null"},
	} {
		h = append(h, "Content-Type", "text/plain")
		if a := ts.call("POST", "/api/v1/matches", "", body, h...); a.status != http.StatusForbidden || a.code() != "create-forbidden" || !strings.Contains(string(a.body), "another site") {
			t.Errorf("created by a page of another site (%q): %d %s; want 403 create-forbidden", h, a.status, a.body)
		}
	}
	for _, h := range [][]string{
		nil, // curl, a program
		{"Sec-Fetch-Site", "same-origin", "Origin", ts.http.URL}, // the server's home page
		{"Origin", ts.http.URL},
		{"Origin", "http://192.168.1.20:8080"}, // its pages as its links reach them (--public-url)
	} {
		if a := ts.call("POST", "/api/v1/matches", "", body, h...); a.status != http.StatusCreated {
			t.Errorf("created from this machine (%q): %d %s; want 201", h, a.status, a.body)
		}
	}
	var list struct{ Matches []any }
	if a := ts.call("GET", "/api/v1/matches", "", nil); json.Unmarshal(a.body, &list) != nil || len(list.Matches) != 4 {
		t.Errorf("the list: %s; want the 4 matches made from this machine", a.body)
	}
}

// Without a creation secret, matches are created from this machine only;
// a request relayed by a reverse proxy on this machine (which comes from a
// loopback address, with X-Forwarded-For or Forwarded) is someone else's,
// unless the proxy is trusted and names this machine as the client.
func TestAProxiedRequestIsNotThisMachines(t *testing.T) {
	body := map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}}
	ts := newServer(t, server.Config{Limits: server.Limits{Creates: 6000}})
	for _, h := range [][]string{
		{"X-Forwarded-For", "203.0.113.9"},
		{"X-Forwarded-For", "127.0.0.1"}, // anyone may write it: an untrusted proxy's word is not taken
		{"Forwarded", "for=203.0.113.9"},
		{"X-Real-IP", "203.0.113.9"},
	} {
		if a := ts.call("POST", "/api/v1/matches", "", body, h...); a.status != http.StatusForbidden || a.code() != "create-forbidden" || !strings.Contains(string(a.body), "--trusted-proxy") {
			t.Errorf("created through an untrusted proxy (%s: %s): %d %s; want 403 create-forbidden, naming --trusted-proxy", h[0], h[1], a.status, a.body)
		}
	}
	if a := ts.call("POST", "/api/v1/matches", "", body); a.status != http.StatusCreated {
		t.Errorf("created from this machine: %d %s", a.status, a.body)
	}
	trusting := newServer(t, server.Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	if a := trusting.call("POST", "/api/v1/matches", "", body, "X-Forwarded-For", "203.0.113.9"); a.status != http.StatusForbidden {
		t.Errorf("a client elsewhere, through a trusted proxy: %d %s", a.status, a.body)
	}
	if a := trusting.call("POST", "/api/v1/matches", "", body, "X-Forwarded-For", "127.0.0.1"); a.status != http.StatusCreated {
		t.Errorf("this machine, through a trusted proxy: %d %s", a.status, a.body)
	}
	// A trusted proxy whose X-Forwarded-For names no client (it sends
	// another header alone, or writes the client with its port) does not
	// say that the client is this machine: the proxy's own address is
	// not the client's.
	for _, h := range [][]string{
		{"X-Real-IP", "203.0.113.9"},
		{"Forwarded", "for=203.0.113.9"},
		{"X-Forwarded-For", "203.0.113.9:4711"},
		{"X-Forwarded-For", "not an address"},
	} {
		if a := trusting.call("POST", "/api/v1/matches", "", body, h...); a.status != http.StatusForbidden || a.code() != "create-forbidden" {
			t.Errorf("a client through a trusted proxy that sends %s: %s: %d %s; want 403 create-forbidden", h[0], h[1], a.status, a.body)
		}
	}
	if a := trusting.call("POST", "/api/v1/matches", "", body); a.status != http.StatusCreated {
		t.Errorf("this machine, with no proxy between: %d %s", a.status, a.body)
	}
}

// A proxy may add its X-Forwarded-For as a line of its own after the
// client's (HAProxy's option forwardfor does): the lines are one list, and
// the client is read from its end, where the trusted proxy wrote, not from
// the first line, which the client wrote itself and which said 127.0.0.1:
// anyone anywhere could create matches, and choose the address every
// limit counted them as.
func TestAProxysOwnLineOfXForwardedForNamesTheClient(t *testing.T) {
	body := `{"game": "reaj", "seats": [{"player": "person"}, {"player": "adapt"}]}`
	ts := newServer(t, server.Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	post := func(lines ...string) answer {
		t.Helper()
		req, _ := http.NewRequest("POST", ts.http.URL+"/api/v1/matches", strings.NewReader(body))
		for _, l := range lines {
			req.Header.Add("X-Forwarded-For", l)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		a := answer{status: resp.StatusCode, body: b}
		json.Unmarshal(b, &a.json)
		return a
	}
	for _, lines := range [][]string{
		{"127.0.0.1", "203.0.113.9"},
		{"127.0.0.1", "::1", "203.0.113.9"},
		{"127.0.0.1, 10.9.9.9", "203.0.113.9"},
	} {
		if a := post(lines...); a.status != http.StatusForbidden || a.code() != "create-forbidden" {
			t.Errorf("a client at 203.0.113.9 that wrote X-Forwarded-For lines %q before its proxy's: %d %s; want 403 create-forbidden", lines[:len(lines)-1], a.status, a.body)
		}
	}
	if a := post("127.0.0.1"); a.status != http.StatusCreated {
		t.Errorf("this machine, through the proxy: %d %s", a.status, a.body)
	}
}

// The limits count an IPv6 client by its /64 network, which one host
// usually holds whole: streams opened without a secret from addresses of
// one /64 are counted together, and another network's are not.
func TestAnIPv6NetworkIsOneClient(t *testing.T) {
	ts := newServer(t, server.Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, Limits: server.Limits{StreamsPerClient: 2}})
	c := ts.create(map[string]any{"game": "reaj", "seats": people(2)})
	open := func(from string) int {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel) // the stream stays open until the test ends
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.http.URL+"/api/v1/matches/"+c.ID+"/events", nil)
		req.Header.Set("X-Forwarded-For", from)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
		}
		return resp.StatusCode
	}
	for _, from := range []string{"2001:db8:1:2::1", "2001:db8:1:2:aaaa::2"} {
		if got := open(from); got != http.StatusOK {
			t.Fatalf("a stream from %s: %d", from, got)
		}
	}
	if got := open("2001:db8:1:2:ffff::3"); got != http.StatusTooManyRequests {
		t.Errorf("a third stream from the same /64: %d; want 429", got)
	}
	if got := open("2001:db8:1:3::1"); got != http.StatusOK {
		t.Errorf("a stream from another /64: %d; want 200", got)
	}
}

func TestANullMoveIsNotAMoveInEveryGame(t *testing.T) {
	// "move": null is no move of any game: 422 not-a-move, in every game
	// and from every caller (a seat, the judge, a correction), as the
	// protocol makes it garbage; never a move the rules refuse in their
	// own words, and never "no move" (the body has one). The match is
	// unchanged.
	ts := newServer(t, server.Config{Limits: server.Limits{Creates: 6000}})
	const says = `null is not a move of this game: a move is the game's own JSON, as a request's "default" is`
	refused := func(t *testing.T, path, secret string, body string) {
		t.Helper()
		a := ts.call("POST", path, secret, body)
		e, _ := a.json["error"].(map[string]any)
		if msg, _ := e["message"].(string); a.status != 422 || a.code() != "not-a-move" || msg != says {
			t.Errorf("%s %s: %d %s; want 422 not-a-move saying %q", path, body, a.status, a.body, says)
		}
	}
	for _, g := range catalog.Games() {
		info := g.Info()
		t.Run(info.Name, func(t *testing.T) {
			seats := []map[string]any{{"player": "person"}}
			for _, b := range strings.Split(info.DefaultPlayers, ",") {
				seats = append(seats, map[string]any{"player": b})
			}
			body := map[string]any{"game": info.Name, "seats": seats}
			if lg, ok := g.(catalog.LiveGame); ok {
				for _, mode := range lg.Modes() {
					if !mode.Judge {
						body["mode"] = mode.Name
						break
					}
				}
			}
			c := ts.create(body)
			p0 := c.Seats[0].Secret
			before := ts.waitState(c.ID, p0, func(m matchState) bool { return len(m.Requests) > 0 })
			req := before.Requests[0]
			refused(t, "/api/v1/matches/"+c.ID+"/moves", p0, fmt.Sprintf(`{"request": %d, "move": null}`, req.ID))
			if after := ts.state(c.ID, p0); after.Seq != before.Seq || len(after.Requests) == 0 || after.Requests[0].ID != req.ID {
				t.Errorf("the match moved: %+v, then %+v", before, after)
			}
		})
	}
	// The judge's moves and corrections, in the modes that take them.
	referee := ts.create(map[string]any{"game": "territories", "mode": "referee"})
	refused(t, "/api/v1/matches/"+referee.ID+"/moves", referee.Judge.Secret, `{"move": null}`)
	refused(t, "/api/v1/matches/"+referee.ID+"/correct", referee.Judge.Secret, `{"move": null, "reason": "a test"}`)
	judged := ts.create(map[string]any{"game": "zombie", "mode": "judge", "seats": []map[string]any{{"player": "person"}, {"player": "person"}, {"player": "person"}}})
	refused(t, "/api/v1/matches/"+judged.ID+"/moves", judged.Judge.Secret, `{"move": null}`)
	refused(t, "/api/v1/matches/"+judged.ID+"/correct", judged.Judge.Secret, `{"move": null, "reason": "a test"}`)
	if m := ts.state(judged.ID, judged.Judge.Secret); m.Seq != 0 {
		t.Errorf("the judged match moved to %d", m.Seq)
	}
}

func TestAMoveThatIsNoNameSaysANameIsWanted(t *testing.T) {
	// A value is a name in a move; null, which a world's JSON takes for a
	// dead society's choice, is no move: the refusal of a move of another
	// shape asks for a name, and not for "a value name or null".
	ts := newServer(t, server.Config{})
	for _, game := range []string{"ajveciv", "reaj"} {
		c := ts.create(map[string]any{"game": game, "seats": []map[string]any{{"player": "person"}, {"player": "random"}}})
		p0 := c.Seats[0].Secret
		req := ts.waitState(c.ID, p0, func(m matchState) bool { return len(m.Requests) > 0 }).Requests[0]
		a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", p0, fmt.Sprintf(`{"request": %d, "move": ["conquer"]}`, req.ID))
		e, _ := a.json["error"].(map[string]any)
		const says = `["conquer"] is not a move of this game: want a value name, got ["conquer"]`
		if msg, _ := e["message"].(string); a.status != 422 || a.code() != "not-a-move" || msg != says {
			t.Errorf("%s: %d %s; want 422 not-a-move saying %q", game, a.status, a.body, says)
		}
	}
}

func TestAFieldOfAJudgesMoveInAnotherCaseIsNotAMove(t *testing.T) {
	// The move is the game's own JSON, its fields named as the game names
	// them: a territories referee's call with "Player" for "player" is
	// not a move, and plays nothing.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "territories", "mode": "referee"})
	path := "/api/v1/matches/" + c.ID + "/moves"
	a := ts.call("POST", path, c.Judge.Secret, `{"move": {"Player": "alice", "action": "join Pacifica CA"}}`)
	e, _ := a.json["error"].(map[string]any)
	const says = `field "Player" is written "player": names of fields are read exactly as written, in their case`
	if msg, _ := e["message"].(string); a.status != 422 || a.code() != "not-a-move" || !strings.Contains(msg, says) {
		t.Errorf("%d %s; want 422 not-a-move saying %q", a.status, a.body, says)
	}
	if m := ts.state(c.ID, c.Judge.Secret); m.Seq != 0 {
		t.Errorf("the match moved to %d", m.Seq)
	}
	if a := ts.call("POST", path, c.Judge.Secret, `{"move": {"player": "alice", "action": "join Pacifica CA"}}`); a.status != 200 {
		t.Errorf("the call as written: %d %s", a.status, a.body)
	}
}

func TestAResignationAgainChangesNothing(t *testing.T) {
	// A seat that resigns again (its player's page sent it twice, or a
	// program calls in a loop) is answered as the first time, and nothing
	// is written or logged again: resignations are not limited as moves
	// are, and each one wrote the match's settings (a synced transaction)
	// and a log line. The clock moves a second at each reading, so that
	// any write shows in the match's time of change.
	var mu sync.Mutex
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Second)
		return clock
	}
	var logged bytes.Buffer
	var logMu sync.Mutex
	log := slog.New(slog.NewTextHandler(lockedWriter{&logMu, &logged}, nil))
	ts := newServer(t, server.Config{Now: now, Log: log, NoAccessLog: true})
	c := ts.create(map[string]any{"game": "reaj", "seats": people(3), "options": map[string]any{"turns": 50}})
	path := "/api/v1/matches/" + c.ID + "/resign"
	if a := ts.call("POST", path, c.Seats[1].Secret, nil); a.status != 200 {
		t.Fatalf("resign: %d %s", a.status, a.body)
	}
	// The seat's request gets its default, once; then the round waits
	// for the others.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		a := ts.call("GET", "/api/v1/matches/"+c.ID, c.Seats[1].Secret, nil)
		if reqs, _ := a.json["requests"].([]any); len(reqs) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the resigned seat's request was not played in a minute: %s", a.body)
		}
	}
	row, err := ts.st.Match(context.Background(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if a := ts.call("POST", path, c.Seats[1].Secret, nil); a.status != 200 || a.json["resigned"] != float64(1) {
			t.Fatalf("resign again: %d %s", a.status, a.body)
		}
	}
	again, err := ts.st.Match(context.Background(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Updated.Equal(row.Updated) || string(again.Config) != string(row.Config) {
		t.Errorf("the match was written again: changed at %v, then %v; settings %s, then %s", row.Updated, again.Updated, row.Config, again.Config)
	}
	logMu.Lock()
	n := strings.Count(logged.String(), "seat resigned")
	logMu.Unlock()
	if n != 1 {
		t.Errorf("%d lines say the seat resigned:\n%s", n, logged.String())
	}
}

// lockedWriter is a writer that many goroutines may write to.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestATNCCMoveOfTheWrongShapeIsToldTheShapeOfTheKindAsked(t *testing.T) {
	// A move that is no move of TNCC is told what the open request's kind
	// takes: the answer to a trade offer, {"accept": true} or {"accept":
	// false}, not the fields of every move; a turn, the four actions.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "tncc", "seats": []map[string]any{{"player": "person"}, {"player": "person"}}})
	p0, p1 := c.Seats[0].Secret, c.Seats[1].Secret
	path := "/api/v1/matches/" + c.ID + "/moves"
	refused := func(secret string, req int64, move, says string) {
		t.Helper()
		a := ts.call("POST", path, secret, fmt.Sprintf(`{"request": %d, "move": %s}`, req, move))
		e, _ := a.json["error"].(map[string]any)
		if msg, _ := e["message"].(string); a.status != 422 || a.code() != "not-a-move" || msg != says {
			t.Errorf("%s: %d %s; want 422 not-a-move saying %q", move, a.status, a.body, says)
		}
	}
	turn := ts.waitState(c.ID, p0, func(m matchState) bool { return len(m.Requests) > 0 }).Requests[0]
	refused(p0, turn.ID, `true`, `true is not a move of this game: want an action: {"type": "wait"}, {"type": "recruit", "n": 50}, {"type": "trade", "with": 1, "give": "gold", "give_n": 100, "take": "food", "take_n": 200} or {"type": "war", "target": 1, "flanks": [10, 0, 30]}; got a JSON bool`)
	offer := `{"type": "trade", "with": 1, "give": "gold", "give_n": 100, "take": "food", "take_n": 200}`
	if a := ts.call("POST", path, p0, fmt.Sprintf(`{"request": %d, "move": %s}`, turn.ID, offer)); a.status != 200 {
		t.Fatalf("the offer: %d %s", a.status, a.body)
	}
	answer := ts.waitState(c.ID, p1, func(m matchState) bool { return len(m.Requests) > 0 && m.Requests[0].Seat == 1 }).Requests[0]
	refused(p1, answer.ID, `true`, `true is not a move of this game: want an answer to a trade offer: {"accept": true} or {"accept": false}; got a JSON bool`)
	refused(p1, answer.ID, `{"answer": true}`, `{"answer": true} is not a move of this game: "answer" is no field of an answer to a trade offer; want {"accept": true} or {"accept": false}`)
}
