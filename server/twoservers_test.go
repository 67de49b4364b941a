package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store/pgtest"
)

// Two servers on one PostgreSQL database serve the same matches.

// twoServers starts two servers on one new PostgreSQL database.
func twoServers(t *testing.T, cfg server.Config) (a, b *testServer) {
	t.Helper()
	db := postgresOnly(t).NewDatabase(t)
	return startServer(t, db, cfg), startServer(t, db, cfg)
}

// collect gathers a stream's events until its "end".
func collect(t *testing.T, events <-chan event) []event {
	t.Helper()
	var out []event
	timeout := time.After(2 * time.Minute)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatalf("the stream closed without an end, after %d events", len(out))
			}
			if ev.name == "end" {
				return out
			}
			out = append(out, ev)
		case <-timeout:
			t.Fatalf("no end after 2 minutes, after %d events", len(out))
		}
	}
}

// sameEvents checks that a stream's events are those of the same reader's
// stream afresh, byte for byte.
func sameEvents(t *testing.T, name string, got, afresh []event) {
	t.Helper()
	if len(got) != len(afresh) {
		t.Errorf("%s: %d events; afresh %d", name, len(got), len(afresh))
	}
	for i := range min(len(got), len(afresh)) {
		if got[i] != afresh[i] {
			t.Errorf("%s: event %d is %s %s; afresh %s %s", name, i+1, got[i].name, got[i].id, afresh[i].name, afresh[i].id)
			return
		}
	}
	if len(afresh) == 0 {
		t.Errorf("%s: no events", name)
	}
}

func TestTwoServersStreamsSeeMovesThroughEither(t *testing.T) {
	// "A move through either is seen by streams on both": two people
	// play through both servers; a spectator's stream on each
	// server and each seat's on the other's server get every move once,
	// in order, the spectators' alike byte for byte.
	a, b := twoServers(t, server.Config{})
	c := a.create(map[string]any{"game": "reaj", "seats": people(2), "options": map[string]any{"turns": 6}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	streams := map[string]<-chan event{
		"spectator on A": a.follow(ctx, c.ID, "", 0),
		"spectator on B": b.follow(ctx, c.ID, "", 0),
		"seat 0 on B":    b.follow(ctx, c.ID, c.Seats[0].Secret, 0),
		"seat 1 on A":    a.follow(ctx, c.ID, c.Seats[1].Secret, 0),
	}
	// Each seat reads its requests through one server and answers
	// through the other at once: an answer is refused only if the match
	// as stored refuses it, never because the server it reaches has not
	// yet heard of the request.
	// (A server that has not yet heard of a seat's own last move, made
	// through the other, still shows its request: the seat knows it has
	// answered it.)
	through := []*testServer{a, b}
	answered := map[int64]bool{}
	for {
		moved := false
		for seat, srv := range through {
			m := through[1-seat].state(c.ID, c.Seats[seat].Secret)
			for _, q := range m.Requests {
				if answered[q.ID] {
					continue
				}
				answered[q.ID] = true
				ans := srv.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[seat].Secret, map[string]any{"request": q.ID, "move": q.Default})
				if ans.status != http.StatusOK {
					t.Fatalf("seat %d's move: %d %s", seat, ans.status, ans.body)
				}
				moved = true
			}
		}
		if !moved {
			// A server learns of the other's moves a moment after
			// they commit.
			if m := b.state(c.ID, ""); m.Status != "running" {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	got := map[string][]event{}
	for name, ch := range streams {
		got[name] = collect(t, ch)
	}
	// Each stream is what its reader, following from the start once the
	// match is over, gets from either server: every move it may see,
	// once, in order (a move that leaves its round open is told only to
	// its mover).
	secrets := map[string]string{"spectator on A": "", "spectator on B": "", "seat 0 on B": c.Seats[0].Secret, "seat 1 on A": c.Seats[1].Secret}
	for name, evs := range got {
		for _, srv := range through {
			sameEvents(t, name, evs, collect(t, srv.follow(ctx, c.ID, secrets[name], 0)))
		}
	}
	for i := range got["spectator on A"] {
		if i < len(got["spectator on B"]) && got["spectator on A"][i].data != got["spectator on B"][i].data {
			t.Fatalf("move %d: the spectators' events differ:\nA %s\nB %s", i+1, got["spectator on A"][i].data, got["spectator on B"][i].data)
		}
	}
	// A seat's stream on one server is its stream on the other.
	again := collect(t, a.follow(ctx, c.ID, c.Seats[0].Secret, 0))
	for i := range again {
		if i < len(got["seat 0 on B"]) && again[i].data != got["seat 0 on B"][i].data {
			t.Fatalf("move %d: seat 0's events differ between the servers:\nA %s\nB %s", i+1, again[i].data, got["seat 0 on B"][i].data)
		}
	}
}

func TestTwoServersSerialiseConcurrentMoves(t *testing.T) {
	// "Two concurrent moves to one match are serialised by the database,
	// never both applied against the same state": territories' referee
	// takes many moves at once through both servers. Of ten joins to one
	// territory, one succeeds; of ten raises of a territory with room for
	// two more armies, two; of sixty colour changes, each sent twice with
	// its Idempotency-Key (through each server), every one once. The log
	// is dense and replays.
	a, b := twoServers(t, server.Config{Limits: server.Limits{Moves: 1e6, MoveBurst: 1e6}})
	c := a.create(map[string]any{"game": "territories", "seats": []map[string]any{}})
	judge := c.Judge.Secret
	path := "/api/v1/matches/" + c.ID + "/moves"
	servers := []*testServer{a, b}
	if ans := a.call("POST", path, judge, map[string]any{"move": map[string]any{"player": "alice", "action": "join Pacifica CA"}}); ans.status != 200 {
		t.Fatalf("join: %d %s", ans.status, ans.body)
	}
	var mu sync.Mutex
	bySeq := map[float64]string{}  // who each acknowledged move is
	keySeq := map[string]float64{} // the move each key's answers name
	ok := map[string]int{}
	var wg sync.WaitGroup
	send := func(kind string, srv *testServer, move map[string]any, key string) {
		defer wg.Done()
		var header []string
		label := fmt.Sprint(kind, move)
		if key != "" {
			header, label = []string{"Idempotency-Key", key}, key
		}
		ans := srv.call("POST", path, judge, map[string]any{"move": move}, header...)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case ans.status == 200:
			seq, _ := ans.json["seq"].(float64)
			if prev, seen := bySeq[seq]; seen && prev != label {
				t.Errorf("move %v acknowledged to %s and to %s", seq, prev, label)
			}
			bySeq[seq] = label
			if key != "" {
				if prev, seen := keySeq[key]; seen && prev != seq {
					t.Errorf("key %s answered with moves %v and %v", key, prev, seq)
				}
				keySeq[key] = seq
			}
			if ans.json["repeat"] != true {
				ok[kind]++
			}
		case ans.status == 422 && kind != "color":
		default:
			t.Errorf("%s: %d %s", kind, ans.status, ans.body)
		}
	}
	for i := 0; i < 10; i++ {
		wg.Add(2)
		go send("join", servers[i%2], map[string]any{"player": fmt.Sprintf("p%d", i), "action": fmt.Sprintf("join N%d UT", i)}, "")
		go send("raise", servers[(i+1)%2], map[string]any{"player": "alice", "action": "raise CA"}, "")
	}
	for i := 0; i < 60; i++ {
		move := map[string]any{"player": "alice", "action": fmt.Sprintf("color #%06x", 0x100000+i)}
		key := fmt.Sprintf("colour-%d", i)
		wg.Add(2)
		go send("color", servers[i%2], move, key)
		go send("color", servers[(i+1)%2], move, key)
	}
	wg.Wait()
	if ok["join"] != 1 || ok["raise"] != 2 || ok["color"] != 60 {
		t.Errorf("moves applied: %v; want 1 join, 2 raises and 60 colours", ok)
	}
	m := b.state(c.ID, judge)
	if want := int64(1 + 1 + 2 + 60); m.Seq != want || int64(len(bySeq)) != want-1 {
		t.Errorf("the match is at move %d, %d moves acknowledged; want %d", m.Seq, len(bySeq), want)
	}
	rec := a.call("GET", "/api/v1/matches/"+c.ID+"/record", judge, nil)
	g, _ := catalog.Find("territories")
	if got, err := g.Replay(rec.body); err != nil || int64(got.Moves) != m.Seq {
		t.Errorf("the record does not replay: %+v %v", got, err)
	}
	if n := bytes.Count(rec.body, []byte(`"raise CA"`)); n != 2 {
		t.Errorf("%d raises in the record; want 2", n)
	}
}

func TestTwoServersShareResignAbortAndReissue(t *testing.T) {
	// What one server changes of a match other than by a move reaches the
	// other: a secret issued again stops working on both, and the streams
	// opened with it on either close; a seat that
	// resigns through one has its moves played by the other, which drives
	// the match; an abort through one ends the other's streams.
	a, b := twoServers(t, server.Config{})
	c := a.create(map[string]any{"game": "reaj", "seats": people(2), "options": map[string]any{"turns": 3}, "judge": true})
	path := "/api/v1/matches/" + c.ID
	old := c.Seats[1].Secret
	if st := b.call("GET", path, old, nil).status; st != 200 {
		t.Fatalf("seat 1 on B: %d", st)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	oldEvents := b.follow(ctx, c.ID, old, -1)
	if ev := <-oldEvents; ev.name != "move" {
		t.Fatalf("seat 1's stream on B starts with %+v", ev)
	}
	re := a.call("POST", path+"/seats/1/reissue", c.Judge.Secret, nil)
	fresh, _ := re.json["secret"].(string)
	if re.status != 200 || fresh == "" {
		t.Fatalf("reissue: %d %s", re.status, re.body)
	}
	waitFor(t, "the old secret refused by B", func() bool { return b.call("GET", path, old, nil).status == http.StatusUnauthorized })
	for closed := false; !closed; {
		select {
		case ev, ok := <-oldEvents:
			if ok && ev.name != "revoked" {
				t.Errorf("seat 1's old stream on B, after the reissue on A: %+v; want revoked", ev)
			}
			closed = !ok
		case <-time.After(time.Minute):
			t.Fatal("seat 1's stream on B, opened with the old secret, is still open after its reissue on A")
		}
	}
	if st := b.call("GET", path, fresh, nil).status; st != 200 {
		t.Errorf("the new secret on B: %d", st)
	}

	// Seat 0 resigns through B; A drives the match and plays its moves.
	if ans := b.call("POST", path+"/resign", c.Seats[0].Secret, nil); ans.status != 200 {
		t.Fatalf("resign: %d %s", ans.status, ans.body)
	}
	for i := 0; i < 2; i++ {
		m := b.waitState(c.ID, fresh, func(m matchState) bool { return len(m.Requests) > 0 || m.Status != "running" })
		if m.Status != "running" {
			t.Fatalf("the match ended at turn %d", i)
		}
		if ans := b.call("POST", path+"/moves", fresh, map[string]any{"request": m.Requests[0].ID, "move": m.Requests[0].Default}); ans.status != 200 {
			t.Fatalf("seat 1's move: %d %s", ans.status, ans.body)
		}
		b.waitState(c.ID, fresh, func(n matchState) bool { return n.Seq >= m.Seq+2 })
	}
	// The judge aborts through B; a stream on A ends.
	events := a.follow(ctx, c.ID, "", -1)
	if ev := <-events; ev.name != "move" {
		t.Fatalf("the stream starts with %+v", ev)
	}
	if ans := b.call("POST", path+"/abort", c.Judge.Secret, nil); ans.status != 200 {
		t.Fatalf("abort: %d %s", ans.status, ans.body)
	}
	for ended := false; !ended; {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatal("the stream on A closed without its end")
			}
			ended = ev.name == "end"
		case <-time.After(time.Minute):
			t.Fatal("the stream on A was not told of the abort")
		}
	}
	if m := a.state(c.ID, ""); m.Status != "aborted" {
		t.Errorf("A shows the match %s", m.Status)
	}
}

func TestTwoServersHandOverDriving(t *testing.T) {
	// The server that drives a match (its lease) shuts down: the other
	// takes the lease and plays its bots.
	cfg := server.Config{LeaseFor: 300 * time.Millisecond}
	a, b := twoServers(t, cfg)
	c := a.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}, "options": map[string]any{"turns": 3}})
	seat := c.Seats[0].Secret
	a.stop()
	for turn := 0; ; turn++ {
		m := b.waitState(c.ID, seat, func(m matchState) bool { return len(m.Requests) > 0 || m.Status != "running" })
		if m.Status != "running" {
			if turn != 3 {
				t.Errorf("the match ended after %d turns", turn)
			}
			break
		}
		if ans := b.call("POST", "/api/v1/matches/"+c.ID+"/moves", seat, map[string]any{"request": m.Requests[0].ID, "move": m.Requests[0].Default}); ans.status != 200 {
			t.Fatalf("move: %d %s", ans.status, ans.body)
		}
	}
}

// waitFor polls cond until it holds, for at most a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after a minute: not %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestTwoServersArchiveAMatchOnce(t *testing.T) {
	// Matches over and untouched are archived by one server, the one that
	// takes the match's lease: one record, not one per server.
	db := postgresOnly(t).NewDatabase(t)
	first := startServer(t, db, server.Config{})
	c := first.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}, "options": map[string]any{"turns": 2}})
	first.playDefaults(c)
	first.stop()
	dirs := []string{t.TempDir(), t.TempDir()}
	var servers []*testServer
	for _, dir := range dirs {
		servers = append(servers, startServer(t, db, server.Config{Keep: time.Millisecond, ArchiveDir: dir, LeaseFor: 2 * time.Second}))
	}
	waitFor(t, "the match archived", func() bool {
		return servers[0].call("GET", "/api/v1/matches/"+c.ID, "", nil).status == http.StatusNotFound
	})
	var records [][]byte
	for _, dir := range dirs {
		if b, err := os.ReadFile(filepath.Join(dir, c.ID+".jsonl")); err == nil {
			records = append(records, b)
		}
	}
	if len(records) != 1 {
		t.Fatalf("%d records of the match archived; want 1", len(records))
	}
	g, _ := catalog.Find("reaj")
	if _, err := g.Replay(records[0]); err != nil {
		t.Errorf("the archived record does not replay: %v", err)
	}
}

func TestTwoServersLoseNoResignation(t *testing.T) {
	// Six seats resign at once, through both servers: a server that has
	// not yet heard of another's resignations does not overwrite them.
	a, b := twoServers(t, server.Config{})
	c := a.create(map[string]any{"game": "ajveciv", "seats": people(6), "options": map[string]any{"turns": 5}})
	servers := []*testServer{a, b}
	var wg sync.WaitGroup
	for seat := range c.Seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ans := servers[seat%2].call("POST", "/api/v1/matches/"+c.ID+"/resign", c.Seats[seat].Secret, nil); ans.status != 200 && ans.code() != "over" {
				t.Errorf("seat %d resigns: %d %s", seat, ans.status, ans.body)
			}
		}()
	}
	wg.Wait()
	var record struct{ Seats []struct{ Resigned bool } }
	for _, srv := range servers {
		waitFor(t, "every seat shown resigned", func() bool {
			ans := srv.call("GET", "/api/v1/matches/"+c.ID, "", nil)
			if json.Unmarshal(ans.body, &record) != nil {
				return false
			}
			n := 0
			for _, s := range record.Seats {
				if s.Resigned {
					n++
				}
			}
			return n == 6
		})
	}
}

// BenchmarkMovesThroughTwoServers measures moves acknowledged per second
// over HTTP by two servers on one PostgreSQL database: 64 territories
// matches at once, each with one client sending its judge's moves through
// one server (sticky) or through each in turn (alternating: each move
// reaches a server that has to read the other's last move first).
func BenchmarkMovesThroughTwoServers(b *testing.B) {
	if !onPostgres {
		b.Skip("a benchmark of two servers on PostgreSQL: it runs in the PostgreSQL pass")
	}
	for _, alternate := range []bool{false, true} {
		name := "sticky"
		if alternate {
			name = "alternating"
		}
		b.Run(name, func(b *testing.B) {
			db := pgtest.Shared(b).NewDatabase(b)
			cfg := server.Config{Limits: server.Limits{Moves: 1e9, MoveBurst: 1 << 30, Creates: 1e9}}
			servers := []*benchServer{newBenchServer(b, db, cfg), newBenchServer(b, db, cfg)}
			const matches = 64
			type match struct{ id, judge string }
			var ms []match
			for i := 0; i < matches; i++ {
				id, judge := servers[0].createTerritories(b)
				ms = append(ms, match{id, judge})
			}
			var next atomic.Int64
			b.SetParallelism(matches / runtime.GOMAXPROCS(0))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				k := int(next.Add(1) - 1)
				m := ms[k]
				for i := 0; pb.Next(); i++ {
					srv := servers[k%2]
					if alternate {
						srv = servers[(k+i)%2]
					}
					body := fmt.Sprintf(`{"move":{"player":"alice","action":"color #%06x"}}`, 0x100000+i%0xe0000)
					if err := srv.post("/api/v1/matches/"+m.id+"/moves", m.judge, body); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}
