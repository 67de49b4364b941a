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
	stop()
	wg.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	r := Result{Matches: cfg.Matches, Seats: len(seats), Moves: int64(len(l.latencies)), Elapsed: elapsed, Errors: l.errors.Load(), FirstError: l.firstError}
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
func (l *loader) play(ctx context.Context, s seat, opened *sync.WaitGroup, rng *rand.Rand) {
	period := time.Duration(0)
	if l.cfg.Rate > 0 {
		period = time.Duration(float64(l.cfg.Matches*l.cfg.Seats) / l.cfg.Rate * float64(time.Second))
	}
	once := sync.OnceFunc(opened.Done)
	defer once()
	var next time.Time // when this client moves next
	started := false
	last := ""
	answered := map[int64]bool{}
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, "GET", l.base+"/matches/"+s.match+"/events", nil)
		req.Header.Set("Authorization", "Bearer "+s.secret)
		if last != "" {
			req.Header.Set("Last-Event-ID", last)
		}
		resp, err := l.streams.Do(req)
		if err != nil {
			if ctx.Err() == nil {
				l.fail(err.Error())
				time.Sleep(100 * time.Millisecond)
			}
			continue
		}
		once()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<22)
		for sc.Scan() {
			line := sc.Bytes()
			switch {
			case bytes.HasPrefix(line, []byte("id: ")):
				last = string(line[4:])
			case bytes.HasPrefix(line, []byte("data: ")):
				var requests []struct {
					ID      int64
					Choices []json.RawMessage
					Default json.RawMessage
				}
				if json.NewDecoder(bytes.NewReader(requestsOf(line[6:]))).Decode(&requests) != nil {
					continue
				}
				for _, q := range requests {
					if answered[q.ID] {
						continue
					}
					answered[q.ID] = true
					move := q.Default
					if len(q.Choices) > 0 {
						move = q.Choices[0]
					}
					if period > 0 {
						if !started {
							// every client starts when all have their streams
							select {
							case <-l.begun:
							case <-ctx.Done():
								return
							}
							next, started = l.begin.Add(time.Duration(rng.Int64N(int64(period)))), true
						}
						if wait := time.Until(next); wait > 0 {
							select {
							case <-time.After(wait):
							case <-ctx.Done():
								return
							}
						}
						next = next.Add(period)
						if late := time.Since(next); late > period {
							next = time.Now() // too far behind to catch up
						}
					}
					l.move(ctx, s, q.ID, move)
				}
			}
		}
		resp.Body.Close()
	}
}

// requestsOf returns the JSON of an event's requests and what follows
// them. They follow the view, which the clients, answering every request
// with its first choice, need not read.
func requestsOf(data []byte) []byte {
	i := bytes.LastIndex(data, []byte(`,"requests":`))
	if i < 0 {
		return nil
	}
	return data[i+len(`,"requests":`):]
}

// move sends one move and notes its latency.
func (l *loader) move(ctx context.Context, s seat, request int64, move json.RawMessage) {
	body := []byte(`{"request":` + strconv.FormatInt(request, 10) + `,"move":` + string(move) + `}`)
	req, _ := http.NewRequestWithContext(ctx, "POST", l.base+"/matches/"+s.match+"/moves", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+s.secret)
	start := time.Now()
	resp, err := l.calls.Do(req)
	if err != nil {
		if ctx.Err() == nil && !errors.Is(err, context.Canceled) {
			l.fail(err.Error())
		}
		return
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	took := time.Since(start)
	switch {
	case resp.StatusCode == http.StatusOK:
		if l.measuring.Load() {
			l.mu.Lock()
			l.latencies = append(l.latencies, took)
			l.mu.Unlock()
		}
	case resp.StatusCode == http.StatusConflict && bytes.Contains(b, []byte("stale-request")):
	default:
		l.fail(fmt.Sprintf("%s %s", resp.Status, b))
	}
}

func (l *loader) fail(msg string) {
	l.errors.Add(1)
	l.mu.Lock()
	if l.firstError == "" {
		l.firstError = msg
	}
	l.mu.Unlock()
}
