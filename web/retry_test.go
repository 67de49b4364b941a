package web_test

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/internal/sqlitetest"
	"github.com/arbiter-games/arbiter/server"
)

// The pages' patience with a server that asks them to wait (web/assets/js
// api.js): 7 tries in all, the server asking 2 s between them.
const (
	triesMost    = 7
	busyWait     = "The server is busy (it cannot reach its database for now); trying again in 2 s…"
	busyGaveUp   = "Not played: the server stayed busy (it cannot reach its database for now) through 7 tries over 12 s, and this page stopped trying."
	uploadWaited = "The server is busy (it is reading as many records as it holds at once); trying again in 2 s…"
)

// seatMoves counts the moves of seat stored in match c, as its record
// tells them to its judge.
func (s *site) seatMoves(c created, seat int) int {
	s.t.Helper()
	req, _ := http.NewRequest("GET", s.URL()+"/api/v1/matches/"+c.ID+"/record", nil)
	req.Header.Set("Authorization", "Bearer "+c.Judge.Secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		s.t.Fatalf("the record: %d %s", resp.StatusCode, b)
	}
	return strings.Count(string(b), fmt.Sprintf(`{"seat":%d,`, seat))
}

// moveKeys returns the Idempotency-Key of each move the page sent.
func (tb *tab) moveKeys() []string {
	var keys []string
	for _, r := range tb.requests() {
		if strings.HasSuffix(r.url, "/moves") {
			keys = append(keys, fmt.Sprint(r.headers["Idempotency-Key"]))
		}
	}
	return keys
}

// oneKey fails t unless the page sent n moves (n at least, when atLeast),
// all with one Idempotency-Key.
func oneKey(t *testing.T, tb *tab, n int, atLeast bool) {
	t.Helper()
	keys := tb.moveKeys()
	if len(keys) < n || !atLeast && len(keys) != n {
		t.Errorf("the page sent the move %d times; want %d", len(keys), n)
	}
	for _, k := range keys {
		if k != keys[0] || k == "" || k == "<nil>" {
			t.Errorf("the page sent the move with the keys %q; want one, the same every time", keys)
			break
		}
	}
}

func TestMoveWaitsOutALockedDatabaseAndIsMadeOnce(t *testing.T) {
	// A move sent while another process held the SQLite file's lock was
	// answered 503 unavailable, which the page told as an error: the
	// person had to play again by hand. The page says, calmly, that the
	// server is busy and when it tries again, sends the move again after
	// the wait the server asks for, with the same Idempotency-Key, and
	// the move is made once the file is free, once.
	s := newSiteBusy(t, server.Limits{}, 50*time.Millisecond)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "reaj", "seats": people(2), "options": map[string]any{"turns": 4}, "judge": true})
	p := b.open("seat 1", c.Seats[0].URL, phoneW, phoneH)
	p.until("the page", `document.body.dataset.stream === 'live' && document.querySelector('.request button.choice')`)

	release := sqlitetest.HoldWriteLock(t, s.db)
	clickChoice(p)
	line := `document.getElementById("refusal")`
	p.until("the wait told", line+`.innerText === "`+busyWait+`"`)
	if cls := eval[string](p, line+".className"); cls != "" {
		t.Errorf("the wait is told with the class %q; want it calm, not an error", cls)
	}
	if n := s.seatMoves(c, 0); n != 0 {
		t.Fatalf("%d moves stored while the file is locked; want none", n)
	}
	release()
	p.until("the move played", line+`.innerText.startsWith("You played: ")`)
	if n := s.seatMoves(c, 0); n != 1 {
		t.Errorf("%d moves of seat 1 stored; want 1", n)
	}
	oneKey(t, p, 2, true)
	if got := p.owes(); got != "" {
		t.Errorf("after the move, the page still shows a decision owed: %s", got)
	}
	p.noErrors()
}

func TestMoveIsGivenUpWhenTheDatabaseStaysLocked(t *testing.T) {
	// While the file stays locked past the page's patience, the page
	// stops trying and says so, as an error: the move was not played,
	// to play it again. Played again once the file is free, it is sent
	// with the same key, and made once.
	s := newSiteBusy(t, server.Limits{}, 50*time.Millisecond)
	b := newBrowser(t)
	c := s.create(map[string]any{"game": "reaj", "seats": people(2), "options": map[string]any{"turns": 4}, "judge": true})
	p := b.open("seat 1", c.Seats[0].URL, phoneW, phoneH)
	p.until("the page", `document.body.dataset.stream === 'live' && document.querySelector('.request button.choice')`)

	release := sqlitetest.HoldWriteLock(t, s.db)
	clickChoice(p)
	line := `document.getElementById("refusal")`
	p.until("the wait told", line+`.innerText === "`+busyWait+`"`)
	p.until("the page to give up", line+`.innerText.startsWith("`+busyGaveUp+`")`)
	if cls := eval[string](p, line+".className"); cls != "error" {
		t.Errorf("the move given up is told with the class %q; want an error", cls)
	}
	oneKey(t, p, triesMost, false)
	if n := s.seatMoves(c, 0); n != 0 {
		t.Fatalf("%d moves stored while the file is locked; want none", n)
	}
	if got := p.owes(); got != "turn" {
		t.Errorf("the move given up, the page shows %q owed; want the turn still to play", got)
	}
	release()
	clickChoice(p)
	p.until("the move played", line+`.innerText.startsWith("You played: ")`)
	if n := s.seatMoves(c, 0); n != 1 {
		t.Errorf("%d moves of seat 1 stored; want 1", n)
	}
	oneKey(t, p, triesMost+1, false)
	p.noErrors()
}

func TestRecordSentWhileTheServerHoldsItsMostIsSentAgain(t *testing.T) {
	// A record file opened in the viewer while the server holds its most
	// of records sent to be viewed was refused 503 too-many-uploads,
	// told as an error: the person had to open it again. The page says
	// the server is busy and sends it again after the wait asked for;
	// once the other sender's bytes are let go, the viewer shows it.
	s := newSiteWith(t, server.Limits{UploadBytes: 100 << 10, BodyTime: 10 * time.Minute})
	b := newBrowser(t)
	rec := record(t, "reaj", []string{"adapt", "fixed"}, map[string]string{"turns": "3"})
	padded := append(append([]byte{}, rec...), bytes.Repeat([]byte("\n"), 60<<10-len(rec))...)
	file := filepath.Join(t.TempDir(), "match.jsonl")
	if err := os.WriteFile(file, padded, 0o644); err != nil {
		t.Fatal(err)
	}
	// Another sender of a record of 50 KiB sends 100 bytes of it, and
	// waits: the server holds 50 KiB for it, and a record of 60 KiB
	// would pass its bound.
	conn, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1/replay HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n\r\n%s", s.addr, 50<<10, padded[:100])
	for try := 0; ; try++ {
		resp, err := http.Post(s.URL()+"/api/v1/replay", "application/x-ndjson", bytes.NewReader(padded))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusServiceUnavailable {
			break // the other's bytes are held
		}
		if try == 600 {
			t.Fatalf("the other sender's bytes never held: a record of 60 KiB is answered %d", resp.StatusCode)
		}
		time.Sleep(50 * time.Millisecond)
	}

	f := b.open("file", s.URL()+"/replay", desktopW, desktopH)
	f.until("the form", "document.body.dataset.ready")
	f.run(setFile("#file", file))
	f.clickText("#open-form", "Open")
	said := `document.getElementById("open-error")`
	f.until("the wait told", said+`.innerText === "`+uploadWaited+`"`)
	if cls := eval[string](f, said+".className"); cls != "" {
		t.Errorf("the wait is told with the class %q; want it calm, not an error", cls)
	}
	conn.Close() // the other sender goes away: its bytes are let go
	f.until("the viewer", `!document.getElementById("viewer").hidden`)
	if got := eval[string](f, said+".innerText"); got != "" {
		t.Errorf("the viewer shown, the page still says %q", got)
	}
	sent := 0
	for _, r := range f.requests() {
		if strings.HasSuffix(r.url, "/api/v1/replay") {
			sent++
		}
	}
	if sent < 2 {
		t.Errorf("the record was sent %d times; want it sent again after the wait", sent)
	}
	f.noErrors()
}

func TestMatchStartedWhileTheDatabaseIsUnreachableIsNotSentAgain(t *testing.T) {
	// A match started from the home page while the server could not write
	// its database was sent again after the wait, without an
	// Idempotency-Key, which a creation does not take: a database that
	// stored it as it went away, its answer lost, then held two matches.
	// The form sends it once, says the server may or may not have started
	// it, and a person who starts it again once the file is free starts
	// one.
	s := newSiteBusy(t, server.Limits{}, 50*time.Millisecond)
	b := newBrowser(t)
	home := b.open("home", s.URL()+"/", phoneW, phoneH)
	home.until("the form", "document.body.dataset.ready")
	home.choose("#game", "reaj")
	release := sqlitetest.HoldWriteLock(t, s.db)
	home.click("#start")
	said := `document.getElementById("create-error").innerText`
	home.until("the refusal told", said+`.startsWith("The server cannot reach its database for now, and may have started the match or not")`)
	creations := func() int {
		n := 0
		for _, r := range home.requests() {
			if strings.HasSuffix(r.url, "/api/v1/matches") && r.headers["Content-Type"] != nil {
				n++
			}
		}
		return n
	}
	time.Sleep(2500 * time.Millisecond) // past the wait the server asked for
	if n := creations(); n != 1 {
		t.Errorf("the creation was sent %d times; want once", n)
	}
	release()
	home.click("#start")
	home.until("the links", `document.body.dataset.created`)
	if got := eval[string](home, said); got != "" {
		t.Errorf("the match started, the form still says %q", got)
	}
	if n := creations(); n != 2 {
		t.Errorf("the creation was sent %d times in all; want twice, once a click", n)
	}
	home.noErrors()
}
