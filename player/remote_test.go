package player

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
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
	// The limit comes first: a program slow to start says nothing
	// either, and the two cannot be told apart.
	const hint = "no ready within the start-up limit of 200ms (--startup); nothing came on its standard output: it may be slow, may write its lines without flushing them (a program must flush each line it writes), or may wait for its standard input to end before it answers (it ends only after bye: a program reads one line at a time)"
	err := startIn(shBot(t, `read hello; exec sleep 60`), 200*time.Millisecond)
	f := engine.FaultOf(err)
	if f.Kind != engine.FaultStart || !strings.Contains(f.Detail, hint) {
		t.Errorf("fault %+v; want a start fault that says %q", f, hint)
	}
	// A program that wrote something, but not a whole line, is told what
	// came, and no word of flushing. Its limit leaves a loaded machine's
	// shell the time to start and write.
	err = startIn(shBot(t, `read hello; printf '{"type":'; exec sleep 60`), 3*time.Second)
	const partial = "no ready within the start-up limit of 3s (--startup); received 8 bytes but no end of line: each message ends with a newline"
	if f := engine.FaultOf(err); !strings.Contains(f.Detail, partial) || strings.Contains(f.Detail, "flush") {
		t.Errorf("fault %+v; want %q", f, partial)
	}
}

func TestTimeoutTellsItsFigures(t *testing.T) {
	// A decision's timeout says the deadline and the bank it had; the bank
	// is then spent.
	r := shBot(t, `read hello; echo '{"type":"ready"}'; exec sleep 60`)
	if err := r.Start(context.Background(), engine.MatchInfo{Game: 1, Time: engine.TimeControl{Deadline: 30 * time.Millisecond, Bank: 70 * time.Millisecond, StartDeadline: 5 * time.Second}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"no answer within its 30ms deadline and 70ms of bank left", "no answer within its 30ms deadline and 0s of bank left"} {
		_, err := r.Decide(context.Background(), &engine.Request[string]{ID: 1, Default: "d", Deadline: 30 * time.Millisecond}, "view")
		if f := engine.FaultOf(err); f.Kind != engine.FaultTimeout || f.Detail != want {
			t.Errorf("fault %+v; want a timeout that says %q", f, want)
		}
	}
}

func TestProgramThatExitsBeforeReadyFailsToStart(t *testing.T) {
	// "start: the program could not start, or did not answer hello with
	// ready": an interpreter whose script does not exist exits at once.
	for _, c := range []struct{ script, detail string }{
		{`exit 2`, "exited with code 2"},
		{`read hello; echo '{"type":"move"}'`, `answered hello with "{\"type\":\"move\"}"`},
		// A field of the wrong kind is named.
		{`read hello; echo '{"type":"ready","name":["a"]}'`, `, in which "name" is a JSON array, not a string; want {"type": "ready"}, and its "name", if it gives one, a string`},
	} {
		f := engine.FaultOf(startIn(shBot(t, c.script), 5*time.Second))
		if f.Kind != engine.FaultStart || !strings.Contains(f.Detail, c.detail) {
			t.Errorf("%s: fault %+v; want a start fault that says %q", c.script, f, c.detail)
		}
	}
}

func TestAnswerToARequestNotAsked(t *testing.T) {
	// An answer to a request the bot was never sent is garbage that says
	// which it answered; a late answer to one it was sent is passed over.
	ready := `read hello; echo '{"type":"ready"}'; `
	r := shBot(t, ready+`read req; echo '{"type":"move","id":999999,"move":"a"}'; exec sleep 60`)
	if err := startIn(r, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	_, err := r.Decide(context.Background(), &engine.Request[string]{ID: 13, Default: "d", Deadline: 5 * time.Second}, "view")
	if f := engine.FaultOf(err); f.Kind != engine.FaultGarbage || !strings.Contains(f.Detail, "answered request 999999") ||
		!strings.Contains(f.Detail, "the request is 13") {
		t.Errorf("fault %+v; want garbage that names both ids", f)
	}

	quoted := shBot(t, ready+`read req; echo '{"type":"move","id":"13","move":"a"}'; exec sleep 60`)
	if err := startIn(quoted, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	_, err = quoted.Decide(context.Background(), &engine.Request[string]{ID: 13, Default: "d", Deadline: 5 * time.Second}, "view")
	if f := engine.FaultOf(err); f.Kind != engine.FaultGarbage || !strings.HasSuffix(f.Detail, `, in which "id" is a JSON string, not a whole number; want {"type": "move", "id": 13, "move": ...}`) {
		t.Errorf("fault %+v; want garbage that says the id is a string", f)
	}

	late := shBot(t, ready+`read req; sleep 0.5; echo '{"type":"move","id":1,"move":"a"}'; read req; echo '{"type":"move","id":2,"move":"b"}'; exec sleep 60`)
	if err := startIn(late, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	_, err = late.Decide(context.Background(), &engine.Request[string]{ID: 1, Default: "d", Deadline: 50 * time.Millisecond}, "view")
	if f := engine.FaultOf(err); f.Kind != engine.FaultTimeout {
		t.Fatalf("fault %+v; want a timeout", f)
	}
	mv, err := late.Decide(context.Background(), &engine.Request[string]{ID: 2, Default: "d", Deadline: 5 * time.Second}, "view")
	if err != nil || mv != "b" {
		t.Errorf("move %q, %v; want b, the late answer passed over", mv, err)
	}
}

func TestAMoveWithNoMoveSaysSo(t *testing.T) {
	// A move message without its "move" is garbage that says the field is
	// missing, not that the move is empty input.
	r := shBot(t, `read hello; echo '{"type":"ready"}'; read req; echo '{"type":"move","id":13}'; exec sleep 60`)
	if err := startIn(r, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	_, err := r.Decide(context.Background(), &engine.Request[string]{ID: 13, Default: "d", Deadline: 5 * time.Second}, "view")
	const want = `sent a move with no "move"; want {"type": "move", "id": 13, "move": ...}, the move being the game's own JSON`
	if f := engine.FaultOf(err); f.Kind != engine.FaultGarbage || f.Detail != want {
		t.Errorf("fault %+v; want garbage that says %q", f, want)
	}
}

func TestANullMoveIsGarbage(t *testing.T) {
	// "move": null is no move of any game, whatever the game's type would
	// make of it (a string's "", a value's zero): garbage, which says
	// what a move is, and not a move the rules then refuse.
	r := shBot(t, `read hello; echo '{"type":"ready"}'; read req; echo '{"type":"move","id":13,"move": null }'; exec sleep 60`)
	if err := startIn(r, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	mv, err := r.Decide(context.Background(), &engine.Request[string]{ID: 13, Default: "d", Deadline: 5 * time.Second}, "view")
	const want = `answered move null, which is not a move of this game: a move is the game's own JSON, as the request's "default" is: "d"`
	if err == nil {
		t.Fatalf("move %q; want garbage that says %q", mv, want)
	}
	if f := engine.FaultOf(err); f.Kind != engine.FaultGarbage || f.Detail != want {
		t.Errorf("fault %+v; want garbage that says %q", f, want)
	}
}

func TestAMoveWithAnErrorIsTheBotsFault(t *testing.T) {
	// A bot that could not decide says why in the move's "error": the
	// default is played whatever its move, and the fault is an error in
	// its words, as a Go player's error is in process; a long one is cut.
	// An "error" that is no string says so too, in its JSON text; an
	// empty one, null or false says nothing.
	long := strings.Repeat("é", 400)
	for _, c := range []struct {
		answer string
		move   string
		kind   engine.FaultKind
		detail string
	}{
		{`{"type":"move","id":13,"move":"d","error":"Decide panicked: boom"}`, "", engine.FaultError, "Decide panicked: boom"},
		{`{"type":"move","id":13,"move":"a","error":"no idea"}`, "", engine.FaultError, "no idea"},
		{`{"type":"move","id":13,"error":"its view cannot be read"}`, "", engine.FaultError, "its view cannot be read"},
		{`{"type":"move","id":13,"move":"d","error":"` + long + `"}`, "", engine.FaultError, strings.Repeat("é", maxSaid/2) + "…"},
		{`{"type":"move","id":13,"move":"a","error":""}`, "a", "", ""},
		{`{"type":"move","id":13,"move":"a","error":{"code": 3}}`, "", engine.FaultError, `{"code":3}`},
		{`{"type":"move","id":13,"move":"a","error":3}`, "", engine.FaultError, `3`},
		{`{"type":"move","id":13,"error":[1,"no idea"]}`, "", engine.FaultError, `[1,"no idea"]`},
		{`{"type":"move","id":13,"move":"a","error":true}`, "", engine.FaultError, `true`},
		{`{"type":"move","id":13,"move":"d","error":{"why":"` + long + `"}}`, "", engine.FaultError, `{"why":"` + strings.Repeat("é", (maxSaid-8)/2) + "…"},
		{`{"type":"move","id":13,"move":"a","error":null}`, "a", "", ""},
		{`{"type":"move","id":13,"move":"a","error":false}`, "a", "", ""},
		{`{"type":"move","id":13,"error":null}`, "", engine.FaultGarbage, `sent a move with no "move"`},
		{`{"type":"move","id":13,"move":"a","Error":"no idea"}`, "", engine.FaultGarbage, `in which field "Error" is written "error"`},
	} {
		r := shBot(t, `read hello; echo '{"type":"ready"}'; read req; echo '`+c.answer+`'; exec sleep 60`)
		if err := startIn(r, 5*time.Second); err != nil {
			t.Fatal(err)
		}
		mv, err := r.Decide(context.Background(), &engine.Request[string]{ID: 13, Default: "d", Deadline: 5 * time.Second}, "view")
		var f engine.Fault
		if err != nil {
			f = engine.FaultOf(err)
		}
		if c.kind == "" && (err != nil || mv != c.move) {
			t.Errorf("%s: move %q, %v; want %q", c.answer, mv, err, c.move)
		}
		if c.kind != "" && (f.Kind != c.kind || !strings.Contains(f.Detail, c.detail) || c.kind == engine.FaultError && f.Detail != c.detail) {
			t.Errorf("%s: fault %+v; want %s saying %q", c.answer, f, c.kind, c.detail)
		}
	}
}

func TestAFieldInAnotherCaseIsGarbage(t *testing.T) {
	// The protocol's field names are read as written: encoding/json would
	// take "Type" for "type", and a bot written against such a lenient
	// referee would break on a strict one. The fault names the field and
	// how it is written.
	ready := `read hello; echo '{"type":"ready"}'; `
	for _, c := range []struct{ answer, want string }{
		{`{"Type":"move","id":13,"move":"a"}`, `answered "{\"Type\":\"move\",\"id\":13,\"move\":\"a\"}", in which field "Type" is written "type": names of fields are read exactly as written, in their case; want {"type": "move", "id": 13, "move": ...}`},
		{`{"type":"move","ID":13,"move":"a"}`, `, in which field "ID" is written "id": names of fields are read exactly as written, in their case; want {"type": "move", "id": 13, "move": ...}`},
		{`{"type":"move","id":13,"Move":"a"}`, `, in which field "Move" is written "move": names`},
		// A key given twice, which encoding/json would take the last of
		// in silence, as it is refused over HTTP.
		{`{"type":"move","id":13,"move":"a","move":"b"}`, `, in which the top level: key "move" is given twice; give each key once; want {"type": "move", "id": 13, "move": ...}`},
		{`{"type":"move","id":13,"move":{"x":1,"x":2}}`, `, in which move: key "x" is given twice`},
	} {
		r := shBot(t, ready+`read req; echo '`+c.answer+`'; exec sleep 60`)
		if err := startIn(r, 5*time.Second); err != nil {
			t.Fatal(err)
		}
		mv, err := r.Decide(context.Background(), &engine.Request[string]{ID: 13, Default: "d", Deadline: 5 * time.Second}, "view")
		if err == nil {
			t.Errorf("%s: move %q; want garbage that says %q", c.answer, mv, c.want)
			continue
		}
		if f := engine.FaultOf(err); f.Kind != engine.FaultGarbage || !strings.Contains(f.Detail, c.want) {
			t.Errorf("%s: fault %+v; want garbage that says %q", c.answer, f, c.want)
		}
	}
	// A field of the bot's own is no field of the protocol, in any case.
	own := shBot(t, ready+`read req; echo '{"type":"move","id":13,"move":"a","Note":"mine","MOVES":[1]}'; exec sleep 60`)
	if err := startIn(own, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if mv, err := own.Decide(context.Background(), &engine.Request[string]{ID: 13, Default: "d", Deadline: 5 * time.Second}, "view"); err != nil || mv != "a" {
		t.Errorf("move %q, %v; want a, its own fields passed over", mv, err)
	}
	// The ready, too.
	const want = `answered hello with "{\"TYPE\":\"ready\"}", in which field "TYPE" is written "type": names of fields are read exactly as written, in their case; want {"type": "ready"}`
	err := startIn(shBot(t, `read hello; echo '{"TYPE":"ready"}'; exec sleep 60`), 5*time.Second)
	if err == nil {
		t.Fatalf("started; want a start fault that says %q", want)
	}
	if f := engine.FaultOf(err); f.Kind != engine.FaultStart || !strings.Contains(f.Detail, want) {
		t.Errorf("fault %+v; want a start fault that says %q", f, want)
	}
}

func TestCloseFromTwoGoroutinesBothWaitForTheProgram(t *testing.T) {
	// Close "returns once the program is stopped", whichever of two
	// callers at once gets there second: a Close that finds the program
	// already being stopped by another waits for it too.
	r := shBot(t, `read hello; echo '{"type":"ready"}'; exec sleep 600`) // deaf to bye: killed after closeWait
	if err := startIn(r, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	p := r.conn.(*program)
	first := make(chan struct{})
	go func() {
		defer close(first)
		r.Close()
	}()
	for taken := false; !taken; {
		r.mu.Lock()
		taken = r.conn == nil
		r.mu.Unlock()
		if !taken {
			time.Sleep(time.Millisecond)
		}
	}
	r.Close()
	select {
	case <-p.done:
	default:
		t.Fatal("the second Close returned while the first was still stopping the program")
	}
	<-first
}

func TestAnAnswerThatIsNoJSONSaysWhereItWentWrong(t *testing.T) {
	// A program's debug print is told to go to standard error, whether it
	// came for a request or for the hello; a remote bot has no standard
	// output, and is told that its answer is its response's body.
	const stdout = "(a bot writes only the protocol's lines on its standard output; debug output goes to standard error)"
	const body = "(a remote bot's answer is the body of its HTTP response: the JSON object alone)"
	err := startIn(shBot(t, `read hello; echo 'got hello'; exec sleep 60`), 5*time.Second)
	if f := engine.FaultOf(err); f.Kind != engine.FaultStart || !strings.HasSuffix(f.Detail, `answered hello with "got hello"; want {"type": "ready"}, and its "name", if it gives one, a string `+stdout) {
		t.Errorf("fault %+v; want a start fault that says %q", f, stdout)
	}

	answers := map[string]string{"hello": `{"type":"ready"}`, "request": "adapt"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var m struct{ Type string }
		if err := json.NewDecoder(req.Body).Decode(&m); err != nil {
			t.Errorf("a message that is not JSON: %v", err)
		}
		fmt.Fprint(w, answers[m.Type])
	}))
	defer srv.Close()
	r := NewRemote[string, string](srv.URL, External{})
	t.Cleanup(func() { r.Close() })
	if err := startIn(r, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	_, err = r.Decide(context.Background(), &engine.Request[string]{ID: 13, Default: "d", Deadline: 5 * time.Second}, "view")
	want := `answered "adapt"; want {"type": "move", "id": 13, "move": ...} ` + body
	if f := engine.FaultOf(err); f.Kind != engine.FaultGarbage || f.Detail != want {
		t.Errorf("fault %+v; want garbage that says %q", f, want)
	}

	answers["hello"] = ""
	err = startIn(r, 5*time.Second)
	want = `answered hello with ""; want {"type": "ready"}, and its "name", if it gives one, a string ` + body
	if f := engine.FaultOf(err); f.Kind != engine.FaultStart || f.Detail != want {
		t.Errorf("fault %+v; want a start fault that says %q", f, want)
	}
}

func TestMessagesWithNoNewlineBetweenThemSaySo(t *testing.T) {
	// A bot that wrote a move with no end of line (node's
	// process.stdout.write) and then the next one sent one line of two
	// objects: it is told that each message ends with a newline, not that
	// debug output goes to standard error.
	r := shBot(t, `read hello; echo '{"type":"ready"}'; read req; printf '{"type":"move","id":12,"move":"a"}'; read req; echo '{"type":"move","id":13,"move":"a"}'; exec sleep 60`)
	if err := startIn(r, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	_, err := r.Decide(context.Background(), &engine.Request[string]{ID: 12, Default: "d", Deadline: 200 * time.Millisecond}, "view")
	if f := engine.FaultOf(err); f.Kind != engine.FaultTimeout {
		t.Fatalf("fault %+v; want a timeout: no end of line came", f)
	}
	_, err = r.Decide(context.Background(), &engine.Request[string]{ID: 13, Default: "d", Deadline: 5 * time.Second}, "view")
	want := `answered "{\"type\":\"move\",\"id\":12,\"move\":\"a\"}{\"type\":\"move\",\"id\":13,\"move\":\"a\"}"; want {"type": "move", "id": 13, "move": ...} (2 JSON values, one after the other: each message ends with a newline)`
	if f := engine.FaultOf(err); f.Kind != engine.FaultGarbage || f.Detail != want {
		t.Errorf("fault %+v; want garbage that says %q", f, want)
	}
}

func TestARemoteBotThatClosesWithNoResponseIsToldSo(t *testing.T) {
	// Python's http.server closes the connection with no response when its
	// handler raises: Go's client says only "EOF", which names nothing.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var m struct{ Type string }
		json.NewDecoder(req.Body).Decode(&m)
		if m.Type == "hello" {
			fmt.Fprint(w, `{"type":"ready"}`)
			return
		}
		c, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		c.Close()
	}))
	defer srv.Close()
	r := NewRemote[string, string](srv.URL, External{})
	t.Cleanup(func() { r.Close() })
	if err := startIn(r, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	_, err := r.Decide(context.Background(), &engine.Request[string]{ID: 13, Default: "d", Deadline: 5 * time.Second}, "view")
	want := "POST " + srv.URL + ": the connection closed with no HTTP response (EOF): the bot's server may have failed on the message; its own log says why"
	if f := engine.FaultOf(err); f.Kind != engine.FaultError || f.Detail != want {
		t.Errorf("fault %+v; want an error that says %q", f, want)
	}
}

func TestAnHTTPErrorSaysWhatItsBodySaid(t *testing.T) {
	// A remote bot's HTTP error is told with its body when that is text
	// or JSON (what went wrong, in the bot's words), not when it is a
	// page of HTML.
	var status int
	var contentType, said string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var m struct{ Type string }
		json.NewDecoder(req.Body).Decode(&m)
		if m.Type == "hello" {
			fmt.Fprint(w, `{"type":"ready"}`)
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		fmt.Fprint(w, said)
	}))
	defer srv.Close()
	r := NewRemote[string, string](srv.URL, External{})
	t.Cleanup(func() { r.Close() })
	if err := startIn(r, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		status            int
		contentType, said string
		want              string
	}{
		{500, "text/plain; charset=utf-8", "KeyError: 'no_such_key'\n", `: 500 Internal Server Error (its body: "KeyError: 'no_such_key'")`},
		{404, "application/json", `{"error":"no match 3f9c-1"}`, `: 404 Not Found (its body: "{\"error\":\"no match 3f9c-1\"}")`},
		{500, "text/html", "<html><body><h1>Internal Server Error</h1></body></html>", ": 500 Internal Server Error"},
		{503, "text/plain", "", ": 503 Service Unavailable"},
	} {
		status, contentType, said = c.status, c.contentType, c.said
		_, err := r.Decide(context.Background(), &engine.Request[string]{ID: 13, Default: "d", Deadline: 5 * time.Second}, "view")
		want := "POST " + srv.URL + c.want
		if f := engine.FaultOf(err); f.Kind != engine.FaultError || f.Detail != want {
			t.Errorf("%d %s %q: fault %+v; want an error that says %q", c.status, c.contentType, c.said, f, want)
		}
	}
}

func TestATypeInAnotherCaseSaysSo(t *testing.T) {
	// "Move" and "READY" are the protocol's words in another case: the
	// fault says which, not only what was wanted.
	r := shBot(t, `read hello; echo '{"type":"ready"}'; read req; echo '{"type":"Move","id":13,"move":"a"}'; exec sleep 60`)
	if err := startIn(r, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	_, err := r.Decide(context.Background(), &engine.Request[string]{ID: 13, Default: "d", Deadline: 5 * time.Second}, "view")
	want := `answered "{\"type\":\"Move\",\"id\":13,\"move\":\"a\"}", in which "type" is "Move", not "move": the protocol's words are read exactly as written, in their case; want {"type": "move", "id": 13, "move": ...}`
	if f := engine.FaultOf(err); f.Kind != engine.FaultGarbage || f.Detail != want {
		t.Errorf("fault %+v; want garbage that says %q", f, want)
	}
	err = startIn(shBot(t, `read hello; echo '{"type":"READY"}'; exec sleep 60`), 5*time.Second)
	want = `answered hello with "{\"type\":\"READY\"}", in which "type" is "READY", not "ready": the protocol's words are read exactly as written, in their case; want {"type": "ready"}, and its "name", if it gives one, a string`
	if f := engine.FaultOf(err); f.Kind != engine.FaultStart || f.Detail != want {
		t.Errorf("fault %+v; want a start fault that says %q", f, want)
	}
}

// kinded is a move whose JSON is read by the kind of request it answers
// (engine.KindReader): a string, whose refusal names the kind.
type kinded string

func (k *kinded) UnmarshalKind(kind engine.Kind, data []byte) error {
	if json.Unmarshal(data, (*string)(k)) != nil {
		return fmt.Errorf("a %s is a string", kind)
	}
	return nil
}

func TestAMoveOfTheWrongShapeIsToldTheShapeOfTheKindAsked(t *testing.T) {
	// A game whose moves take a shape by the kind of request (TNCC's
	// action, its answer to a trade) has the move that is none read again
	// for the request's kind, which its refusal names.
	r := NewRemote[kinded, string]("exec:sh -c "+strconv.Quote(`read hello; echo '{"type":"ready"}'; read req; echo '{"type":"move","id":13,"move":true}'; exec sleep 60`), External{Logs: &Logs{Dir: t.TempDir()}})
	t.Cleanup(func() { r.Close() })
	if err := r.Start(context.Background(), engine.MatchInfo{Game: 1, Time: engine.TimeControl{Deadline: time.Second, StartDeadline: 5 * time.Second}}); err != nil {
		t.Fatal(err)
	}
	_, err := r.Decide(context.Background(), &engine.Request[kinded]{ID: 13, Kind: "trade answer", Default: "d", Deadline: 5 * time.Second}, "view")
	const want = `answered move "true", which is not a move of this game: a trade answer is a string`
	if f := engine.FaultOf(err); f.Kind != engine.FaultGarbage || f.Detail != want {
		t.Errorf("fault %+v; want garbage that says %q", f, want)
	}
}

func TestAnErrorAfterTheDeadlineSpendsTheBank(t *testing.T) {
	// An answer that comes after its deadline takes the overrun from the
	// bank, whether it holds a move or says the bot could not decide: an
	// "error" is no way to think past the deadline for free.
	r := shBot(t, `read hello; echo '{"type":"ready"}'; read req; sleep 0.5; echo '{"type":"move","id":1,"error":"no idea"}'; exec sleep 60`)
	if err := r.Start(context.Background(), engine.MatchInfo{Game: 1, Time: engine.TimeControl{Deadline: 50 * time.Millisecond, Bank: 5 * time.Second, StartDeadline: 5 * time.Second}}); err != nil {
		t.Fatal(err)
	}
	_, err := r.Decide(context.Background(), &engine.Request[string]{ID: 1, Default: "d", Deadline: 50 * time.Millisecond}, "view")
	if f := engine.FaultOf(err); f.Kind != engine.FaultError {
		t.Fatalf("fault %+v; want an error", f)
	}
	if r.bank > 5*time.Second-400*time.Millisecond {
		t.Errorf("the bank left is %v after an answer 450ms past its deadline; want the overrun taken from 5s", r.bank)
	}
}
