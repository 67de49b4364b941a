package player

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

func TestCommandWords(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.MkdirAll("bots", 0o755)
	os.WriteFile("bots/my bot.py", nil, 0o644)
	os.WriteFile("conf.yaml", nil, 0o644)
	t.Setenv("LEVEL", "3")
	got, err := commandWords(`python3 "bots/my bot.py" --level $LEVEL conf.yaml missing.txt -v`)
	if err != nil {
		t.Fatal(err)
	}
	// Words naming files here are made absolute: the bot runs elsewhere.
	want := []string{"python3", filepath.Join(dir, "bots/my bot.py"), "--level", "3", filepath.Join(dir, "conf.yaml"), "missing.txt", "-v"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	for _, bad := range []string{"", "   ", `python3 "unclosed`, "a | b", "a; b", "a && b", "echo $(id)"} {
		if _, err := commandWords(bad); err == nil {
			t.Errorf("commandWords(%q) accepted", bad)
		}
	}
	// A script that is not there is named with the directory it was
	// looked for in: the bot's interpreter, in the bot's own directory,
	// would name a file there.
	want2 := "exec:node bots/nope.js: bots/nope.js: no such file in " + dir
	if _, err := commandWords("node bots/nope.js"); err == nil || !strings.HasPrefix(err.Error(), want2) {
		t.Errorf("a missing script: %v; want %q", err, want2)
	}
	for _, bad := range []string{"python3 -u bots/nope.py", "ruby ./x.rb arg.rb", "node --inspect bots/nope.mjs"} {
		if _, err := commandWords(bad); err == nil {
			t.Errorf("commandWords(%q) accepted a missing script", bad)
		}
	}
	// Words that end as a script's name but name no file of the bot's
	// are taken: code, a module, a URL, a pattern, the script's own
	// arguments and the words after --.
	os.WriteFile("bot.py", nil, 0o644)
	for _, good := range []string{
		`sh -c 'cd /srv/bots && exec python3 bot.py'`,
		`bash -lc 'python3 bot.py'`,
		`python3 -c 'import runpy; runpy.run_path("bot.py")'`,
		`python3 -m bots.r`,
		`node -e "require('./nope.js')"`,
		`node --require ./bot.py -e x.js`,
		`deno run https://bots.example/bot.ts`,
		`python3 bot.py --out moves.py *.py`,
		`python3 bot.py -- nope.py`,
		`env -- python3 nope.py`,
	} {
		if _, err := commandWords(good); err != nil {
			t.Errorf("commandWords(%q): %v", good, err)
		}
	}
}

func FuzzCommandWords(f *testing.F) {
	for _, s := range []string{`python3 bot.py`, `sh -c "echo hi; exec sleep 1"`, `a\ b 'c d' "e $X"`, "\x00", `$(`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := commandWords(s)
		if err == nil && len(words) == 0 {
			t.Errorf("%q: no words and no error", s)
		}
	})
}

func TestNames(t *testing.T) {
	cases := []struct{ spec, record, display string }{
		{"basic.conquer", "basic.conquer", "basic.conquer"},
		{"exec:python3 /home/ann/bots/bot.py --level 2", "exec:python3 /home/ann/bots/bot.py --level 2", "exec:bot.py"},
		{"exec:./mybot --weights w.bin", "exec:./mybot --weights w.bin", "exec:mybot"},
		{"exec:java -jar /opt/bot.jar", "exec:java -jar /opt/bot.jar", "exec:bot.jar"},
		{"http://ann:hunter2@10.0.0.5:8080/bot/s3cret?token=x#y", "http://10.0.0.5:8080/bot/s3cret", "http://10.0.0.5:8080"},
		{"https://bots.example/b", "https://bots.example/b", "https://bots.example"},
	}
	for _, c := range cases {
		if got := RecordName(c.spec); got != c.record {
			t.Errorf("RecordName(%q) = %q; want %q", c.spec, got, c.record)
		}
		if got := DisplayName(RecordName(c.spec)); got != c.display {
			t.Errorf("DisplayName(%q) = %q; want %q", c.spec, got, c.display)
		}
	}
}

func TestParseLimits(t *testing.T) {
	cases := []struct {
		in   string
		want Limits
	}{
		{"", DefaultLimits},
		{"none", Limits{}},
		{"as=2GiB", Limits{AddressSpace: 2 << 30, CPU: DefaultLimits.CPU, Processes: DefaultLimits.Processes, FileSize: DefaultLimits.FileSize}},
		{"as=none, cpu=90s,nproc=64,fsize=100MiB", Limits{CPU: 90 * time.Second, Processes: 64, FileSize: 100 << 20}},
	}
	for _, c := range cases {
		got, err := ParseLimits(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseLimits(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if back, err := ParseLimits(got.String()); err != nil || back != got {
			t.Errorf("%q: String %q reads back as %+v, %v", c.in, got.String(), back, err)
		}
	}
	for _, bad := range []string{"as", "as=", "as=-1", "as=lots", "cpu=10ms", "cpu=forever", "nproc=0", "wings=2", "as=9999999999GiB"} {
		if _, err := ParseLimits(bad); err == nil {
			t.Errorf("ParseLimits(%q) accepted", bad)
		}
	}
}

func TestLogBudgetSpansARun(t *testing.T) {
	// "Cap logs per seat across a whole run, keep draining when writing
	// fails."
	logs := &Logs{Dir: t.TempDir(), PerSeat: 1000}
	seat := logs.seat("exec:chatty")
	other := logs.seat("exec:quiet")
	for game := 1; game <= 3; game++ {
		w := seat.open(game, 1, "")
		n, err := w.Write(make([]byte, 600))
		if n != 600 || err != nil {
			t.Fatalf("Write = %d, %v; want every byte taken", n, err)
		}
		w.Close()
		q := other.open(game, 0, "")
		q.Write([]byte("hello\n"))
		q.Close()
	}
	var kept int64
	for game := 1; game <= 3; game++ {
		fi, err := os.Stat(filepath.Join(logs.Dir, fmt.Sprintf("game-%d-seat-2.log", game)))
		if err != nil {
			t.Fatal(err)
		}
		kept += fi.Size()
	}
	if kept < 1000 || kept > 1000+3*100 {
		t.Errorf("kept %d bytes over three games; want the budget of 1000 and the notes of the cut", kept)
	}
	cuts := logs.Cuts()
	if len(cuts) != 1 || cuts[0].Seat != "exec:chatty" || cuts[0].Dropped != 800 {
		t.Errorf("cuts %+v; want 800 bytes of exec:chatty", cuts)
	}
}

// startSleepers starts a program that leaves processes behind: a child, a
// child in a new session, and a daemon made by a double fork, each a sleep
// with the marker; it says ready at once.
func startSleepers(t *testing.T, ext External, marker string) *program {
	t.Helper()
	script := fmt.Sprintf(`sleep %[1]s & setsid sleep %[1]s & (setsid sh -c 'sleep %[1]s & exit 0' &) ; echo ready; exec sleep %[1]s`, marker)
	p, err := startProgram("sh -c "+strconv.Quote(script), ext, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	line, err := p.next(context.Background(), time.Now().Add(time.Minute))
	if err != nil || string(line) != "ready" {
		t.Fatalf("%q, %v", line, err)
	}
	waitSleepers(t, marker, 4)
	return p
}

func waitSleepers(t *testing.T, marker string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for len(sleeping(marker)) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d sleepers; want %d", len(sleeping(marker)), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// sleeping returns the live processes running sleep with the marker.
func sleeping(marker string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && string(cmd) == "sleep\x00"+marker+"\x00" && running(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// withoutNamespaces starts programs, for the rest of test t, as where the
// kernel refuses namespaces: Arbiter a subreaper, sweeping the orphans of
// bots.
func withoutNamespaces(t *testing.T) {
	t.Helper()
	namespaces.Lock()
	was := namespaces.refused
	namespaces.Unlock()
	refuseNamespaces(syscall.EPERM) // as a kernel that refuses them
	t.Cleanup(func() {
		namespaces.Lock()
		namespaces.refused = was
		namespaces.Unlock()
	})
}

func TestEveryProcessDiesWithItsSeat(t *testing.T) {
	// "Children a bot starts with setsid outlive the game. Every process a
	// bot starts is gone when its seat ends, whatever the other seats do",
	// and no other seat's is.
	// Both ways: a PID namespace, and the subreaper's sweep where
	// namespaces are refused.
	for _, mode := range []string{"namespace", "subreaper"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "subreaper" {
				withoutNamespaces(t)
			}
			marker := fmt.Sprintf("%d.%d", 700+os.Getpid()%100, time.Now().UnixNano()%1000000)
			other := fmt.Sprintf("%d.%d", 800+os.Getpid()%100, time.Now().UnixNano()%1000000)
			p := startSleepers(t, External{}, marker)
			q := startSleepers(t, External{}, other) // another seat, still playing
			if p.ns != (mode == "namespace") {
				t.Fatalf("the program runs in a namespace: %v", p.ns)
			}
			p.close()
			if pids := sleeping(marker); len(pids) > 0 {
				t.Errorf("processes %v outlive their seat", pids)
			}
			// Another seat's processes are its own, its daemon too: where
			// a subreaper sweeps the orphans of bots, it sweeps those of
			// the seat that ended alone.
			if pids := sleeping(other); len(pids) != 4 {
				t.Errorf("the other seat's processes: %v; want its 4", pids)
			}
			q.close()
			if pids := sleeping(other); len(pids) > 0 {
				t.Errorf("processes %v outlive their seat", pids)
			}
		})
	}
}

func TestASweepLeavesTheProgramsInNamespacesAlone(t *testing.T) {
	// Namespaces may be refused after programs have started in them: the
	// kernel's count of user namespaces runs out (ENOSPC) while a
	// tournament plays many seats at once. Arbiter becomes a subreaper
	// then, and a seat's end sweeps the orphans of bots; but a program
	// still playing in its namespace is Arbiter's child, in a session of
	// its own, with a bot's HOME, and is no orphan: it plays on (and when
	// it ends, its own seat reaps it, to tell how it ended).
	p := startSleepers(t, External{}, fmt.Sprintf("%d.%d", 500+os.Getpid()%100, time.Now().UnixNano()%1000000))
	defer p.close()
	if !p.ns {
		t.Skip("namespaces are refused here")
	}
	withoutNamespaces(t)
	marker := fmt.Sprintf("%d.%d", 400+os.Getpid()%100, time.Now().UnixNano()%1000000)
	q := startSleepers(t, External{}, marker)
	if q.ns {
		t.Fatal("the second program runs in a namespace")
	}
	q.close() // the sweep
	if pids := sleeping(marker); len(pids) > 0 {
		t.Errorf("processes %v outlive their seat", pids)
	}
	select {
	case <-p.done:
		t.Fatalf("the program in its namespace was stopped by another seat's end: it %s", exitText(p.cmd.ProcessState, p.wrapped))
	default:
	}
}

func TestOrphansThatEndByThemselvesAreReaped(t *testing.T) {
	// Where namespaces are refused, Arbiter is a subreaper: a bot's orphan
	// is re-parented to it, and when the orphan ends by itself (a helper
	// the bot left running in the background, done before its seat ends),
	// only Arbiter can reap it. Unreaped, each stayed a zombie for the
	// rest of the run, one process id more each game: a tournament in a
	// container whose namespaces are refused would run out of them.
	withoutNamespaces(t)
	// A long sleep, told apart by its digits, that this test ends while
	// its seat plays on (rather than a short one, which a loaded machine
	// could let end before the test has seen it).
	marker := fmt.Sprintf("%d.%06d", 600+os.Getpid()%100, (os.Getpid()*7919+int(time.Now().UnixNano()/1000))%1000000)
	script := fmt.Sprintf(`sh -c 'sleep %s & exit 0'; echo ready; exec cat`, marker)
	p, err := startProgram("sh -c "+strconv.Quote(script), External{}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	if line, err := p.next(context.Background(), time.Now().Add(time.Minute)); err != nil || string(line) != "ready" {
		t.Fatalf("%q, %v", line, err)
	}
	var orphan proc
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no %s in 30 s", what)
			}
		}
	}
	waitFor("orphan sleeping", func() bool {
		pids := sleeping(marker)
		if len(pids) == 1 {
			st, _ := readStat(pids[0])
			orphan = proc{pids[0], st.start}
		}
		return orphan.pid != 0
	})
	// It ends, of itself as far as Arbiter knows, re-parented to this
	// process: a zombie.
	if err := syscall.Kill(orphan.pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitFor("orphan ended", func() bool {
		st, ok := readStat(orphan.pid)
		return ok && st.zombie && st.ppid == os.Getpid() && st.start == orphan.start
	})
	p.close()
	if st, ok := readStat(orphan.pid); ok && st.start == orphan.start {
		t.Errorf("the orphan %d is left a zombie of Arbiter's after its seat ended", orphan.pid)
	}
}

func TestCloseNeverWaitsOnABlockedWrite(t *testing.T) {
	// "Close waits on the same lock ... Every write to a bot is bounded":
	// a program that never reads is closed at once, even while a write to
	// it waits.
	p, err := startProgram(`sh -c "echo ready; exec sleep 600"`, External{}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.next(context.Background(), time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	big := []byte(strings.Repeat("x", 1<<20))
	if err := p.write(context.Background(), big, time.Now().Add(50*time.Millisecond)); err != errBlocked {
		t.Fatalf("a write to a program that does not read: %v; want errBlocked", err)
	}
	// One more write with no deadline, then close from elsewhere.
	done := make(chan error, 1)
	go func() { done <- p.write(context.Background(), big, time.Time{}) }()
	time.Sleep(20 * time.Millisecond)
	start := time.Now()
	p.close()
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("close took %v", took)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the write still waits after close")
	}
}

func TestWholeLinesAfterABlockedWrite(t *testing.T) {
	// What a blocked write leaves is sent before the next message: a slow
	// reader still reads whole lines, in order.
	p, err := startProgram(`sh -c "echo ready; sleep 1; exec cat"`, External{}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	if _, err := p.next(context.Background(), time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	first := strings.Repeat("a", 200<<10)
	if err := p.write(context.Background(), []byte(first), time.Now().Add(10*time.Millisecond)); err != errBlocked {
		t.Fatalf("first write: %v; want it blocked", err)
	}
	if err := p.write(context.Background(), []byte("second"), time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{first, "second"} {
		line, err := p.next(context.Background(), time.Now().Add(time.Minute))
		if err != nil || string(line) != want {
			t.Fatalf("read %d bytes (%v); want %d", len(line), err, len(want))
		}
	}
}

// running reports whether pid is a process that is not a zombie.
func running(pid int) bool {
	st, ok := readStat(pid)
	return ok && !st.zombie
}

func TestAShellScriptsPathsStayRelative(t *testing.T) {
	// docs/protocol.md: "Only the command's own words are made absolute,
	// not the paths inside them: in exec:sh -c '...' the script is one
	// word, and sh runs it in the bot's temporary directory, where
	// bots/mybot.py is not. Write the path absolute, or let your shell
	// expand $PWD."
	dir := t.TempDir()
	t.Chdir(dir)
	os.MkdirAll("bots", 0o755)
	os.WriteFile("bots/ready.txt", []byte("ready\n"), 0o644)
	words, err := commandWords(`sh -c 'cat bots/ready.txt'`)
	if err != nil {
		t.Fatal(err)
	}
	if words[2] != "cat bots/ready.txt" {
		t.Errorf("the script became %q", words[2])
	}
	start := func(command string) ([]byte, error) {
		p, err := startProgram(command, External{}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer p.close()
		return p.next(context.Background(), time.Now().Add(time.Minute))
	}
	// It runs in a temporary directory of its own, not here.
	if line, err := start(`sh -c 'pwd; cat bots/ready.txt'`); err != nil || !strings.HasPrefix(filepath.Base(string(line)), "arbiter-bot-") {
		t.Errorf("the bot's directory: %q, %v; want a temporary arbiter-bot- directory", line, err)
	}
	if line, err := start(`sh -c 'cat bots/ready.txt'`); err == nil {
		t.Errorf("the relative path was found from the bot's directory: %q", line)
	}
	// What the caller's shell makes of "exec:sh -c 'cat $PWD/bots/ready.txt'".
	if line, err := start(`sh -c 'cat ` + dir + `/bots/ready.txt'`); err != nil || string(line) != "ready" {
		t.Errorf("the absolute path: %q, %v", line, err)
	}
}

func TestALogOverItsBudgetKeepsItsEnd(t *testing.T) {
	// A log over --bot-log-limit keeps its beginning and its end, half the
	// budget each, with a line between that says how much was left out:
	// the end is where a traceback is.
	logs := &Logs{Dir: t.TempDir(), PerSeat: 1000}
	seat := logs.seat("exec:chatty")
	w := seat.open(1, 0, "=== header\n")
	var out strings.Builder
	out.WriteString("started\n")
	for i := range 400 {
		fmt.Fprintf(&out, "line %d\n", i)
	}
	out.WriteString("Traceback (most recent call last):\nKeyError: 'no_such_key'\n")
	all := out.String()
	// In pieces of all sizes, so that the end wraps around its ring.
	for rest, k := all, 1; rest != ""; k = k%37 + 1 {
		n := min(k, len(rest))
		w.Write([]byte(rest[:n]))
		rest = rest[n:]
	}
	w.Close()
	data, err := os.ReadFile(filepath.Join(logs.Dir, "game-1-seat-1.log"))
	if err != nil {
		t.Fatal(err)
	}
	left := len("=== header\n") + len(all) - 1000
	marker := fmt.Sprintf("\n=== %d bytes of the bot's output were left out here: its logs are over --bot-log-limit 1000 in this run; its last 500 bytes follow ===\n", left)
	want := "=== header\n" + all[:500-len("=== header\n")] + marker + all[len(all)-500:]
	if string(data) != want {
		t.Errorf("the log:\n%s\nwant:\n%s", data, want)
	}
	if !strings.HasSuffix(string(data), "KeyError: 'no_such_key'\n") {
		t.Error("the log lost its traceback")
	}
	if cuts := logs.Cuts(); len(cuts) != 1 || cuts[0].Dropped != int64(left) {
		t.Errorf("cuts %+v; want %d bytes dropped", cuts, left)
	}

	// A second game finds the budget spent: nothing of it is kept, and
	// its log says how much was left out.
	w = seat.open(2, 0, "")
	w.Write([]byte("more\n"))
	w.Close()
	data, _ = os.ReadFile(filepath.Join(logs.Dir, "game-2-seat-1.log"))
	if want := "\n=== 5 bytes of the bot's output were left out here: its logs are over --bot-log-limit 1000 in this run ===\n"; string(data) != want {
		t.Errorf("the second game's log: %q; want %q", data, want)
	}
}

func TestAFloodingProgramHoldsLittleOfArbitersMemory(t *testing.T) {
	// A program that writes line after line that nobody takes (they are
	// not answers: Arbiter has asked nothing) waits once about a MiB of
	// them waits: before, Arbiter kept 64 lines of up to 1 MiB each, per
	// seat, 64 MiB for each of twenty seats. Nothing of what it wrote is
	// lost: it is all read, in order, as it is taken.
	dir := t.TempDir()
	done := filepath.Join(dir, "wrote-all")
	const lines, size = 40, 512 << 10
	script := fmt.Sprintf(`import os
os.write(1, b"ready\n")
for i in range(%d):
    b = (b"%%02d" %% i) + b"x" * %d + b"\n"
    while b:
        b = b[os.write(1, b):]
open(%q, "w").close()
import sys
sys.stdin.read()
`, lines, size-3, done)
	bot := filepath.Join(dir, "flood.py")
	if err := os.WriteFile(bot, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := startProgram("python3 "+bot, External{}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	if l, err := p.next(context.Background(), time.Now().Add(time.Minute)); err != nil || string(l) != "ready" {
		t.Fatalf("first line %q, %v", l, err)
	}
	// 20 MiB to write, and nobody takes them: it must not get to the end.
	// (Before, it did, in a fraction of a second.)
	time.Sleep(2 * time.Second)
	if _, err := os.Stat(done); err == nil {
		t.Errorf("the program wrote its %d MiB while nothing was taken: Arbiter holds them", lines*size>>20)
	}
	p.backlog.mu.Lock()
	held := p.backlog.bytes
	p.backlog.mu.Unlock()
	if held > backlogLimit+maxLine {
		t.Errorf("%d bytes of lines wait; want at most %d", held, backlogLimit+maxLine)
	}
	for i := range lines {
		l, err := p.next(context.Background(), time.Now().Add(time.Minute))
		if err != nil || len(l) != size-1 || string(l[:2]) != fmt.Sprintf("%02d", i) {
			t.Fatalf("line %d: %d bytes %.10q (%v); want %d bytes", i, len(l), l, err, size-1)
		}
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(done); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the program did not get to the end once its lines were taken")
		}
	}
}

func TestABotGetsNoDescriptorArbiterInherited(t *testing.T) {
	// A descriptor Arbiter was given open by what started it (here, one
	// this test opens without close-on-exec, as a shell's 3>file does)
	// is not passed on to a bot.
	path := filepath.Join(t.TempDir(), "parents-file")
	fd, err := syscall.Open(path, syscall.O_CREAT|syscall.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	p, err := startProgram(fmt.Sprintf(`sh -c "if [ -e /proc/self/fd/%d ]; then echo open; else echo closed; fi; exec sleep 60"`, fd),
		External{}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	l, err := p.next(context.Background(), time.Now().Add(time.Minute))
	if err != nil || string(l) != "closed" {
		t.Errorf("descriptor %d in the bot: %q, %v; want closed", fd, l, err)
	}
}

func TestAProgramStartsWithSignalsAtTheirDefault(t *testing.T) {
	// Its init runs it in the background, where a shell ignores SIGINT
	// and SIGQUIT; a program starts with them at their default, as from
	// a terminal, where env(1) can give them back.
	if defaultSignals() == "" {
		t.Skip("env(1) here cannot set signals to their default (coreutils before 8.31)")
	}
	p, err := startProgram(`sh -c "grep SigIgn /proc/self/status; exec sleep 60"`, External{}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	l, err := p.next(context.Background(), time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	mask, err := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(string(l), "SigIgn:")), 16, 64)
	if err != nil {
		t.Fatalf("%q: %v", l, err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGQUIT} {
		if mask&(1<<(sig-1)) != 0 {
			t.Errorf("the program starts with %v ignored (SigIgn %016x)", sig, mask)
		}
	}
}

// needBwrap skips a test when bubblewrap is not installed, except in CI.
func needBwrap(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("ARBITER_CI") != "" {
			t.Fatal("bubblewrap is not installed; .ci/run installs it")
		}
		t.Skip("bubblewrap (bwrap) is not installed")
	}
}

// groupStat is what /proc says of the processes of process group pgrp,
// or, with threads, of each of their threads: their states ("R", "S", "T"
// for stopped) and the processor time they took, in clock ticks.
func groupStat(pgrp int, threads bool) (states []string, ticks uint64) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		files := []string{"/proc/" + e.Name() + "/stat"}
		if threads {
			tasks, _ := os.ReadDir("/proc/" + e.Name() + "/task")
			files = files[:0]
			for _, task := range tasks {
				files = append(files, "/proc/"+e.Name()+"/task/"+task.Name()+"/stat")
			}
		}
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				continue
			}
			s := string(b)
			f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
			if len(f) < 13 || f[2] != strconv.Itoa(pgrp) {
				continue
			}
			u, _ := strconv.ParseUint(f[11], 10, 64)
			st, _ := strconv.ParseUint(f[12], 10, 64)
			states, ticks = append(states, f[0]), ticks+u+st
		}
	}
	return states, ticks
}

func TestASandboxedBotRestsBetweenItsTurns(t *testing.T) {
	// "Under --sandbox a bot runs only while it is asked or told
	// something: between its turns every process it started is stopped,
	// so that it takes no processor time from the seat deciding."
	needBwrap(t)
	spin := `sh -c 'while :; do :; done' &`
	script := spin + spin + `echo ready; while read l; do echo answer; done`
	p, err := startProgram("sh -c "+strconv.Quote(script), External{Sandbox: true}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	line, err := p.next(context.Background(), time.Now().Add(time.Minute))
	if err != nil || string(line) != "ready" {
		t.Fatalf("%q, %v", line, err)
	}
	if p.group == 0 {
		t.Fatal("the sandbox's process group is not known")
	}
	// SIGSTOP is sent; each process stops at once, wherever it runs.
	restsWithin(t, p.group, false, 4, "after its turn")
	// Asked again, it runs, answers, and rests once more.
	line, err = p.call(context.Background(), []byte("2"), time.Now().Add(time.Minute))
	if err != nil || string(line) != "answer" {
		t.Fatalf("%q, %v; want its answer", line, err)
	}
	if !p.rested {
		t.Error("the bot does not rest after its answer")
	}
}

func TestASandboxedBotStaysInItsProcessGroup(t *testing.T) {
	// "setsid and setpgid are refused under --sandbox: every process of a
	// bot stays in the group that rests between its turns."
	needBwrap(t)
	script := `(setsid true && echo setsid) || echo refused; (python3 -c 'import os; os.setpgid(0, 0)' 2>/dev/null && echo setpgid) || echo refused`
	p, err := startProgram("sh -c "+strconv.Quote(script), External{Sandbox: true}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	for range 2 {
		if line, err := p.next(context.Background(), time.Now().Add(time.Minute)); err != nil || string(line) != "refused" {
			t.Errorf("%q, %v; want the call refused", line, err)
		}
	}
}

// restsWithin waits (up to a generous allowance, for a loaded machine)
// for at least least processes of group pgrp (or threads, with threads)
// to be there and every one stopped, then reports the processor time they
// take over a while: none, for a group at rest. A thread that waits for
// its child made with vfork (D) counts as stopped: it takes no processor
// time either.
func restsWithin(t *testing.T, pgrp int, threads bool, least int, what string) {
	t.Helper()
	kind := "processes"
	if threads {
		kind = "threads"
	}
	stopped := func(s string) bool { return s == "T" || threads && (s == "t" || s == "D") }
	deadline := time.Now().Add(30 * time.Second)
	for {
		states, _ := groupStat(pgrp, threads)
		if len(states) >= max(least, 1) && !slices.ContainsFunc(states, func(s string) bool { return !stopped(s) }) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: its %s are %v; want %d or more, all stopped (T)", what, kind, states, max(least, 1))
		}
		time.Sleep(5 * time.Millisecond)
	}
	_, before := groupStat(pgrp, threads)
	time.Sleep(300 * time.Millisecond)
	if states, after := groupStat(pgrp, threads); after != before {
		t.Errorf("%s: its resting %s (%v) took %d clock ticks of processor time", what, kind, states, after-before)
	}
}

func TestASandboxedBotThatStopsReadingRestsAllTheSame(t *testing.T) {
	// A bot that no longer reads is sent a request that cannot be written
	// in time (blocked): it rests after, as after an answer, and does not
	// spin on while the other seats decide.
	needBwrap(t)
	p, err := startProgram(`sh -c 'echo ready; while :; do :; done'`, External{Sandbox: true}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	if line, err := p.next(context.Background(), time.Now().Add(time.Minute)); err != nil || string(line) != "ready" {
		t.Fatalf("%q, %v", line, err)
	}
	// More than a pipe holds, so that the write blocks.
	big := []byte(strings.Repeat("x", 1<<20))
	if _, err := p.call(context.Background(), big, time.Now().Add(time.Second)); !errors.Is(err, errBlocked) {
		t.Fatalf("%v; want the request blocked", err)
	}
	restsWithin(t, p.group, false, 1, "after a blocked request")
}

func TestASandboxedBotCannotWakeItself(t *testing.T) {
	// "A bot cannot wake its resting processes itself": SIGCONT, from any
	// process, resumes a stopped one, so every way to send it, or to have
	// the kernel send it later, is refused; the same calls with another
	// signal, or none, are not, and threads and processes are made as
	// ever (clone3 is refused with ENOSYS, for which the C library uses
	// clone).
	needBwrap(t)
	needPython(t)
	script := fmt.Sprintf(`
import ctypes, os, signal, subprocess, threading
libc = ctypes.CDLL(None, use_errno=True)
def call(name, f, *args):
    ctypes.set_errno(0)
    r = f(*args)
    e = ctypes.get_errno()
    if r == 0 and name == "clone with exit signal SIGCONT":
        os._exit(0)  # the child, made
    print(name + ": " + ("ok" if r >= 0 else os.strerror(e)), flush=True)
ev = ctypes.create_string_buffer(64)
ctypes.memmove(ev, (ctypes.c_int * 4)(0, 0, signal.SIGCONT, 0), 16)  # SIGEV_SIGNAL, SIGCONT
tid = ctypes.c_void_p()
pid, CONT, sys = os.getpid(), int(signal.SIGCONT), libc.syscall
call("kill SIGCONT", libc.kill, 0, CONT)
call("tkill SIGCONT", sys, %d, pid, CONT)
call("tgkill SIGCONT", sys, %d, pid, pid, CONT)
call("rt_sigqueueinfo SIGCONT", sys, %d, pid, CONT, None)
call("rt_tgsigqueueinfo SIGCONT", sys, %d, pid, pid, CONT, None)
call("pidfd_send_signal SIGCONT", sys, %d, 0, CONT, None, 0)
call("timer_create", libc.timer_create, 1, ev, ctypes.byref(tid))
call("mq_notify with a sigevent", libc.mq_notify, -1, ev)
call("fcntl F_SETSIG SIGCONT", libc.fcntl, 0, 10, CONT)
call("prctl PR_SET_PDEATHSIG SIGCONT", libc.prctl, 1, CONT, 0, 0, 0)
call("clone with exit signal SIGCONT", sys, %d, CONT, 0, 0, 0, 0)
call("clone3", sys, %d, None, 0)
call("kill 0", libc.kill, 0, 0)
call("mq_notify without a sigevent", libc.mq_notify, -1, None)
call("fcntl F_SETSIG SIGUSR1", libc.fcntl, 0, 10, int(signal.SIGUSR1))
call("prctl PR_SET_PDEATHSIG SIGTERM", libc.prctl, 1, int(signal.SIGTERM), 0, 0, 0)
th = threading.Thread(target=lambda: None); th.start(); th.join()
print("subprocess: " + subprocess.run(["echo", "ok"], capture_output=True, text=True).stdout.strip(), flush=True)
`, unix.SYS_TKILL, unix.SYS_TGKILL, unix.SYS_RT_SIGQUEUEINFO, unix.SYS_RT_TGSIGQUEUEINFO, unix.SYS_PIDFD_SEND_SIGNAL, unix.SYS_CLONE, unix.SYS_CLONE3)
	p, err := startProgram("python3 "+pythonFile(t, script), External{Sandbox: true}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	refused, none := "Permission denied", "Function not implemented" // os.strerror's words
	want := []string{
		"kill SIGCONT: " + refused, "tkill SIGCONT: " + refused, "tgkill SIGCONT: " + refused,
		"rt_sigqueueinfo SIGCONT: " + refused, "rt_tgsigqueueinfo SIGCONT: " + refused, "pidfd_send_signal SIGCONT: " + refused,
		"timer_create: " + none, "mq_notify with a sigevent: " + refused,
		"fcntl F_SETSIG SIGCONT: " + refused, "prctl PR_SET_PDEATHSIG SIGCONT: " + refused,
		"clone with exit signal SIGCONT: " + refused, "clone3: " + none,
		"kill 0: ok", "mq_notify without a sigevent: Bad file descriptor", "fcntl F_SETSIG SIGUSR1: ok", "prctl PR_SET_PDEATHSIG SIGTERM: ok",
		"subprocess: ok",
	}
	var got []string
	for range want {
		line, err := p.next(context.Background(), time.Now().Add(time.Minute))
		if err != nil {
			t.Fatalf("after %q: %v", got, err)
		}
		got = append(got, string(line))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("system calls in the sandbox (-want +got):\n%s", diff)
	}
}

func TestASandboxedBotWithATimerThatWakesItRestsAllTheSame(t *testing.T) {
	// A bot that arms a timer to send it SIGCONT every millisecond (with a
	// handler, so that the kernel keeps the timer going), and spins,
	// rests between its turns all the same.
	needBwrap(t)
	needPython(t)
	script := `
import ctypes, signal, sys, threading
libc = ctypes.CDLL(None)
signal.signal(signal.SIGCONT, lambda *a: None)
ev = ctypes.create_string_buffer(64)
ctypes.memmove(ev, (ctypes.c_int * 4)(0, 0, signal.SIGCONT, 0), 16)  # SIGEV_SIGNAL, SIGCONT
tid = ctypes.c_void_p()
if libc.timer_create(1, ev, ctypes.byref(tid)) == 0:
    libc.timer_settime(tid, 0, (ctypes.c_long * 4)(0, 1000000, 0, 1000000), None)
def spin():
    while True:
        pass
threading.Thread(target=spin, daemon=True).start()
print("ready", flush=True)
for l in sys.stdin:
    print("answer", flush=True)
`
	p, err := startProgram("python3 "+pythonFile(t, script), External{Sandbox: true}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	if line, err := p.next(context.Background(), time.Now().Add(time.Minute)); err != nil || string(line) != "ready" {
		t.Fatalf("%q, %v", line, err)
	}
	restsWithin(t, p.group, false, 1, "after its ready")
	if line, err := p.call(context.Background(), []byte("1"), time.Now().Add(time.Minute)); err != nil || string(line) != "answer" {
		t.Fatalf("%q, %v", line, err)
	}
	restsWithin(t, p.group, false, 1, "after its answer")
}

func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("ARBITER_CI") != "" {
			t.Fatal("python3 is not installed")
		}
		t.Skip("python3 is not installed")
	}
}

// pythonFile writes a Python script in a directory of the test's, and
// returns its path.
func pythonFile(t *testing.T, script string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bot.py")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestASandboxedBotCannotTrace(t *testing.T) {
	// A tracer is told of its tracee's SIGSTOP before the tracee stops,
	// and may discard it: a bot tracing one of its processes could keep it
	// running while the bot rests. ptrace is refused.
	needBwrap(t)
	needPython(t)
	script := `
import ctypes, os, signal, time
libc = ctypes.CDLL(None, use_errno=True)
pid = os.fork()
if pid == 0:
    time.sleep(60)
    os._exit(0)
r = libc.ptrace(0x4206, pid, None, None)  # PTRACE_SEIZE
print("ptrace: " + ("ok" if r == 0 else os.strerror(ctypes.get_errno())), flush=True)
os.kill(pid, signal.SIGKILL)
`
	p, err := startProgram("python3 "+pythonFile(t, script), External{Sandbox: true}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	if line, err := p.next(context.Background(), time.Now().Add(time.Minute)); err != nil || string(line) != "ptrace: Permission denied" {
		t.Errorf("%q, %v; want ptrace refused", line, err)
	}
}

func TestAnEndedSandboxSignalsNoGroup(t *testing.T) {
	// Once a sandboxed bot has ended, the number of its process group is
	// free, and may be another's (pid numbers wrap, at 32768 on some
	// machines, soon in a long tournament): telling it its result, as
	// Finish does, stops (rest) no group of that number.
	needBwrap(t)
	p, err := startProgram(`true`, External{Sandbox: true}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	if _, err := p.next(context.Background(), time.Now().Add(time.Minute)); !errors.Is(err, errExited) {
		t.Fatalf("%v; want the bot ended", err)
	}
	p.wake() // should it have rested before its end
	select {
	case <-p.done:
	case <-time.After(time.Minute):
		t.Fatal("the bot did not end")
	}
	// Another group now has the number the bot's had.
	other := exec.Command("sleep", "60")
	other.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = other.Process.Kill()
		_ = other.Wait()
	}()
	p.group = other.Process.Pid
	_ = p.tell([]byte(`{"type": "result"}`))
	// A stop sent would be taken within a moment; a second, on a loaded
	// machine, is plenty.
	time.Sleep(time.Second)
	if states, _ := groupStat(other.Process.Pid, false); !slices.Equal(states, []string{"S"}) {
		t.Errorf("the other group's process is %v; want it sleeping (S), not stopped (T)", states)
	}
}

func TestASandboxedBotsThreadsRestWhileItsProcessWaitsForAChild(t *testing.T) {
	// A process whose main thread waits for a child it made with vfork
	// (until the child runs a program or exits) does not take its group's
	// stop: the kernel hands it to that thread, which cannot stop while it
	// waits. Its other threads, given nothing, ran on through the rest,
	// when the child was stopped before it ran its program. Every thread
	// rests all the same.
	needBwrap(t)
	needPython(t)
	attack := pythonFile(t, `
import ctypes, threading
libc = ctypes.CDLL(None)
def spin():
    while True:
        pass
threading.Thread(target=spin, daemon=True).start()
# clone(CLONE_VFORK | SIGCHLD): this thread waits while the child lives;
# the child (a copy, as after fork) waits for ever.
if libc.syscall(`+strconv.Itoa(unix.SYS_CLONE)+`, 0x4000 | 17, None, None, None, None) == 0:
    while True:
        libc.pause()
`)
	bot := pythonFile(t, `
import subprocess, sys, time
p = subprocess.Popen([sys.executable, sys.argv[1]])
# Until the new process's main thread waits for its child (D).
while True:
    with open("/proc/%d/stat" % p.pid) as f:
        if f.read().rsplit(")", 1)[1].split()[0] == "D":
            break
    time.sleep(0.01)
print("ready", flush=True)
for l in sys.stdin:
    print("answer", flush=True)
`)
	p, err := startProgram("python3 "+bot+" "+attack, External{Sandbox: true}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	if line, err := p.next(context.Background(), time.Now().Add(time.Minute)); err != nil || string(line) != "ready" {
		t.Fatalf("%q, %v", line, err)
	}
	// Every thread stopped, but the one that waits for its child (D).
	restsWithin(t, p.group, true, 1, "after its turn")
}

func TestABwrapThatMakesNoSandboxSaysWhy(t *testing.T) {
	// A bubblewrap that cannot make its sandbox (user namespaces refused,
	// as AppArmor does on some systems) says why on its standard error and
	// exits: a bot's start fails with its words and how it ended, not
	// only that it did not say which process the sandbox's is.
	dir := t.TempDir()
	script := "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(dir, "bwrap"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	p, err := startProgram("true", External{Sandbox: true}, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err == nil {
		p.close()
		t.Fatal("the bot started without its sandbox")
	}
	for _, want := range []string{"setting up uid map: Permission denied", "exited with code 1"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v; want it to say %q", err, want)
		}
	}
}

func TestASandboxedBotOfRootHasBoundedProcesses(t *testing.T) {
	// "Linux does not apply nproc to root": a sandbox Arbiter starts as
	// root runs as root, and its bot could start processes until the
	// machine had no process id left. Since Linux 6.14 the sandbox's PID
	// namespace is bounded instead, to nproc+300 processes and threads.
	needBwrap(t)
	if os.Geteuid() != 0 || !pidMaxPerNamespace() {
		t.Skip("the bound is for root, on Linux 6.14 and later")
	}
	if _, err := exec.LookPath("nsenter"); err != nil {
		t.Skip("nsenter is not installed")
	}
	script := filepath.Join(t.TempDir(), "forks.sh")
	os.WriteFile(script, []byte("(i=0; while [ $i -lt 1000 ]; do sleep 600 & i=$((i+1)); done) 2>/dev/null; echo started; exec sleep 600\n"), 0o644)
	ext := External{Sandbox: true, Limits: Limits{Processes: 20}}
	p, err := startProgram("sh "+script, ext, (&Logs{Dir: t.TempDir()}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	if line, err := p.next(context.Background(), time.Now().Add(2*time.Minute)); err != nil || string(line) != "started" {
		t.Fatalf("%q, %v\n%s", line, err, p.tail.lastLines(5, 2000))
	}
	if states, _ := groupStat(p.group, true); len(states) > 20+reservedPIDs || len(states) < 20 {
		t.Errorf("the bot runs %d processes and threads; want at most %d (nproc 20, and the 300 ids a namespace gives once)", len(states), 20+reservedPIDs)
	}
	if got, _ := os.ReadFile("/proc/sys/kernel/pid_max"); strings.TrimSpace(string(got)) == strconv.Itoa(20+reservedPIDs) {
		t.Errorf("the machine's pid_max is %s: the sandbox's bound was set for the whole machine", got)
	}
}

func TestABotsLastWordsAreInItsLog(t *testing.T) {
	// "Its standard error is kept in a log file": what a bot writes just
	// before it exits is in its log, however far the log's writing lags
	// behind. The log is a pipe here, which the test reads only once the
	// program is gone, so that its last words are still unread in its
	// standard error when its seat closes.
	dir := t.TempDir()
	path := filepath.Join(dir, "game-1-seat-1.log")
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	read := make(chan struct{})
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(path) // until startProgram opens the log
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		<-read
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	// More than the log pipe holds, less than it, the copy's buffer and
	// the program's standard error hold together: the program exits.
	script := `x=$(head -c 90000 /dev/zero | tr "\0" x); echo ready; read go; echo "$x" >&2; echo END >&2`
	p, err := startProgram("sh -c '"+script+"'", External{}, (&Logs{Dir: dir}).seat("x"), engine.MatchInfo{Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.next(context.Background(), time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := p.tell([]byte("go")); err != nil {
		t.Fatal(err)
	}
	<-p.done
	// The log is read once close has closed the program's standard error
	// (which loses what is unread in it), or has not for a moment.
	var fd string
	if rc, err := p.errs.SyscallConn(); err != nil {
		t.Fatal(err)
	} else if err := rc.Control(func(n uintptr) { fd = fmt.Sprintf("/proc/self/fd/%d", n) }); err != nil {
		t.Fatal(err)
	}
	pipe, err := os.Readlink(fd)
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() { p.close(); close(closed) }()
	for start := time.Now(); time.Since(start) < 200*time.Millisecond; time.Sleep(time.Millisecond) {
		if l, err := os.Readlink(fd); err != nil || l != pipe {
			break
		}
	}
	close(read)
	<-closed
	if log := <-got; !strings.HasSuffix(log, strings.Repeat("x", 100)+"\nEND\n") {
		t.Errorf("the log ends %q; want the program's last words, END", log[max(0, len(log)-100):])
	}
}

func TestAForfeitedProgramIsStoppedAtOnce(t *testing.T) {
	// docs/protocol.md: "forfeit plays the default and gives up the seat:
	// it gets default moves to the end of the game, and its program is
	// stopped", at once, not when the game ends: a program that spins in
	// the loop that made it late would take the processor from the seats
	// still playing to the end of the game. So is a seat's program given
	// up for its last strike.
	for _, c := range []struct {
		name   string
		ext    External
		answer string
	}{
		{"forfeits on timeout", External{Expiry: ExpireForfeit}, ""},
		{"strikes out", External{Strikes: 1}, `read req; echo 'not a move'; `},
	} {
		t.Run(c.name, func(t *testing.T) {
			marker := fmt.Sprintf("%d.%d", 900+os.Getpid()%100, time.Now().UnixNano()%1000000)
			c.ext.Logs = &Logs{Dir: t.TempDir()}
			script := `sleep ` + marker + ` & read hello; echo '{"type":"ready"}'; ` + c.answer + `exec sleep 600`
			r := NewRemote[string, string]("exec:sh -c "+strconv.Quote(script), c.ext)
			t.Cleanup(func() { r.Close() })
			if err := startIn(r, 30*time.Second); err != nil {
				t.Fatal(err)
			}
			waitSleepers(t, marker, 1)
			_, err := r.Decide(context.Background(), &engine.Request[string]{ID: 1, Default: "d", Deadline: 100 * time.Millisecond}, "view")
			if !errors.Is(err, engine.ErrForfeit) {
				t.Fatalf("%v; want the seat forfeited", err)
			}
			// The match goes on without it; its program does not.
			for deadline := time.Now().Add(30 * time.Second); len(sleeping(marker)) > 0; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the program of the forfeited seat still runs 30 s after it was given up: %v", sleeping(marker))
				}
			}
			if _, err := r.Decide(context.Background(), &engine.Request[string]{ID: 2, Default: "d", Deadline: time.Second}, "view"); engine.FaultOf(err).Kind != engine.FaultAbandoned {
				t.Errorf("asked again: %v; want the seat abandoned", err)
			}
		})
	}
}
