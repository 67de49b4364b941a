package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/pgtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}

// counter is a game for the store's tests whose every move must name the
// state it is made against: {"at": N} is legal only when N moves were
// made. Two moves applied against the same state cannot both be legal, so
// a log that replays shows that no two were.
type counter struct{ n int64 }

func (c *counter) Pending() []engine.Request[json.RawMessage] {
	return []engine.Request[json.RawMessage]{{ID: c.n, Seat: 0, Kind: "count", Default: json.RawMessage(fmt.Sprintf(`{"at":%d}`, c.n))}}
}

func (c *counter) Apply(seat int, move json.RawMessage) error {
	var m struct{ At int64 }
	if err := json.Unmarshal(move, &m); err != nil || m.At != c.n {
		return &engine.RuleError{Code: "stale", Msg: fmt.Sprintf("the count is %d, not %s", c.n, move)}
	}
	c.n++
	return nil
}

func (c *counter) Over() bool            { return false }
func (c *counter) Result() engine.Result { return engine.Result{} }
func (c *counter) Close()                {}

type counterRules struct{}

func (counterRules) Live(context.Context, *store.Match) (store.Live, error) { return &counter{}, nil }

// openPG opens a store on database u.
func openPG(t *testing.T, u string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), u, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func newMatch(t *testing.T, st *store.Store, id string) {
	t.Helper()
	m := &store.Match{ID: id, Game: "counter", Config: json.RawMessage(`{}`), Setup: engine.Setup{Players: []string{"person"}}}
	if err := st.Create(context.Background(), m, nil); err != nil {
		t.Fatal(err)
	}
}

func TestPostgresMigratesOnceForServersStartingTogether(t *testing.T) {
	// Servers started together on a new database: one makes the tables,
	// the others wait for it, and all open.
	u := pgtest.Shared(t).NewDatabase(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := store.Open(context.Background(), u, store.Options{})
			if err == nil {
				st.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("store %d: %v", i, err)
		}
	}
}

// announcements keeps what a referee announces, in order.
type announcements struct {
	mu   sync.Mutex
	seqs []int64
	more chan struct{}
}

func announce(r *store.Referee) *announcements {
	a := &announcements{more: make(chan struct{}, 1)}
	r.Committed = func(m *store.Match, _ store.Live, mv store.Move) {
		a.mu.Lock()
		if m.Seq != mv.Seq {
			panic(fmt.Sprintf("announced move %d with the match at %d", mv.Seq, m.Seq))
		}
		a.seqs = append(a.seqs, mv.Seq)
		a.mu.Unlock()
		select {
		case a.more <- struct{}{}:
		default:
		}
	}
	return a
}

// waitFor waits until the referee has announced move n.
func (a *announcements) waitFor(t *testing.T, n int64) []int64 {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		a.mu.Lock()
		got := append([]int64(nil), a.seqs...)
		a.mu.Unlock()
		if len(got) > 0 && got[len(got)-1] >= n {
			return got
		}
		select {
		case <-a.more:
		case <-deadline:
			t.Fatalf("after a minute, announced %v; want up to %d", got, n)
		}
	}
}

func TestPostgresTwoRefereesSerialiseMovesAndTellEachOther(t *testing.T) {
	// Two referees (two servers) on one database take moves to the same
	// match from many goroutines: the database serialises them (each
	// commits against the state it was made on, or is refused), the log is
	// dense, and each referee announces every move once, in order, those
	// of the other one included (LISTEN/NOTIFY).
	u := pgtest.Shared(t).NewDatabase(t)
	stores := []*store.Store{openPG(t, u), openPG(t, u)}
	newMatch(t, stores[0], "m1")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var refs []*store.Referee
	var heard []*announcements
	var listening sync.WaitGroup
	for _, st := range stores {
		r := store.NewReferee(st, counterRules{})
		heard = append(heard, announce(r))
		refs = append(refs, r)
		listening.Add(1)
		var once sync.Once
		go st.Listen(ctx, func(c store.Change) {
			switch c.Kind {
			case store.Resync:
				once.Do(listening.Done)
			case store.Moved:
				if err := r.Refresh(ctx, c.Match); err != nil && ctx.Err() == nil {
					t.Error(err)
				}
			}
		}, nil)
		// Hold the match, as a server with a stream open on it does.
		if err := r.With(ctx, "m1", func(*store.Match, store.Live) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	listening.Wait()

	const workers, each = 6, 25 // per referee
	var wg sync.WaitGroup
	var mu sync.Mutex
	acked := map[int64]int{}
	for w := 0; w < 2*workers; w++ {
		r := refs[w%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for done := 0; done < each; {
				var at int64
				r.With(ctx, "m1", func(m *store.Match, _ store.Live) error { at = m.Seq; return nil })
				ack, err := r.Submit(ctx, store.Submission{Match: "m1", Actor: 0, Request: -1, ExpectSeq: -1, Move: json.RawMessage(fmt.Sprintf(`{"at":%d}`, at))})
				var re *engine.RuleError
				switch {
				case err == nil:
					if ack.Seq != at+1 {
						t.Errorf("a move made at %d committed as move %d", at, ack.Seq)
					}
					mu.Lock()
					acked[ack.Seq]++
					mu.Unlock()
					done++
				case errors.As(err, &re), errors.Is(err, store.ErrMoved):
					// Made against a state another move changed first.
				default:
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	total := int64(2 * workers * each)
	for seq := int64(1); seq <= total; seq++ {
		if acked[seq] != 1 {
			t.Errorf("move %d acknowledged %d times", seq, acked[seq])
		}
	}
	moves, err := stores[0].Moves(ctx, "m1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(moves)) != total {
		t.Fatalf("%d moves in the log; want %d", len(moves), total)
	}
	replay := &counter{}
	for i, mv := range moves {
		if mv.Seq != int64(i+1) {
			t.Fatalf("the log's move %d is numbered %d", i+1, mv.Seq)
		}
		if err := replay.Apply(mv.Actor, mv.Move); err != nil {
			t.Fatalf("move %d does not replay: %v", mv.Seq, err)
		}
	}
	for i, a := range heard {
		got := a.waitFor(t, total)
		for k, seq := range got {
			if seq != int64(k+1) {
				t.Fatalf("referee %d announced %v: not every move once, in order", i, got)
			}
		}
	}
}

func TestPostgresChangesAreToldOnlyWhenCommitted(t *testing.T) {
	// A move refused in a group (its savepoint undone) is not told; the
	// others are; and so are a change of settings, an end and a new
	// secret.
	u := pgtest.Shared(t).NewDatabase(t)
	st := openPG(t, u)
	newMatch(t, st, "a")
	newMatch(t, st, "b")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changes := make(chan store.Change, 100)
	go st.Listen(ctx, func(c store.Change) { changes <- c }, nil)
	if c := <-changes; c.Kind != store.Resync {
		t.Fatalf("the first change told is %+v; want a resync", c)
	}
	mv := func(seq int64) store.Move {
		return store.Move{Seq: seq, Actor: 0, Request: -1, Move: json.RawMessage(`{}`)}
	}
	errs := st.Commit(ctx, []*store.Append{
		{Match: "b", Move: mv(1), Status: store.Running},
		{Match: "a", Move: mv(2), Status: store.Running}, // not the next move: refused
		{Match: "a", Move: mv(1), Status: store.Running},
	})
	if errs[0] != nil || !errors.Is(errs[1], store.ErrMoved) || errs[2] != nil {
		t.Fatalf("commit: %v", errs)
	}
	if err := st.SetConfig(ctx, "a", json.RawMessage(`{"x":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := st.Reissue(ctx, store.Secret{Hash: "h", Match: "b", Role: store.JudgeRole, Seat: -1}); err != nil {
		t.Fatal(err)
	}
	if err := st.End(ctx, "b", store.Aborted, nil); err != nil {
		t.Fatal(err)
	}
	var got []string
	for len(got) < 5 {
		select {
		case c := <-changes:
			got = append(got, fmt.Sprintf("%c %d %s", c.Kind, c.Seq, c.Match))
		case <-time.After(time.Minute):
			t.Fatalf("after a minute, told %v", got)
		}
	}
	// A group's moves commit in the order of their matches.
	want := []string{"m 1 a", "m 1 b", "u 0 a", "s 0 b", "u 0 b"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("told %v; want %v", got, want)
	}
}

func TestPostgresPasswordNeverShown(t *testing.T) {
	// The password of a database URL shows nowhere: not in Target, not in
	// the refusal of a wrong one.
	c := pgtest.Shared(t)
	u := c.NewDatabase(t)
	name := u[strings.LastIndex(u, "/")+1 : strings.Index(u, "?")]
	good := c.PasswordURL(name)
	st := openPG(t, good)
	if strings.Contains(st.Target(), c.Password) || !strings.Contains(st.Target(), pgtest.Secretive+":xxxxx@") {
		t.Errorf("Target %q", st.Target())
	}
	wrong := strings.Replace(good, c.Password, "Wr0ngPassw0rd", 1)
	_, err := store.Open(context.Background(), wrong, store.Options{})
	if err == nil || strings.Contains(err.Error(), "Wr0ngPassw0rd") {
		t.Errorf("a wrong password: %v", err)
	}
	bad := "postgres://user:S3cretPart@127.0.0.1/db%zz"
	_, err = store.Open(context.Background(), bad, store.Options{})
	if err == nil || strings.Contains(err.Error(), "S3cretPart") {
		t.Errorf("a URL that does not parse: %v", err)
	}
	query := fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable&password=Wr0ngPassw0rd", pgtest.Secretive, c.Port(), name)
	_, err = store.Open(context.Background(), query, store.Options{})
	if err == nil || strings.Contains(err.Error(), "Wr0ngPassw0rd") {
		t.Errorf("a wrong password in the query: %v", err)
	}
}

// BenchmarkRefereeMoves measures moves validated, committed and
// acknowledged per second by one referee, from many matches at once (each
// with one player sending one move after another), on SQLite and on
// PostgreSQL (its cluster with fsync on when ARBITER_PG_FSYNC=1).
func BenchmarkRefereeMoves(b *testing.B) {
	for _, db := range []string{"sqlite", "postgres"} {
		b.Run(db, func(b *testing.B) {
			target := b.TempDir() + "/bench.db"
			if db == "postgres" {
				target = pgtest.Shared(b).NewDatabase(b)
			}
			st, err := store.Open(context.Background(), target, store.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			const matches = 256
			for i := 0; i < matches; i++ {
				m := &store.Match{ID: fmt.Sprint("m", i), Game: "counter", Config: json.RawMessage(`{}`), Setup: engine.Setup{Players: []string{"person"}}}
				if err := st.Create(context.Background(), m, nil); err != nil {
					b.Fatal(err)
				}
			}
			ref := store.NewReferee(st, counterRules{})
			var next atomic.Int64
			b.SetParallelism(matches / runtime.GOMAXPROCS(0))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				id := fmt.Sprint("m", next.Add(1)-1)
				var at int64
				for pb.Next() {
					move := json.RawMessage(`{"at":` + strconv.FormatInt(at, 10) + `}`)
					if _, err := ref.Submit(context.Background(), store.Submission{Match: id, Actor: 0, Request: -1, ExpectSeq: -1, Move: move}); err != nil {
						b.Error(err)
						return
					}
					at++
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}

func TestPostgresListenerComesBack(t *testing.T) {
	// The listener's connection is cut (its backend terminated): it
	// connects again, says so with a resync (changes made meanwhile were
	// not told), and tells the changes after.
	c := pgtest.Shared(t)
	u := c.NewDatabase(t)
	st := openPG(t, u)
	newMatch(t, st, "a")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changes := make(chan store.Change, 100)
	lost := make(chan error, 10)
	go st.Listen(ctx, func(c store.Change) { changes <- c }, func(err error) { lost <- err })
	next := func() store.Change {
		select {
		case ch := <-changes:
			return ch
		case <-time.After(time.Minute):
			t.Fatal("nothing told for a minute")
		}
		return store.Change{}
	}
	if ch := next(); ch.Kind != store.Resync {
		t.Fatalf("first told %+v", ch)
	}
	name := u[strings.LastIndex(u, "/")+1 : strings.Index(u, "?")]
	if err := c.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"+name+"' AND query LIKE 'LISTEN%'"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-lost:
	case <-time.After(time.Minute):
		t.Fatal("the cut was not noticed")
	}
	if ch := next(); ch.Kind != store.Resync {
		t.Fatalf("after the cut, told %+v; want a resync", ch)
	}
	if err := st.SetConfig(ctx, "a", json.RawMessage(`{"after":"the cut"}`)); err != nil {
		t.Fatal(err)
	}
	if ch := next(); ch.Kind != store.Updated || ch.Match != "a" {
		t.Errorf("told %+v; want the change of a", ch)
	}
}

func TestAPasswordWrittenUnescapedIsNeverShown(t *testing.T) {
	// A password with /, ? or # written as it is (not %XX) makes a URL
	// that parses, with a piece of the password as its host, path or
	// query: it is refused before any connection, and no piece of it
	// shows in the refusal. No database is needed.
	pieces := []string{"Alpha7", "Bravo8", "Charl9", "Delta0", "Echo11"}
	for _, u := range []string{
		"postgres://user:Alpha7@Bravo8/Charl9:Delta0?Echo11@127.0.0.1:1/db",
		"postgres://user:Alpha7/Bravo8?Charl9@127.0.0.1:1/db?sslmode=disable",
		"postgresql://user:Alpha7#Bravo8@127.0.0.1:1/db",
		"postgres://user:123/Alpha7@127.0.0.1:1/db",
	} {
		_, err := store.Open(context.Background(), u, store.Options{})
		if err == nil {
			t.Fatalf("%s: opened", u)
		}
		for _, p := range pieces {
			if strings.Contains(err.Error(), p) {
				t.Errorf("%s: the refusal shows %s: %v", u, p, err)
			}
		}
		if !strings.Contains(err.Error(), "user:xxxxx@127.0.0.1:1/db") || !strings.Contains(err.Error(), "%XX escapes") {
			t.Errorf("%s: the refusal does not say where the password is or how to write it: %v", u, err)
		}
	}
}

func TestAnAtInAQueryIsToldToBeEscaped(t *testing.T) {
	// An @ in a URL's query (a user of the form name@server) is read as
	// the end of a password that has a / in it: the refusal says to
	// escape the @ as well, and shows nothing of the query after it,
	// which may carry the password. No database is needed.
	_, err := store.Open(context.Background(), "postgres://127.0.0.1:1/db?user=ann@server&password=Alpha7", store.Options{})
	if err == nil || !strings.Contains(err.Error(), "@ %40") || !strings.Contains(err.Error(), "?user=name@server") || strings.Contains(err.Error(), "Alpha7") {
		t.Errorf("an @ in the query: %v", err)
	}
}

func TestAKeywordConnectionStringIsNoFile(t *testing.T) {
	// libpq's connection string of keywords is refused, not taken for an
	// SQLite file's name (made with the password in it), and the
	// password is not repeated.
	dir := t.TempDir()
	t.Chdir(dir)
	for _, target := range []string{
		"host=127.0.0.1 port=1 user=arbiter password=Alpha7Bravo8 dbname=arbiter",
		"dbname=arbiter password=Alpha7Bravo8",
		// A value in quotes may hold a space.
		"host=127.0.0.1 password='Alpha7Bravo8 and more' dbname=arbiter",
	} {
		_, err := store.Open(context.Background(), target, store.Options{})
		if err == nil || strings.Contains(err.Error(), "Alpha7Bravo8") || !strings.Contains(err.Error(), "postgres://") {
			t.Errorf("%q: %v", target, err)
		}
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("files made: %v", files)
	}
	// A file whose name has an = in it is still a file.
	st, err := store.Open(context.Background(), "club=chess.db", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
}
