package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/server/load"
	"github.com/spf13/cobra"
)

func loadCommand() *cobra.Command {
	var (
		game, target, db   string
		matches, seats     int
		duration           time.Duration
		turns              int
		synchronous, flags string
		rate               float64
	)
	cmd := &cobra.Command{
		Use:   "load [--matches 1000] [--seats 4] [--duration 30s]",
		Short: "Measure a live server under many matches at once (loopback only)",
		Long: `Play many live matches at once against arbiter serve on this machine, each
seat a client that follows its own event stream and answers its requests
through the API, and print what the server sustained: moves acknowledged
per second, the latency of a move (p50, p99), errors, and the server's peak
memory.

Without --url it starts its own server (arbiter serve, on a temporary
database unless --db is given, synchronous FULL, its default limits but
for the creation of matches, no access log) and stops it afterwards.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if matches < 1 || seats < 2 || duration <= 0 {
				return usagef("give --matches 1 or more, --seats 2 or more and a positive --duration")
			}
			f := cmd.Flags()
			if target != "" {
				if err := load.Loopback(target); err != nil {
					return usagef("--url: %v", err)
				}
				for _, own := range []string{"db", "synchronous", "serve-flags"} {
					if f.Changed(own) {
						return usagef("--%s has no effect with --url: it sets up the server load starts, and --url names one already running", own)
					}
				}
			}
			if isPostgres(db) && f.Changed("synchronous") {
				return usagef("--synchronous has no effect on a PostgreSQL database: it is SQLite's")
			}
			g, err := catalog.Find(game)
			if err != nil {
				return usagef("--game: %v", err)
			}
			// The matches' turns, where the game has them; a game without
			// them (TNCC) plays by its own numbers.
			options := map[string]any{}
			if slices.ContainsFunc(g.Info().Options, func(o engine.Option) bool { return o.Name == "turns" }) {
				options["turns"] = turns
			} else if f.Changed("turns") {
				return usagef("--turns has no effect on --game %s: it has no turns option", game)
			}
			out := cmd.ErrOrStderr()
			url, pid := target, 0
			if url == "" {
				dir, err := os.MkdirTemp("", "arbiter-load-")
				if err != nil {
					return classify(err)
				}
				defer os.RemoveAll(dir)
				if db == "" {
					db = filepath.Join(dir, "load.db")
				}
				srv, u, err := startServer(cmd.Context(), db, synchronous, strings.Fields(flags))
				if err != nil {
					return classify(err)
				}
				defer srv.Process.Kill()
				url, pid = u, srv.Process.Pid
				where := fmt.Sprintf("%s (synchronous %s)", db, synchronous)
				if isPostgres(db) {
					where = "the PostgreSQL database of --db" // its URL may hold a password
				}
				fmt.Fprintf(out, "arbiter load: a server at %s, matches in %s\n", url, where)
			}
			cfg := load.Config{URL: url, Game: game, Matches: matches, Seats: seats, Duration: duration, Rate: rate,
				Options:  options,
				Progress: func(s string) { fmt.Fprintf(out, "arbiter load: %s\n", s) }}
			if pid != 0 {
				cfg.ServerCPU = func() time.Duration { return cpuTime(pid) }
			}
			res, err := load.Run(cmd.Context(), cfg)
			if err != nil {
				return classify(err)
			}
			w := cmd.OutOrStdout()
			offered := "each moving as soon as asked"
			if rate > 0 {
				offered = fmt.Sprintf("offering %.0f moves a second", rate)
			}
			fmt.Fprintf(w, "%d %s matches of %d people (%d clients, each with its event stream, %s), %v measured\n",
				res.Matches, game, seats, res.Seats, offered, res.Elapsed.Round(time.Millisecond))
			fmt.Fprintf(w, "moves acknowledged: %d (%.0f a second)\n", res.Moves, res.MovesPerSecond())
			fmt.Fprintf(w, "move latency: p50 %v, p99 %v, max %v\n", res.P50.Round(10*time.Microsecond), res.P99.Round(10*time.Microsecond), res.Max.Round(time.Millisecond))
			fmt.Fprintf(w, "errors: %d", res.Errors)
			if res.FirstError != "" {
				fmt.Fprintf(w, " (the first: %.200s)", res.FirstError)
			}
			fmt.Fprintln(w)
			if pid != 0 {
				fmt.Fprintf(w, "server: peak resident memory %s; processor time %v while measured, %.0f µs a move, %.0f%% of the machine's %d processors\n",
					peakMemory(pid), res.ServerCPU.Round(time.Millisecond), perMove(res.ServerCPU, res.Moves), 100*res.Share(res.ServerCPU), runtime.NumCPU())
			}
			fmt.Fprintf(w, "clients: processor time %v while measured, %.0f µs a move, %.0f%% of the machine's %d processors\n",
				res.ClientCPU.Round(time.Millisecond), perMove(res.ClientCPU, res.Moves), 100*res.Share(res.ClientCPU), runtime.NumCPU())
			if res.Errors > 0 {
				return &exitError{exitRefused, fmt.Errorf("%d errors under load", res.Errors)}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&game, "game", "ajveciv", "the game of the matches")
	f.IntVar(&matches, "matches", 1000, "matches played at once")
	f.IntVar(&seats, "seats", 4, "people per match, each a client")
	f.IntVar(&turns, "turns", 100000, "the matches' turns option, for a game that has one (many: no match ends while measured)")
	f.DurationVar(&duration, "duration", 30*time.Second, "how long the moves are measured")
	f.Float64Var(&rate, "rate", 5000, "moves a second the clients offer in all, each client moving once a period at a phase of its own (0: each moves as soon as asked)")
	f.StringVar(&target, "url", "", "a server already running on this machine (default: start one)")
	f.StringVar(&db, "db", "", "the database of the server it starts (default: a temporary file)")
	f.StringVar(&synchronous, "synchronous", "FULL", "the server's SQLite synchronous setting")
	f.StringVar(&flags, "serve-flags", "", "more flags for the server it starts, e.g. \"--moves-per-second 100\"")
	return cmd
}

// perMove is cpu per move, in microseconds.
func perMove(cpu time.Duration, moves int64) float64 {
	if moves == 0 {
		return 0
	}
	return float64(cpu.Microseconds()) / float64(moves)
}

// startServer starts arbiter serve (this program) on a free loopback port,
// and returns when it listens.
func startServer(ctx context.Context, db, synchronous string, more []string) (*exec.Cmd, string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, "", err
	}
	// The load makes its matches at once: creation is the one limit
	// raised; every other is the server's default.
	args := []string{"serve", "--db", db, "--addr", "127.0.0.1:0", "--log", "errors", "--creates-per-minute", "1000000"}
	if !isPostgres(db) {
		args = append(args, "--synchronous", synchronous)
	}
	args = append(args, more...)
	cmd := exec.CommandContext(ctx, self, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	found := make(chan string, 1)
	ended := make(chan string, 1) // what a server that stopped before it listened said
	go func() {
		sc := bufio.NewScanner(stderr)
		var said []string
		for sc.Scan() {
			line := sc.Text()
			if rest, ok := strings.CutPrefix(line, "arbiter serve: "); ok && strings.HasPrefix(rest, "http") {
				url, _, _ := strings.Cut(rest, ",")
				select {
				case found <- url:
				default:
				}
			} else if strings.Contains(line, "level=ERROR") {
				fmt.Fprintln(os.Stderr, "server:", line)
			} else if len(said) < 10 {
				said = append(said, line)
			}
		}
		io.Copy(io.Discard, stderr)
		ended <- strings.Join(said, "; ")
	}()
	select {
	case url := <-found:
		return cmd, url, nil
	case said := <-ended:
		select {
		case url := <-found:
			return cmd, url, nil
		default:
		}
		cmd.Wait()
		err := fmt.Errorf("the server did not start: %s", said)
		if cmd.ProcessState.ExitCode() == exitUsage {
			err = usageError(err) // its flags (--serve-flags), or --db
		}
		return nil, "", err
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		return nil, "", fmt.Errorf("the server did not start")
	}
}

// cpuTime is the processor time a process has used, from /proc.
func cpuTime(pid int) time.Duration {
	if pid == 0 {
		return 0
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond // USER_HZ is 100 on Linux
}

// peakMemory is a process's peak resident memory, from /proc.
func peakMemory(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return "unknown"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
