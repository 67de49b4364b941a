package main

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

// A newcomer at an 80-column terminal: every line of a board fits, Enter
// plays the default the prompt names, help explains, a typo gets the
// closest choice, and a person with nothing to answer on is refused.

// fits fails unless every line of screen is at most 80 columns wide.
func fits(t *testing.T, screen string) {
	t.Helper()
	for _, line := range strings.Split(screen, "\n") {
		line = strings.TrimRight(line, "\r")
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("a line of %d columns at an 80-column terminal:\n%s", n, line)
		}
	}
}

func TestReajNewcomerAtTerminal(t *testing.T) {
	// "Enter plays the default, and the prompt names it" (Reaj's default is
	// adapt, not the first choice); help; the closest choice on a typo; the
	// players' names and last turn's choices on a board of 80 columns.
	c, cmd := startConsoleCols(t, 80, "play", "reaj", "--players", "repl,steward,conquer", "--turns", "3", "--seed", "2")
	seen := c.prompt("turn")
	fits(t, seen)
	for _, want := range []string{"Turn 1 of 3", "steward", "conquer", "Enter plays adapt", "turn [adapt]> "} {
		if !strings.Contains(seen+"]> ", want) {
			t.Errorf("the first question lacks %q:\n%s", want, seen)
		}
	}
	c.send("help\r")
	c.expect("ecology +1")
	c.expect("Enter alone plays adapt.")
	c.prompt("turn")
	c.send("consnet\r")
	c.expect(`"consnet" is not offered; did you mean consent?`)
	c.prompt("turn")
	c.send("\r")
	seen = c.expect("Turn 2 of 3")
	seen += c.prompt("turn")
	fits(t, seen)
	// The person's own row says adapt, played by Enter.
	if !strings.Contains(seen, ">1 you") || !strings.Contains(seen, "adapt\r\n") && !strings.Contains(seen, "adapt\n") {
		t.Errorf("last turn's choices do not show the person's adapt:\n%s", seen)
	}
	c.send("consent\r")
	c.prompt("turn")
	c.send("\r")
	rest := c.expect("faults: none")
	fits(t, rest)
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}

func TestPersonWithNothingToAnswerOn(t *testing.T) {
	// "arbiter play ajveciv --players repl,repl </dev/null prints ~1,500
	// lines and exits 0: a person seat with no terminal and no input is
	// refused up front."
	cmd := exec.Command(arbiterBinary(t), "play", "ajveciv", "--players", "repl,repl")
	out, err := cmd.Output()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || len(out) != 0 ||
		!strings.Contains(string(exit.Stderr), "a person (repl) answers at a terminal, and standard input is a device that is not one") {
		t.Fatalf("exit %v, stdout %q, stderr %q; want exit 2, nothing played, and why", err, out, exit.Stderr)
	}
	// Answers piped in are played; when they run out, play stops rather
	// than play the person's seat by defaults.
	cmd = exec.Command(arbiterBinary(t), "play", "ajveciv", "--players", "repl,basic", "--seed", "1")
	cmd.Stdin = strings.NewReader("1\n2\n")
	out, err = cmd.Output()
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(exit.Stderr), "standard input ended before the game did") ||
		!strings.Contains(string(out), "not finished: the person's input ended") || strings.Count(string(out), "Turn ") != 3 {
		t.Errorf("exit %v, stderr %q; want exit 2 after the third question; stdout:\n%s", err, exit.Stderr, out)
	}
	// Each answer piped in is shown after its prompt, as a terminal shows
	// what is typed: "turn [consent]> 1", not a prompt with nothing after
	// it and the next line glued on.
	for _, want := range []string{"turn [consent]> 1\n", "turn [discover]> 2\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
}

func TestEveryBoardAtEightyColumns(t *testing.T) {
	// "A person who has never seen the seeds plays each game at an
	// 80-column terminal": every game's board and question fit, name the
	// players, and take Enter for the default, through a few questions.
	for _, game := range []struct {
		name, players, kind string
		want                []string
	}{
		{"ajveciv", "repl,basic", "turn", []string{"basic.conquer", "you→", "Offered:"}},
		{"reaj", "repl,fixed", "turn", []string{"conquer", "adp adapt", "Upkeep"}},
		{"tncc", "repl,blitz,turtle,war", "turn", []string{"blitz", "War costs"}},
		{"territories", "repl,greedy,random", "join", []string{"Map:", "WA Washington", "your nation is Amber"}},
		{"zombie", "repl,sensible,cautious,spreader,random", "plan", []string{"P2 sensible", "What you have been told:", "Plan your turn"}},
	} {
		t.Run(game.name, func(t *testing.T) {
			c, cmd := startConsoleCols(t, 80, "play", game.name, "--players", game.players, "--seed", "3")
			seen := c.prompt(game.kind)
			fits(t, seen)
			for _, want := range game.want {
				if !strings.Contains(seen, want) {
					t.Errorf("the first question lacks %q:\n%s", want, seen)
				}
			}
			for range 3 {
				c.send("\r")
				which, s := c.expectFirst("]> ", "faults:")
				fits(t, s)
				if which == "faults:" {
					break
				}
			}
			cmd.Process.Kill()
		})
	}
}

func TestLongSeriesAtATerminal(t *testing.T) {
	// "arbiter play ajveciv --games 1000 prints 30,008 lines with the
	// summary at the end": on a terminal a long series prints its standings,
	// with confidence intervals, and not every game unless asked.
	c, cmd := startConsoleCols(t, 80, "play", "ajveciv", "--games", "50", "--seed", "1")
	seen := c.expect("(score: yield plus population)")
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"50 games: the standings only; --report text prints every game", "series: 50 games, 50 finished", "win rate (95% CI)", "mean score (95% CI)"} {
		if !strings.Contains(seen, want) {
			t.Errorf("the terminal lacks %q:\n%s", want, seen)
		}
	}
	if strings.Contains(seen, "game 1:") {
		t.Errorf("the games were printed:\n%s", seen)
	}
	fits(t, seen)
	// Asked, every game.
	c, cmd = startConsoleCols(t, 80, "play", "ajveciv", "--games", "12", "--turns", "2", "--seed", "1", "--report", "text")
	seen = c.expect("series: 12 games")
	cmd.Wait()
	if !strings.Contains(seen, "game 12:") {
		t.Errorf("--report text at a terminal does not print every game:\n%s", seen)
	}
}

func TestTerritoriesJoinByName(t *testing.T) {
	// "at the join prompt accept a territory's id, name or alias (CA is
	// refused today)"; then the person is told what happened, their own
	// join included.
	c, cmd := startConsoleCols(t, 80, "play", "territories", "--players", "repl,greedy,random", "--seed", "3")
	c.prompt("join")
	c.send("Califronia\r")
	c.expect(`unknown territory "Califronia"; the closest are CA (California)`)
	c.prompt("join")
	c.send("Cali\r")
	seen := c.expect("Since your last action:")
	seen += c.prompt("action")
	fits(t, seen)
	if !strings.Contains(seen, "seat 1 founds Amber at CA") {
		t.Errorf("the join is not told:\n%s", seen)
	}
	cmd.Process.Kill()
}
