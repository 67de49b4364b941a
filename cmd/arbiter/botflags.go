package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/mcts"
	"github.com/arbiter-games/arbiter/player"
	"github.com/arbiter-games/arbiter/tournament"
	"github.com/spf13/pflag"
)

// botFlags are the flags of external players and their time control,
// shared by play, tournament and duel.
type botFlags struct {
	bank      time.Duration
	startup   time.Duration
	reply     time.Duration
	onTimeout string
	strikes   int
	grace     time.Duration
	logs      string
	logLimit  string
	env       []string
	limits    string
	sandbox   bool
	strict    bool

	set *pflag.FlagSet // the command's flags, to tell those given
}

// addBotFlags adds the flags to f; records says that the command writes
// records (--record), in whose directory the programs' logs go by default.
func addBotFlags(f *pflag.FlagSet, records bool) *botFlags {
	b := &botFlags{set: f}
	logsDefault := "a new directory in the system's temporary directory"
	if records {
		logsDefault = "bot-logs in the --record directory, else " + logsDefault
	}
	f.DurationVar(&b.bank, "bank", 0, "a time bank per seat for the whole game, drawn on when a decision overruns --deadline (external players)")
	f.DurationVar(&b.startup, "startup", 0, "time for a program to start and answer hello (default: ten times --deadline, at least 10s)")
	f.DurationVar(&b.reply, "reply-deadline", 0, "time for an answer owed to another seat's move, such as a trade offer (default: --deadline)")
	f.StringVar(&b.onTimeout, "on-timeout", "default", "when an external player's time and bank run out: default (play the default move) or forfeit (give up the seat)")
	f.IntVar(&b.strikes, "strikes", 0, "forfeit an external player's seat at its Nth fault: with 2, the second fault forfeits it (0: no limit)")
	f.DurationVar(&b.grace, "grace", player.DefaultGrace, "allowance beyond each deadline for the scheduler's jitter")
	f.StringVar(&b.logs, "bot-logs", "", "directory for each external program's standard error, one file per game and seat (default: "+logsDefault+"; the run says where)")
	f.StringVar(&b.logLimit, "bot-log-limit", "16MiB", "what is kept of each external program's standard error over the whole run")
	f.StringArrayVar(&b.env, "bot-env", nil, "add to the environment of external programs: NAME=VALUE, or NAME to pass this one's; repeat it")
	f.StringVar(&b.limits, "bot-limits", player.DefaultLimits.String(), "resource limits of external programs: as (address space), cpu, nproc, fsize; none lifts one, or all")
	f.BoolVar(&b.sandbox, "sandbox", false, "run external programs under bubblewrap: no network, their own processes only, a read-only file system")
	f.BoolVar(&b.strict, "strict", false, "fail (exit 1) if any player commits a fault: a timeout, a crash, garbage, an illegal move")
	return b
}

// external checks the flags and returns how external players run; specs
// are the players, whose programs (if any) need a log directory, builtIn
// the game's own players, whose names no program may take, and records the
// directory of the match records ("" for none), where the logs go unless
// --bot-logs says otherwise.
func (b *botFlags) external(specs, builtIn []string, records string) (player.External, error) {
	expiry, err := player.ParseExpiry(b.onTimeout)
	if err != nil {
		return player.External{}, usageError(err)
	}
	switch {
	case b.bank < 0:
		return player.External{}, usagef("--bank %v: give a duration of 0 or more", b.bank)
	case b.startup < 0:
		return player.External{}, usagef("--startup %v: give a positive duration", b.startup)
	case b.reply < 0:
		return player.External{}, usagef("--reply-deadline %v: give a positive duration", b.reply)
	case b.strikes < 0:
		return player.External{}, usagef("--strikes %d: give 0 (no limit) or more", b.strikes)
	case b.grace < 0:
		return player.External{}, usagef("--grace %v: give a duration of 0 or more", b.grace)
	}
	if err := b.unused(specs); err != nil {
		return player.External{}, err
	}
	limits, err := player.ParseLimits(b.limits)
	if err != nil {
		return player.External{}, usageError(err)
	}
	logLimit, err := player.ParseSize(b.logLimit)
	if err != nil || logLimit == 0 {
		return player.External{}, usagef("--bot-log-limit %q: give a size such as 16MiB or 512KiB", b.logLimit)
	}
	grace := b.grace
	if grace == 0 {
		grace = time.Nanosecond // no allowance, as asked
	}
	ext := player.External{Logs: &player.Logs{Dir: b.logs, PerSeat: logLimit}, Expiry: expiry, Strikes: b.strikes, Grace: grace,
		Env: b.env, Limits: limits, Sandbox: b.sandbox, Outputs: &player.Outputs{}, Run: player.NewRunID(), Names: player.NewNames(append(slices.Clone(builtIn), specs...)...)}
	if err := player.CheckEnv(ext.Env); err != nil {
		return player.External{}, usageError(err)
	}
	if hasProgram(specs) {
		switch {
		case ext.Logs.Dir != "":
		case records != "":
			ext.Logs.Dir = filepath.Join(records, "bot-logs")
		default:
			dir, err := os.MkdirTemp("", "arbiter-bot-logs-")
			if err != nil {
				return player.External{}, &exitError{exitInternal, fmt.Errorf("a directory for the bots' logs: %w", err)}
			}
			ext.Logs.Dir, ext.Logs.Temporary = dir, true
		}
		if err := checkPrograms(specs, ext); err != nil {
			if ext.Logs.Temporary {
				os.Remove(ext.Logs.Dir) // made for a run that does not happen
			}
			return player.External{}, usageError(err)
		}
	}
	return ext, nil
}

// unused refuses the flags of external players given when none of specs
// is one, which would change nothing: the time control of programs and
// bots behind a URL, and what a program may do. (--reply-deadline bounds
// people, the search AI and the game's AIs that take their time too:
// untimed refuses it where it does not, and --strict holds for every
// player.)
func (b *botFlags) unused(specs []string) error {
	external := slices.ContainsFunc(specs, player.IsExternal)
	for _, name := range []string{"bank", "startup", "on-timeout", "strikes", "grace"} {
		if !external && b.set.Changed(name) {
			return usagef("--%s has no effect without an external player: it is for programs (exec:COMMAND) and bots behind a URL, and none plays here", name)
		}
	}
	for _, name := range []string{"sandbox", "bot-env", "bot-limits", "bot-logs", "bot-log-limit"} {
		if !hasProgram(specs) && b.set.Changed(name) && (name != "sandbox" || b.sandbox) {
			return usagef("--%s has no effect without a program among the players: it is for programs (exec:COMMAND), and none plays here", name)
		}
	}
	return nil
}

// untimed refuses --deadline and --reply-deadline given where every one of
// specs is a built-in AI that answers at once and reads no deadline
// (catalog.Game.Untimed): nothing times such players, and they decide the
// same whatever the limit, so that the flag would change nothing. people
// says that the command seats people, whom the flags bound too.
func (b *botFlags) untimed(g catalog.Game, specs []string, people bool) error {
	name := "deadline"
	if !b.set.Changed(name) {
		name = "reply-deadline"
	}
	if !b.set.Changed(name) || !g.Untimed(specs) {
		return nil
	}
	info := g.Info()
	bounds := []string{"programs (exec:COMMAND)", "bots behind a URL"}
	if people {
		bounds = append(bounds, "people ("+player.Person+")")
	}
	if slices.ContainsFunc(info.Players, mcts.Is) {
		bounds = append(bounds, "the search AI (mcts, whose thinking time it caps)")
	}
	var slow []string
	for _, p := range info.Players {
		if !strings.Contains(p, "<") && p != player.Person && !mcts.Is(p) && !g.Untimed([]string{p}) {
			slow = append(slow, p)
		}
	}
	if len(slow) > 0 {
		bounds = append(bounds, "the AIs that take their time ("+strings.Join(slow, ", ")+")")
	}
	var named []string // each once, in the order given
	for _, s := range specs {
		if !slices.Contains(named, s) {
			named = append(named, s)
		}
	}
	last := len(bounds) - 1
	return usagef("--%s has no effect here: every player (%s) is a built-in AI that answers at once and reads no deadline, so nothing times its decisions; it bounds %s and %s", name, strings.Join(named, ", "), strings.Join(bounds[:last], ", "), bounds[last])
}

// checkPrograms checks, before play, the logs' directory, the sandbox and
// every external program of specs.
func checkPrograms(specs []string, ext player.External) error {
	if err := ext.Logs.CheckDir(); err != nil {
		return err
	}
	if err := player.CheckSandbox(ext); err != nil {
		return err
	}
	for _, s := range specs {
		if strings.HasPrefix(s, "exec:") {
			if err := player.CheckProgram(s, ext); err != nil {
				return err
			}
		}
	}
	return nil
}

// noteLogs says where the programs' standard error went, when programs
// played; a directory made for the run is removed instead when none of them
// wrote anything there.
func noteLogs(w io.Writer, specs []string, ext player.External) {
	if hasProgram(specs) && ext.Logs.Tidy() {
		fmt.Fprintf(w, "bot logs: each program's standard error is in %s (game-<n>-seat-<s>.log)\n", ext.Logs.Dir)
	}
}

// hasProgram reports whether any spec is an external program.
func hasProgram(specs []string) bool {
	for _, s := range specs {
		if strings.HasPrefix(s, "exec:") {
			return true
		}
	}
	return false
}

// conditions are a run's time limits and programs' bounds, by flag, as the
// run takes them: deadline is the command's --deadline, and ext the
// programs' settings the flags made (b.external). The deadlines are the
// ones the seats are given, defaults filled in (engine.Seat.TimeControl),
// so that --reply-deadline 1s beside --deadline 1s is the same as leaving
// it out. They are nil where no program plays (no exec: nor URL among
// specs): the games of in-process players are the same whatever the
// limits, and their files hold no timings, as before conditions were kept.
func (b *botFlags) conditions(specs []string, deadline time.Duration, ext player.External) tournament.Conditions {
	if !slices.ContainsFunc(specs, player.IsExternal) {
		return nil
	}
	tc := engine.Seat[any, any]{Deadline: deadline, ReplyDeadline: b.reply, StartDeadline: b.startup}.TimeControl()
	return tournament.Conditions{
		"deadline": deadline.String(), "reply-deadline": tc.ReplyDeadline.String(), "bank": b.bank.String(),
		"startup": tc.StartDeadline.String(), "on-timeout": b.onTimeout, "strikes": strconv.Itoa(b.strikes),
		"grace": b.grace.String(), "bot-limits": ext.Limits.String(), "sandbox": strconv.FormatBool(b.sandbox),
	}
}
