package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// These tests run the real arbiter binary: the signal handling and the
// terminal can only be tested in a process of their own.

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

func arbiterBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "arbiter-test-")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "arbiter")
		out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

func TestInterruptKeepsRecords(t *testing.T) {
	// "A record is complete even when play is interrupted (Ctrl-C): the
	// moves so far and an aborted line, for the game in progress."
	// A person plays the first game to its end, then is asked in the
	// second and never answers: the signal finds that game in progress
	// however slow the machine is.
	dir := t.TempDir()
	cmd := exec.Command(arbiterBinary(t), "play", "ajveciv", "--games", "3", "--turns", "2", "--seed", "1", "--players", "repl,basic",
		"--record", dir, "--report", filepath.Join(dir, "report.json"))
	c := attachConsole(t, cmd, 100)
	for range 2 {
		c.prompt("turn")
		c.send("1\r")
	}
	c.prompt("turn") // the second game's first turn: two turns a game
	cmd.Process.Signal(os.Interrupt)
	c.expect("interrupted")
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("exit %v; want 3 (interrupted)", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "game-*.jsonl"))
	if len(files) != 2 {
		t.Fatalf("records %v; want the finished game's and the interrupted one's", files)
	}
	last := files[len(files)-1]
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		end := lines[len(lines)-1]
		switch {
		case f == last && !strings.HasPrefix(end, `{"aborted":"interrupted","lines":"sha256:`):
			t.Errorf("%s: the game in progress ends with %s; want the aborted line", f, end)
		case f != last && !strings.HasPrefix(end, `{"result":`):
			t.Errorf("%s: a finished game ends with %s", f, end)
		}
		// Every record, the interrupted one too, replays.
		code, out, errOut := arbiter(t, "", "replay", f)
		if code != 0 {
			t.Errorf("replay %s: exit %d %s %s", f, code, out, errOut)
		}
	}
	var games []struct{ Aborted string }
	data, _ := os.ReadFile(filepath.Join(dir, "report.json"))
	if err := json.Unmarshal(data, &games); err != nil || len(games) != len(files) || games[len(games)-1].Aborted != "interrupted" {
		t.Errorf("the report holds %d games (%v); want the %d recorded, the last aborted", len(games), err, len(files))
	}
}

// console drives a process on a pseudo-terminal.
type console struct {
	t      *testing.T
	pty    *os.File
	out    chan string
	screen strings.Builder
}

func startConsole(t *testing.T, args ...string) (*console, *exec.Cmd) {
	t.Helper()
	return startConsoleCols(t, 200, args...)
}

// startConsoleCols starts arbiter on a pseudo-terminal of cols columns.
func startConsoleCols(t *testing.T, cols uint16, args ...string) (*console, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(arbiterBinary(t), args...)
	return attachConsole(t, cmd, cols), cmd
}

// attachConsole starts cmd on a pseudo-terminal of cols columns, for its
// standard input, output and error save those cmd sets itself.
func attachConsole(t *testing.T, cmd *exec.Cmd, cols uint16) *console {
	t.Helper()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: cols})
	if err != nil {
		t.Fatal(err)
	}
	c := &console{t: t, pty: f, out: make(chan string, 1024)}
	go func() {
		r := bufio.NewReader(f)
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				c.out <- string(buf[:n])
			}
			if err != nil {
				close(c.out)
				return
			}
		}
	}()
	t.Cleanup(func() { f.Close(); cmd.Process.Kill(); cmd.Wait() })
	return c
}

// expect waits for text to appear in the output after what was consumed.
func (c *console) expect(text string) string {
	c.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		if i := strings.Index(c.screen.String(), text); i >= 0 {
			seen := c.screen.String()[:i+len(text)]
			rest := c.screen.String()[i+len(text):]
			c.screen.Reset()
			c.screen.WriteString(rest)
			return seen
		}
		select {
		case s, ok := <-c.out:
			if !ok {
				c.t.Fatalf("the program ended before %q; it printed:\n%s", text, c.screen.String())
			}
			c.screen.WriteString(s)
		case <-timeout:
			c.t.Fatalf("no %q after 20s; the screen holds:\n%s", text, c.screen.String())
		}
	}
}

// prompt waits for the prompt of a question of kind, which names its
// default move ("turn [consent]> "), and returns the output up to it.
func (c *console) prompt(kind string) string {
	c.t.Helper()
	seen := c.expect(kind + " [")
	return seen + c.expect("]> ")
}

func (c *console) send(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.pty, s); err != nil {
		c.t.Fatal(err)
	}
}

func TestPersonAtTerminal(t *testing.T) {
	// "repl: a person at the terminal. Each decision shows the turn (and
	// whether it is an inflection), world yield, the feels matrix, and every
	// society's yield, population and values, marking the person's own; then
	// the offered choices, with tab completion; an answer that is not offered
	// is refused with the list and asked again. No deadline unless one is
	// given."
	dir := t.TempDir()
	c, cmd := startConsole(t, "play", "ajveciv", "--players", "basic.develop,repl", "--turns", "11", "--seed", "5", "--record", dir)
	seen := c.prompt("turn")
	for _, want := range []string{"Turn 1 of 11", "world yield 20", "you→", "→you", "pop", "con exc dis exp dev cns", ">2 you", "basic.develop", "You are society 2. Offered:", "Choose 1 ", "Enter plays "} {
		if !strings.Contains(seen, want) {
			t.Errorf("the first question lacks %q:\n%s", want, seen)
		}
	}
	// A value that is not offered is refused, with the list.
	offered := offeredValues(seen)
	notOffered := "conquer"
	for _, v := range []string{"conquer", "exchange", "discover", "expand", "develop", "consent"} {
		if !strings.Contains(strings.Join(offered, " "), v) {
			notOffered = v
			break
		}
	}
	c.send(notOffered + "\r")
	c.expect(`"` + notOffered + `" is not offered; choose 1 `)
	c.prompt("turn")
	// Tab completes an offered value from its first four letters.
	c.send(offered[1][:4] + "\t\r")
	var chosen []string
	chosen = append(chosen, offered[1])
	// Answer the rest by number, through the inflection after turn 10.
	for turn := 2; turn <= 11; turn++ {
		c.expect(fmt.Sprintf("Turn %d of 11", turn))
		seen = c.prompt("turn")
		c.send("1\r")
		chosen = append(chosen, offeredValues(seen)[0])
		if turn == 10 {
			c.expect("Inflection after turn 10 of 11")
			seen = c.prompt("inflection")
			c.send("1\r")
			chosen = append(chosen, offeredValues(seen)[0])
		}
	}
	c.expect("faults:")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
	// The record holds what the person chose.
	data, err := os.ReadFile(filepath.Join(dir, "game-0001.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(string(data), "\n") {
		var step struct {
			Seat *int
			Move string
		}
		if json.Unmarshal([]byte(line), &step) == nil && step.Seat != nil && *step.Seat == 1 {
			got = append(got, step.Move)
		}
	}
	if strings.Join(got, " ") != strings.Join(chosen, " ") {
		t.Errorf("the record holds %v; the person chose %v", got, chosen)
	}
}

// offeredValues reads the offered values from a question's "Choose 1 a, 2 b
// or 3 c" line.
func offeredValues(screen string) []string {
	i := strings.LastIndex(screen, "Choose ")
	line := screen[i+len("Choose "):]
	line = line[:strings.Index(line, " (")]
	var out []string
	for _, part := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' }) {
		part = strings.TrimSpace(strings.Replace(part, " or ", ", ", 1))
		for _, p := range strings.Split(part, ", ") {
			fields := strings.Fields(p)
			if len(fields) == 2 {
				out = append(out, fields[1])
			}
		}
	}
	return out
}

func TestPersonCtrlC(t *testing.T) {
	// Ctrl-C at the prompt stops play like Ctrl-C anywhere: the record ends
	// with an aborted line, and the terminal is given back.
	dir := t.TempDir()
	c, cmd := startConsole(t, "play", "ajveciv", "--players", "repl,basic", "--record", dir)
	c.prompt("turn")
	c.send("1\r")
	c.expect("Turn 2 of 100")
	c.prompt("turn")
	c.send("\x03")
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("exit %v; want 3", err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "game-0001.jsonl"))
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if !strings.HasPrefix(lines[len(lines)-1], `{"aborted":"interrupted","lines":"sha256:`) || len(lines) != 1+7+1 {
		t.Errorf("the record:\n%s\nwant the header, the first turn's 7 moves and the aborted line", data)
	}
	_ = syscall.SIGINT
}

func TestPersonDeadline(t *testing.T) {
	// "--deadline (per decision for bots; default 1s; people have none
	// unless given)": given, a person who does not answer gets the first
	// offered choice, and is told so; the fault is recorded.
	dir := t.TempDir()
	c, cmd := startConsole(t, "play", "ajveciv", "--players", "repl,basic.develop", "--turns", "2", "--seed", "3",
		"--deadline", "300ms", "--record", dir)
	seen := c.prompt("turn")
	first := offeredValues(seen)[0]
	if !strings.Contains(seen, "You have 300ms.") {
		t.Errorf("the person is not told the deadline:\n%s", seen)
	}
	c.expect("Time is up: " + first + " is played for you.")
	c.expect("Turn 2 of 2")
	c.expect("Time is up:")
	c.expect("faults:")
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "game-0001.jsonl"))
	if n := strings.Count(string(data), `"fault":{"kind":"timeout"`); n != 2 {
		t.Errorf("%d timeouts recorded; want 2:\n%s", n, data)
	}
}

func TestABotCannotReachTheTerminal(t *testing.T) {
	// A bot has no terminal: Arbiter's, where a person plays and the
	// report is shown, is not its to write to, to change, or to type into
	// (a bot that opened /dev/tty could leave it without echo after
	// Arbiter exits, or push keystrokes into the shell that runs next
	// with TIOCSTI).
	bin := arbiterBinary(t)
	dir := t.TempDir()
	bot := shellBot(t, `trap '' TTOU
if { printf 'BOT-ON-THE-TERMINAL' > /dev/tty; } 2>/dev/null; then
  echo 'terminal: opened' >&2
  stty -echo < /dev/tty
else
  echo 'terminal: none' >&2
fi
`, "", `{\"type\":\"move\",\"id\":$id,\"move\":\"adapt\"}`)
	logs := filepath.Join(dir, "logs")
	cmd := exec.Command(bin, "play", "reaj", "--turns", "1", "--seed", "1", "--players", "adapt",
		"--player", "exec:sh "+bot, "--bot-logs", logs, "--report", "summary")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	echo := func() bool {
		tio, err := unix.IoctlGetTermios(int(f.Fd()), ioctlGetTermios)
		if err != nil {
			t.Fatal(err)
		}
		return tio.Lflag&unix.ECHO != 0
	}
	echoed := echo()
	screen := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(f) // until the terminal's last writer is gone
		screen <- string(b)
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("arbiter: %v", err)
		}
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatal("arbiter did not end")
	}
	var shown string
	select {
	case shown = <-screen:
	case <-time.After(time.Minute):
		t.Fatal("the terminal is still held open")
	}
	if strings.Contains(shown, "BOT-ON-THE-TERMINAL") {
		t.Errorf("the bot wrote on Arbiter's terminal:\n%s", shown)
	}
	if echo() != echoed {
		t.Errorf("the bot changed the terminal: its echo is %v, was %v", echo(), echoed)
	}
	if log := mustRead(t, filepath.Join(logs, "game-1-seat-2.log")); !strings.Contains(log, "terminal: none") {
		t.Errorf("the bot's log:\n%s\nwant it to have found no terminal", log)
	}
}

func TestPersonPlaysWhenTheReportGoesToAFile(t *testing.T) {
	// arbiter play ... > report.txt at a terminal: the person sees the
	// board and the prompts at the terminal (standard error), and the
	// file holds the report alone.
	dir := t.TempDir()
	report, err := os.Create(filepath.Join(dir, "report.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer report.Close()
	cmd := exec.Command(arbiterBinary(t), "play", "ajveciv", "--players", "repl,basic", "--turns", "2", "--seed", "1")
	cmd.Stdout = report
	c := attachConsole(t, cmd, 100)
	seen := c.prompt("turn")
	if !strings.Contains(seen, "Turn 1 of 2") || !strings.Contains(seen, ">1 you") {
		t.Errorf("the terminal does not show the board:\n%s", seen)
	}
	c.send("help\r")
	if seen := c.prompt("turn"); !strings.Contains(seen, "Enter alone plays") || strings.Contains(seen, "Tab completes") {
		t.Errorf("help promises what the prompt does not do, or is not shown:\n%s", seen)
	}
	c.send("1\r")
	c.expect("Turn 2 of 2")
	c.prompt("turn")
	c.send("1\r")
	c.expect("You finished")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
	data, err := os.ReadFile(report.Name())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "game 1: ajveciv") || strings.Contains(string(data), "turn [") {
		t.Errorf("the file holds more than the report:\n%s", data)
	}
}

func TestAStoppedGameSaysWhereItIsKept(t *testing.T) {
	// A person who types quit is told where the games so far are: the
	// records only when --record keeps them, the report's file when it
	// has one.
	bin := arbiterBinary(t)
	dir := t.TempDir()
	for _, c := range []struct {
		flags      []string
		want, lack string
	}{
		{nil, "interrupted; the report holds the games so far (--record DIR keeps each game's record, to replay)", "records"},
		{[]string{"--record", dir}, "interrupted; the records in " + dir + " and the report hold the games so far", "--record DIR"},
		{[]string{"--report", filepath.Join(dir, "r.txt")}, "the report in " + filepath.Join(dir, "r.txt") + " holds the games so far", "records in"},
	} {
		args := append([]string{"play", "ajveciv", "--players", "repl,basic", "--turns", "3", "--seed", "1"}, c.flags...)
		cmd := exec.Command(bin, args...)
		cmd.Stdin = strings.NewReader("1\nquit\n")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 3 {
			t.Errorf("%v: exit %v; want 3\n%s", c.flags, err, stderr.String())
		}
		if got := stderr.String(); !strings.Contains(got, c.want) || strings.Contains(got, c.lack) {
			t.Errorf("%v: stderr %q; want %q, without %q", c.flags, got, c.want, c.lack)
		}
	}
}

func TestEveryPlayHelpShowsHowToPlayYourself(t *testing.T) {
	// arbiter play GAME --help shows a line that seats the person who reads
	// it, and the line plays: a piped quit stops it as Ctrl-C does.
	bin := arbiterBinary(t)
	if _, help, _ := arbiter(t, "", "--help"); !strings.Contains(help, "arbiter play ajveciv --players repl,basic  you play against them") {
		t.Errorf("arbiter --help starts nobody playing:\n%s", help)
	}
	for _, g := range catalog.Games() {
		name := g.Info().Name
		code, help, errOut := arbiter(t, "", "play", name, "--help")
		if code != 0 {
			t.Fatalf("%s --help: exit %d %s", name, code, errOut)
		}
		prefix := "  arbiter play " + name + " --players repl,"
		i := strings.Index(help, prefix)
		if i < 0 {
			t.Errorf("arbiter play %s --help shows no way to play yourself:\n%s", name, help)
			continue
		}
		line := strings.TrimSpace(help[i : i+strings.IndexByte(help[i:], '\n')])
		cmd := exec.Command(bin, append(strings.Fields(line)[1:], "--seed", "1")...)
		cmd.Stdin = strings.NewReader("quit\n")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 3 || !strings.Contains(stderr.String(), "interrupted") {
			t.Errorf("%s: exit %v, %s; want the person's quit (3)", line, err, stderr.String())
		}
	}
}
