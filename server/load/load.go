// Package load plays many live matches at once against an arbiter server
// over loopback, each seat a client that follows its own event stream and
// answers its requests through the API, and measures what the server
// sustains: moves acknowledged per second, the latency of a move, memory.
package load

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config is a load to play.
type Config struct {
	// URL is the server, on a loopback address.
	URL string
	// Game, Matches and Seats: Matches matches of Game, each of Seats
	// people.
	Game    string
	Matches int
	Seats   int
	// Options are the matches' options (turns: many, so that none ends).
	Options map[string]any
	// Duration is how long moves are measured, after every match has been
	// made and every stream opened.
	Duration time.Duration
	// Rate is the moves a second the clients offer in all: each client
	// moves once every Seats×Matches/Rate (its period), at a phase of its
	// own within it, answering the request it has then; a client that
	// falls behind moves at once until it has caught up. Zero answers at
	// once: the clients then offer what the server can take, and a move's
	// latency is the queue before it.
	Rate float64
	// CreateSecret is the server's creation secret, if it has one.
	CreateSecret string
	// Progress, if not nil, is told what is happening.
	Progress func(string)
	// ServerCPU, if not nil, tells the processor time the server has used
	// so far, to measure what it uses while the moves are measured.
	ServerCPU func() time.Duration
}

// Result is what a load measured.
type Result struct {
	Matches, Seats int
	// Moves is the moves acknowledged while measuring, in Elapsed.
	Moves   int64
	Elapsed time.Duration
	// P50 and P99 are the latencies of an acknowledged move: from sending
	// it to its answer.
	P50, P99, Max time.Duration
	// Errors counts failed calls and refusals other than a stale request.
	Errors int64
	// FirstError is the first of them.
	FirstError string
	// ClientCPU is the processor time the clients (this process) used
	// while measured, and ServerCPU the server's, if Config.ServerCPU.
	ClientCPU, ServerCPU time.Duration
}

// Share is the share of a machine of runtime.NumCPU() processors that cpu
// of processor time in the measured time is.
func (r Result) Share(cpu time.Duration) float64 {
	return cpu.Seconds() / r.Elapsed.Seconds() / float64(runtime.NumCPU())
}

// MovesPerSecond is the moves acknowledged per second.
func (r Result) MovesPerSecond() float64 { return float64(r.Moves) / r.Elapsed.Seconds() }

// Run plays the load. It refuses a server that is not on a loopback
// address.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if err := Loopback(cfg.URL); err != nil {
		return Result{}, err
	}
	base := strings.TrimRight(cfg.URL, "/") + "/api/v1"
	l := &loader{cfg: cfg, base: base, begun: make(chan struct{}),
		streams: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: -1, DisableCompression: true}},
		calls: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxConnsPerHost: 512, MaxIdleConnsPerHost: 512,
			DisableCompression: true}},
	}
	say := func(format string, args ...any) {
		if cfg.Progress != nil {
			cfg.Progress(fmt.Sprintf(format, args...))
		}
	}
	say("making %d matches of %d seats", cfg.Matches, cfg.Seats)
	seats, err := l.create(ctx)
	if err != nil {
		return Result{}, err
	}
	say("opening %d event streams", len(seats))
	run, stop := context.WithCancel(ctx)
	defer stop()
	var opened sync.WaitGroup
	var wg sync.WaitGroup
	for _, s := range seats {
		opened.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.play(run, s, &opened, rand.New(rand.NewPCG(uint64(len(s.secret)), uint64(s.secret[0]))))
		}()
	}
	opened.Wait()
	say("measuring for %v", cfg.Duration)
	serverCPU := func() time.Duration { return 0 }
	if cfg.ServerCPU != nil {
		serverCPU = cfg.ServerCPU
	}
	server0, client0 := serverCPU(), processCPU()
	l.measuring.Store(true)
	start := time.Now()
	l.begin = start
	close(l.begun)
	select {
	case <-time.After(cfg.Duration):
	case <-ctx.Done():
	}
	l.measuring.Store(false)
	elapsed := time.Since(start)
	server1, client1 := serverCPU(), processCPU()
	stop()
	wg.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	r := Result{Matches: cfg.Matches, Seats: len(seats), Moves: int64(len(l.latencies)), Elapsed: elapsed, Errors: l.errors.Load(), FirstError: l.firstError,
		ClientCPU: client1 - client0, ServerCPU: server1 - server0}
	if len(l.latencies) > 0 {
		slices.Sort(l.latencies)
		r.P50 = l.latencies[len(l.latencies)/2]
		r.P99 = l.latencies[len(l.latencies)*99/100]
		r.Max = l.latencies[len(l.latencies)-1]
	}
	return r, ctx.Err()
}

// Loopback checks that target is the URL of a server on this machine: a
// load is played over loopback only.
func Loopback(target string) error {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("%q is not an http:// URL", target)
	}
	if ip := net.ParseIP(u.Hostname()); u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%s is not a loopback address: a load is played on this machine only", u.Host)
	}
	return nil
}

type loader struct {
	cfg            Config
	base           string
	streams, calls *http.Client
	measuring      atomic.Bool
	begin          time.Time     // when the clients start to move: set before begun is closed
	begun          chan struct{} // closed when every stream is open
	errors         atomic.Int64

	mu         sync.Mutex
	latencies  []time.Duration
	firstError string
}

// seat is one person's seat of a match.
type seat struct {
	match, secret string
}

// create makes the matches, and returns their seats.
func (l *loader) create(ctx context.Context) ([]seat, error) {
	var seats []seat
	people := make([]map[string]string, l.cfg.Seats)
	for i := range people {
		people[i] = map[string]string{"player": "person"}
	}
	body, _ := json.Marshal(map[string]any{"game": l.cfg.Game, "seats": people, "options": l.cfg.Options, "private": true})
	for range l.cfg.Matches {
		req, _ := http.NewRequestWithContext(ctx, "POST", l.base+"/matches", bytes.NewReader(body))
		if l.cfg.CreateSecret != "" {
			req.Header.Set("Authorization", "Bearer "+l.cfg.CreateSecret)
		}
		resp, err := l.calls.Do(req)
		if err != nil {
			return nil, err
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			return nil, fmt.Errorf("creating a match: %s %s", resp.Status, b)
		}
		var c struct {
			ID    string
			Seats []struct{ Secret string }
		}
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, err
		}
		for _, s := range c.Seats {
			seats = append(seats, seat{match: c.ID, secret: s.Secret})
		}
	}
	return seats, nil
}

// play follows one seat's stream and answers its requests until ctx ends.
// It reads every event and checks it (its id follows the last one's; its
// requests parse), but decodes only what it answers with, and allocates
// nothing for an event but what the HTTP client does.
func (l *loader) play(ctx context.Context, s seat, opened *sync.WaitGroup, rng *rand.Rand) {
	c := &client{l: l, seat: s, rng: rng, timer: time.NewTimer(time.Hour), last: -1,
		moves: l.base + "/matches/" + s.match + "/moves", auth: "Bearer " + s.secret}
	c.timer.Stop()
	if l.cfg.Rate > 0 {
		c.period = time.Duration(float64(l.cfg.Matches*l.cfg.Seats) / l.cfg.Rate * float64(time.Second))
	}
	once := sync.OnceFunc(opened.Done)
	defer once()
	defer l.keep(c)
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, "GET", l.base+"/matches/"+s.match+"/events", nil)
		req.Header.Set("Authorization", c.auth)
		if c.last >= 0 {
			req.Header.Set("Last-Event-ID", strconv.FormatInt(c.last, 10))
		}
		resp, err := l.streams.Do(req)
		if err != nil {
			if ctx.Err() == nil {
				l.fail(err.Error())
				c.sleep(ctx, 100*time.Millisecond)
			}
			continue
		}
		once()
		if !c.follow(ctx, resp.Body) {
			resp.Body.Close()
			return
		}
		resp.Body.Close()
	}
}

// client is one seat's player.
type client struct {
	l           *loader
	seat        seat
	rng         *rand.Rand
	moves, auth string // the URL of its moves, its Authorization
	period      time.Duration
	next        time.Time // when it moves next
	started     bool
	timer       *time.Timer
	last        int64   // the id of the last event
	answered    []int64 // the requests answered, of those open at the last event
	open        []int64
	body        []byte
	latencies   []time.Duration
}

// follow reads one connection of the stream until it ends; false when the
// client is to stop.
func (c *client) follow(ctx context.Context, stream io.Reader) bool {
	sc := bufio.NewScanner(stream)
	sc.Buffer(make([]byte, 0, 16<<10), 1<<22)
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case bytes.HasPrefix(line, []byte("id: ")):
			id, err := strconv.ParseInt(string(line[4:]), 10, 64) // no allocation: the conversion is the parser's
			if err != nil || id <= c.last {
				c.l.fail(fmt.Sprintf("event id %q after %d: an event repeated or out of order", line[4:], c.last))
				return ctx.Err() == nil
			}
			c.last = id
		case bytes.HasPrefix(line, []byte("data: ")):
			if !c.answer(ctx, line[6:]) {
				return false
			}
		}
	}
	return ctx.Err() == nil
}

// answer answers the requests of one event's data that it has not
// answered yet, each with its first choice or its default; false when the
// client is to stop.
func (c *client) answer(ctx context.Context, data []byte) bool {
	reqs, ok := requestsOf(data)
	if !ok {
		if bytes.HasPrefix(data, []byte(`{"id":`)) {
			c.l.fail(fmt.Sprintf("an event whose requests do not parse: %.200s", data))
		}
		return true // another event (end, shutdown): no requests
	}
	c.open = c.open[:0]
	if bytes.HasPrefix(reqs, []byte("[]")) {
		reqs = nil // none open
	}
	for len(reqs) > 0 {
		var id int64
		var move []byte
		id, move, reqs, ok = nextRequest(reqs)
		if !ok {
			c.l.fail(fmt.Sprintf("an event whose requests do not parse: %.200s", data))
			return true
		}
		c.open = append(c.open, id)
		if slices.Contains(c.answered, id) {
			continue
		}
		c.answered = append(c.answered, id)
		if !c.wait(ctx) {
			return false
		}
		c.move(ctx, id, move)
	}
	// Only the requests still open can be sent again.
	c.answered = slices.DeleteFunc(c.answered, func(id int64) bool { return !slices.Contains(c.open, id) })
	return true
}

// wait waits for the client's next turn to move; false when ctx ends.
func (c *client) wait(ctx context.Context) bool {
	if c.period <= 0 {
		return true
	}
	l := c.l
	if !c.started {
		// every client starts when all have their streams
		select {
		case <-l.begun:
		case <-ctx.Done():
			return false
		}
		c.next, c.started = l.begin.Add(time.Duration(c.rng.Int64N(int64(c.period)))), true
	}
	if wait := time.Until(c.next); wait > 0 && !c.sleep(ctx, wait) {
		return false
	}
	c.next = c.next.Add(c.period)
	if late := time.Since(c.next); late > c.period {
		c.next = time.Now() // too far behind to catch up
	}
	return true
}

// sleep waits d on the client's timer; false when ctx ends first.
func (c *client) sleep(ctx context.Context, d time.Duration) bool {
	c.timer.Reset(d)
	select {
	case <-c.timer.C:
		return true
	case <-ctx.Done():
		c.timer.Stop()
		return false
	}
}

// requestsOf returns the JSON of an event's requests, an array, and what
// follows it. They follow the view, which the clients, answering every
// request with its first choice, need not read.
func requestsOf(data []byte) ([]byte, bool) {
	const key = `,"requests":[`
	i := bytes.LastIndex(data, []byte(key))
	if i < 0 || data[len(data)-1] != '}' {
		return nil, false
	}
	return data[i+len(key)-1:], true
}

// nextRequest reads the first request of reqs (the rest of an array of
// requests, from its '[' or the ',' before the request, as the server
// writes it: no spaces): its id, and the
// move that answers it (its first choice, or its default). It returns
// what follows, empty after the array's end.
func nextRequest(reqs []byte) (id int64, move, rest []byte, ok bool) {
	i := 1 // past '[' or ','
	if i >= len(reqs) || reqs[i] != '{' {
		return 0, nil, nil, false
	}
	i++
	var def []byte
	hasID := false
	for i < len(reqs) && reqs[i] != '}' {
		if reqs[i] == ',' {
			i++
		}
		k := skipValue(reqs, i) // the key
		if k < 0 || k >= len(reqs) || reqs[k] != ':' {
			return 0, nil, nil, false
		}
		key := reqs[i:k]
		end := skipValue(reqs, k+1)
		if end < 0 {
			return 0, nil, nil, false
		}
		v := reqs[k+1 : end]
		switch string(key) {
		case `"id"`:
			n, err := strconv.ParseInt(string(v), 10, 64)
			if err != nil {
				return 0, nil, nil, false
			}
			id, hasID = n, true
		case `"choices"`:
			if len(v) > 2 && v[0] == '[' { // not null, not empty
				first := skipValue(v, 1)
				if first < 0 {
					return 0, nil, nil, false
				}
				move = v[1:first]
			}
		case `"default"`:
			def = v
		}
		i = end
	}
	if i >= len(reqs) || !hasID {
		return 0, nil, nil, false
	}
	if move == nil {
		move = def
	}
	rest = reqs[i+1:]
	if len(rest) > 0 && rest[0] == ']' {
		rest = nil
	}
	return id, move, rest, len(move) > 0
}

// skipValue returns where the JSON value that starts at b[i] ends, or -1
// if it does not: strings with their escapes, arrays and objects with
// what they hold, and numbers, true, false and null.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		for i++; i < len(b); i++ {
			switch b[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return -1
	case '[', '{':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				end := skipValue(b, i)
				if end < 0 {
					return -1
				}
				i = end - 1
			case '[', '{':
				depth++
			case ']', '}':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	start := i
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ':' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}

// move sends one move and notes its latency.
func (c *client) move(ctx context.Context, request int64, move []byte) {
	l := c.l
	c.body = append(strconv.AppendInt(append(c.body[:0], `{"request":`...), request, 10), `,"move":`...)
	c.body = append(append(c.body, move...), '}')
	req, _ := http.NewRequestWithContext(ctx, "POST", c.moves, bytes.NewReader(c.body))
	req.Header.Set("Authorization", c.auth)
	start := time.Now()
	resp, err := l.calls.Do(req)
	if err != nil {
		if ctx.Err() == nil && !errors.Is(err, context.Canceled) {
			l.fail(err.Error())
		}
		return
	}
	if resp.StatusCode == http.StatusOK {
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		took := time.Since(start)
		if err == nil && l.measuring.Load() {
			c.latencies = append(c.latencies, took)
		}
		return
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusConflict || !bytes.Contains(b, []byte("stale-request")) {
		l.fail(fmt.Sprintf("%s %s", resp.Status, b))
	}
}

// keep adds a client's latencies to the load's, when it stops.
func (l *loader) keep(c *client) {
	l.mu.Lock()
	l.latencies = append(l.latencies, c.latencies...)
	l.mu.Unlock()
}

func (l *loader) fail(msg string) {
	l.errors.Add(1)
	l.mu.Lock()
	if l.firstError == "" {
		l.firstError = msg
	}
	l.mu.Unlock()
}
