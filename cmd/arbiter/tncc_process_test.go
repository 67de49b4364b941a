package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A person playing TNCC at a terminal, in the real program on a
// pseudo-terminal (startConsole and expect are process_test.go's).

// expectFirst waits for the first of texts to appear and returns which one
// it was, and the output up to it, which it consumes.
func (c *console) expectFirst(texts ...string) (string, string) {
	c.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		screen := c.screen.String()
		best, at := "", -1
		for _, text := range texts {
			if i := strings.Index(screen, text); i >= 0 && (at < 0 || i < at) {
				best, at = text, i
			}
		}
		if at >= 0 {
			return best, c.expect(best)
		}
		select {
		case s, ok := <-c.out:
			if !ok {
				c.t.Fatalf("the program ended before any of %q; it printed:\n%s", texts, screen)
			}
			c.screen.WriteString(s)
		case <-timeout:
			c.t.Fatalf("none of %q after 20s; the screen holds:\n%s", texts, screen)
		}
	}
}

// finish answers every question that is left, waiting and not defending,
// until the report's last lines, and returns what the person saw.
func (c *console) finish() string {
	c.t.Helper()
	var seen strings.Builder
	for range 100 {
		which, s := c.expectFirst("Your turn, one action: ", "soldiers in all.", "Accept? (yes or no)", "final scores")
		seen.WriteString(s)
		switch which {
		case "Your turn, one action: ":
			seen.WriteString(c.prompt("turn"))
			c.send("wait\r")
		case "soldiers in all.":
			seen.WriteString(c.prompt("war answer"))
			c.send("0 0 0\r")
		case "Accept? (yes or no)":
			seen.WriteString(c.prompt("trade answer"))
			c.send("no\r")
		default:
			return seen.String()
		}
	}
	c.t.Fatal("the game does not end")
	return ""
}

// personMoves reads a seat's moves from a record.
func personMoves(t *testing.T, path string, seat int) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, line := range strings.Split(string(data), "\n") {
		var step struct {
			Seat *int
			Move json.RawMessage
		}
		if json.Unmarshal([]byte(line), &step) == nil && step.Seat != nil && *step.Seat == seat {
			moves = append(moves, string(step.Move))
		}
	}
	return moves
}

func TestTNCCPersonAtTerminal(t *testing.T) {
	// The person sees the board and the action syntax; an illegal action is
	// refused with the rules' reason and asked again; a line that is not an
	// action gets the syntax; tab completes; a legal action is played.
	dir := t.TempDir()
	cfg := tnccConfig(t, "base: default\nmax_cycles: 3\n")
	c, cmd := startConsole(t, "play", "tncc", "--players", "repl,nothing", "--seed", "1", "--config", cfg, "--record", dir)
	seen := c.prompt("turn")
	for _, want := range []string{
		"Cycle 1 of 3 (custom (default) preset). You are country 1.",
		"country", "gold", "food", "citizens", "army", "land",
		" 1 you      600  800      800    0  150", " 2 nothing  600  800      800    0  150",
		"Your turn, one action: wait; recruit N; trade COUNTRY GIVE GIVE_N TAKE TAKE_N;\r\nwar COUNTRY LEFT FRONT RIGHT. War costs 1600 gold.",
	} {
		if !strings.Contains(seen, want) {
			t.Errorf("the first question lacks %q:\n%s", want, seen)
		}
	}
	// More than the citizens: the rules' refusal, and the question again.
	c.send("recruit 99999\r")
	c.expect("refused: recruit 99999: you have 800 citizens")
	c.prompt("turn")
	// Not an action: its syntax.
	c.send("war x\r")
	c.expect("war takes 4 arguments: war COUNTRY LEFT FRONT RIGHT, e.g. war 2 10 0 30")
	c.prompt("turn")
	// tr<TAB> completes to trade; alone it is not a whole action.
	c.send("tr\t\r")
	c.expect("trade takes 5 arguments: trade COUNTRY GIVE GIVE_N TAKE TAKE_N")
	c.prompt("turn")
	// A legal action.
	c.send("recruit 10\r")
	seen = c.expect("Cycle 2 of 3")
	if strings.Contains(seen, "refused") || strings.Contains(seen, "arguments") {
		t.Errorf("recruit 10 is not accepted:\n%s", seen)
	}
	seen = c.prompt("turn")
	if !strings.Contains(seen, "Lately:") || !strings.Contains(seen, "cycle 1: country 1 recruited 10") {
		t.Errorf("the second question does not tell the recruit:\n%s", seen)
	}
	c.send("wait\r")
	seen = c.finish()
	if !strings.Contains(seen, "Cycle 3 of 3") {
		t.Errorf("the person is not asked in cycle 3:\n%s", seen)
	}
	c.expect("faults: none")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
	// The record holds what the person played: the refused lines are not
	// moves, and nothing was defaulted.
	want := `{"type":"recruit","n":10} {"type":"wait"} {"type":"wait"}`
	if got := strings.Join(personMoves(t, filepath.Join(dir, "game-0001.jsonl"), 0), " "); got != want {
		t.Errorf("the record holds the person's moves %s; want %s", got, want)
	}
}

func TestTNCCPersonDefends(t *testing.T) {
	// A person attacked is told who attacks and with how many soldiers in
	// all, never how the attacker split them; a defence larger than the
	// army is refused and asked again.
	dir := t.TempDir()
	// War costs little, so the war bot attacks at once: it recruits 80 in
	// cycle 1 and attacks with them in cycle 2.
	cfg := tnccConfig(t, "base: default\ngold_for_war: 100\nmax_cycles: 3\n")
	c, cmd := startConsole(t, "play", "tncc", "--players", "war,repl", "--seed", "1", "--config", cfg, "--record", dir)
	var screen strings.Builder
	seen := c.prompt("turn")
	screen.WriteString(seen)
	if !strings.Contains(seen, "You are country 2.") || !strings.Contains(seen, "War costs 100 gold.") {
		t.Errorf("the first question:\n%s", seen)
	}
	c.send("recruit 15\r")
	seen = c.expect("soldiers in all.")
	seen += c.prompt("war answer")
	screen.WriteString(seen)
	if !strings.Contains(words(seen), "Country 1 attacks you with 80 soldiers in all. You have 15. Defend with LEFT FRONT RIGHT, the soldiers on each flank (e.g. 5 5 5).") {
		t.Errorf("the attack, as the person sees it:\n%s", seen)
	}
	// More soldiers than the army: refused, with the army's size.
	c.send("10 10 10\r")
	screen.WriteString(c.expect("refused: defence: 10, 10 and 10 soldiers on the flanks, and the army has 15"))
	screen.WriteString(c.prompt("war answer"))
	// Not a defence: told what one is.
	c.send("yes\r")
	screen.WriteString(c.expect("you are attacked: a defence is three numbers: LEFT FRONT RIGHT"))
	screen.WriteString(c.prompt("war answer"))
	c.send("5 5 5\r")
	// The war as everyone may read it: what each side sent, what was left.
	seen = c.expect("Your turn, one action: ")
	screen.WriteString(seen)
	if !strings.Contains(seen, "cycle 2: country 1 attacked country 2: 80 against 15;") {
		t.Errorf("the person's next view does not tell the war:\n%s", seen)
	}
	screen.WriteString(c.prompt("turn"))
	c.send("wait\r")
	screen.WriteString(c.finish())
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}

	// The person defended with 5 5 5, after the refused answers.
	path := filepath.Join(dir, "game-0001.jsonl")
	moves := personMoves(t, path, 1)
	if len(moves) < 2 || moves[0] != `{"type":"recruit","n":15}` || moves[1] != `{"flanks":[5,5,5]}` {
		t.Errorf("the person's moves in the record: %v", moves)
	}
	// The attacker's flanks are in the record, never on the person's screen.
	for _, m := range personMoves(t, path, 0) {
		var mv struct {
			Type   string
			Flanks []int64
		}
		if json.Unmarshal([]byte(m), &mv) != nil || mv.Type != "war" {
			continue
		}
		f := mv.Flanks
		for _, split := range []string{
			fmt.Sprintf("%d %d %d", f[0], f[1], f[2]),
			fmt.Sprintf("%d, %d and %d", f[0], f[1], f[2]),
			fmt.Sprintf("[%d,%d,%d]", f[0], f[1], f[2]),
			fmt.Sprintf("[%d %d %d]", f[0], f[1], f[2]),
		} {
			if strings.Contains(screen.String(), split) {
				t.Errorf("the person sees the attacker's flanks %q:\n%s", split, screen.String())
			}
		}
	}
	if strings.Contains(strings.ToLower(screen.String()), "flanks [") {
		t.Errorf("the person sees flanks:\n%s", screen.String())
	}
	if code, out, errOut := arbiter(t, "", "replay", path); code != 0 {
		t.Errorf("replay: exit %d %s%s", code, out, errOut)
	}
}

func TestTNCCPersonToldOfTheirDeathAndStanding(t *testing.T) {
	// A person whose country dies is told at once, and why, while the
	// others play on; at the end, before the report, where they finished.
	cfg := tnccConfig(t, "base: default\nmax_cycles: 3\n")
	c, cmd := startConsole(t, "play", "tncc", "--players", "repl,nothing,nothing", "--seed", "1", "--config", cfg)
	c.prompt("turn")
	c.send("recruit 800\r")
	seen := c.expect("You finished 3rd of 3.")
	flat := words(seen)
	if !strings.Contains(flat, "Your country died in cycle 1: you sent your last citizens to the army; the others play on to the end.") {
		t.Errorf("the person is not told of their death:\n%s", seen)
	}
	if strings.Contains(seen, "final scores") || strings.Contains(seen, "turn [") {
		t.Errorf("the person is asked again, or the report comes first:\n%s", seen)
	}
	c.expect("final scores")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
}
