package player

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/shell"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/google/go-cmp/cmp"
)

func TestParseList(t *testing.T) {
	got, err := ParseList(" basic.discover, repl ,random")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"basic.discover", "repl", "random"}, got); diff != "" {
		t.Error(diff)
	}
	for _, bad := range []string{"", " ", "a,,b", "a,", ",a", "a\x00b"} {
		if _, err := ParseList(bad); err == nil {
			t.Errorf("ParseList(%q) accepted", bad)
		}
	}
}

func TestSpecs(t *testing.T) {
	got, err := Specs("basic,random", []string{"exec:python3 bot.py --level 1,2", "repl"}, "basic")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"basic", "random", "exec:python3 bot.py --level 1,2", "repl"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	if got, _ := Specs("", nil, "basic"); !cmp.Equal(got, []string{"basic"}) {
		t.Errorf("defaults: %v", got)
	}
	// A lone --player joins the default players.
	if got, _ := Specs("", []string{"exec:python3 bot.py"}, "nothing,turtle"); !cmp.Equal(got, []string{"nothing", "turtle", "exec:python3 bot.py"}) {
		t.Errorf("a lone --player: %v", got)
	}
	if _, err := Specs("", []string{"  "}, "basic"); err == nil {
		t.Error("an empty --player accepted")
	}
}

func FuzzParseList(f *testing.F) {
	for _, s := range []string{"basic", "basic.discover,basic2.conquer-exchange,repl", ",", "a, b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		names, err := ParseList(s)
		if err != nil {
			return
		}
		for _, n := range names {
			if n == "" || strings.TrimSpace(n) != n || strings.Contains(n, ",") {
				t.Fatalf("ParseList(%q) gave name %q", s, n)
			}
		}
	})
}

func TestResolve(t *testing.T) {
	bots := func(name string) ([]engine.Entrant[string, string], error) {
		switch name {
		case "pair":
			return []engine.Entrant[string, string]{{Name: "pair.a"}, {Name: "pair.b"}}, nil
		case "one":
			return []engine.Entrant[string, string]{{Name: "one"}}, nil
		}
		return nil, fmt.Errorf("unknown player %q; players are pair, one", name)
	}
	es, err := Resolve([]string{"pair", "repl", "one"}, bots, func() engine.Player[string, string] { return nil }, External{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name)
	}
	if diff := cmp.Diff([]string{"pair.a", "pair.b", "repl", "one"}, names); diff != "" {
		t.Error(diff)
	}
	if !es[2].Person || es[0].Person {
		t.Error("only repl is a person")
	}
	_, err = Resolve([]string{"nobody"}, bots, func() engine.Player[string, string] { return nil }, External{})
	if err == nil || !strings.Contains(err.Error(), `unknown player "nobody"`) || !strings.Contains(err.Error(), "repl") {
		t.Errorf("error %v; want the unknown name and the known ones, repl among them", err)
	}
	// Where no person may sit (person is nil: a tournament), repl is
	// not offered.
	_, err = Resolve([]string{"nobody"}, bots, nil, External{})
	if err == nil || !strings.Contains(err.Error(), `unknown player "nobody"`) || strings.Contains(err.Error(), "repl") {
		t.Errorf("error %v; want the unknown name and the known ones, repl not among them", err)
	}
}

func TestResolveHintsAtExecForAProgram(t *testing.T) {
	// A command given without its exec: is told how to give it: a name
	// with words, a script's, or a file's.
	bots := func(name string) ([]engine.Entrant[string, string], error) {
		return nil, fmt.Errorf("unknown player %q; players are one", name)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("mybot", []byte("#!/bin/sh\n"), 0o755)
	for _, spec := range []string{"python3 bot/mybot.py", "mybot.py", "bots/mybot.js", "mybot"} {
		_, err := Resolve([]string{spec}, bots, nil, External{})
		want := fmt.Sprintf("a program of yours is given as exec:COMMAND: --player %q", "exec:"+spec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", spec, err, want)
		}
	}
	for _, spec := range []string{"nobody", "basic.develop"} {
		if _, err := Resolve([]string{spec}, bots, nil, External{}); err == nil || strings.Contains(err.Error(), "--player \"exec:") {
			t.Errorf("%s: %v; want no word of a program", spec, err)
		}
	}
}

func TestResolveHintsAtTheBotInACopiedStarter(t *testing.T) {
	// cp -r starters/python mybot, then --player mybot (or arbiter duel
	// GAME mybot blitz): the directory was refused as an unknown player,
	// with a list of bots. The refusal now names the command that runs
	// the starter's bot in it.
	bots := func(name string) ([]engine.Entrant[string, string], error) {
		return nil, fmt.Errorf("unknown player %q; players are one", name)
	}
	t.Chdir(t.TempDir())
	for dir, file := range map[string]string{"py": "bot.py", "js": "bot.js", "go": "bot", "my bot": "bot.py", "it's": "bot"} {
		os.Mkdir(dir, 0o755)
		os.WriteFile(filepath.Join(dir, file), []byte("#!/bin/sh\n"), 0o755)
	}
	os.Mkdir("empty", 0o755)
	for spec, want := range map[string]string{
		"py": `py is a directory, and the bot in it plays as "exec:python3 py/bot.py"`,
		"js": `js is a directory, and the bot in it plays as "exec:node js/bot.js"`,
		"go": `go is a directory, and the bot in it plays as "exec:go/bot"`,
		// A name a shell would read apart is quoted, so that the command
		// runs as shown.
		"my bot": `my bot is a directory, and the bot in it plays as "exec:python3 'my bot/bot.py'"`,
		"it's":   `it's is a directory, and the bot in it plays as "exec:'it'\\''s/bot'"`,
		"empty":  "",
	} {
		_, err := Resolve([]string{spec}, bots, nil, External{})
		switch {
		case err == nil:
			t.Errorf("%s: taken", spec)
		case want == "" && strings.Contains(err.Error(), "is a directory"):
			t.Errorf("%s: %v; want no word of a bot in it", spec, err)
		case want != "" && !strings.Contains(err.Error(), want):
			t.Errorf("%s: %v; want %q", spec, err, want)
		}
	}
}

// colour is a move with a text form.
type colour string

func (c colour) MarshalText() ([]byte, error) { return []byte(c), nil }
func (c *colour) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		return errors.New("empty")
	}
	*c = colour(b)
	return nil
}

type board string

func (b board) String() string { return "BOARD " + string(b) + "\n" }

func ask(t *testing.T, input string, req engine.Request[colour]) (colour, string, error) {
	t.Helper()
	var out bytes.Buffer
	term := &Terminal[colour, board]{In: strings.NewReader(input), Out: &out}
	mv, err := term.Decide(context.Background(), &req, board("x"))
	return mv, out.String(), err
}

func TestTerminalAnswers(t *testing.T) {
	req := engine.Request[colour]{Kind: "turn", Choices: []colour{"red", "green", "grey"}, Default: "red"}
	cases := []struct{ input, want string }{
		{"green\n", "green"},
		{"GREEN\n", "green"},
		{"2\n", "green"},
		{"re\n", "red"},
		{"  grey  \n", "grey"},
		{"gr\nblue\n4\ngrey\n", "grey"}, // ambiguous, not offered, out of range, then good
		{"red", "red"},                  // no final newline
	}
	for _, c := range cases {
		mv, out, err := ask(t, c.input, req)
		if err != nil || string(mv) != c.want {
			t.Errorf("input %q: got %q, %v; want %q\n%s", c.input, mv, err, c.want, out)
		}
		if !strings.Contains(out, "BOARD x") || !strings.Contains(out, "Choose 1 red, 2 green or 3 grey") || !strings.Contains(out, "Enter plays red") || !strings.Contains(out, "turn [red]> ") {
			t.Errorf("input %q: the prompt lacks the view or the choices:\n%s", c.input, out)
		}
	}
	_, out, _ := ask(t, "blue\nred\n", req)
	if !strings.Contains(strings.Join(strings.Fields(out), " "), `"blue" is not offered; choose 1 red, 2 green or 3 grey`) {
		t.Errorf("a refused answer must be told with the list:\n%s", out)
	}
}

func TestTerminalOpenMoves(t *testing.T) {
	mv, _, err := ask(t, "violet\n", engine.Request[colour]{Kind: "turn", Default: "red"})
	if err != nil || mv != "violet" {
		t.Errorf("got %q, %v", mv, err)
	}
}

func TestTerminalEnterPlaysTheDefault(t *testing.T) {
	// The prompt names the default, and an empty line plays it, whether
	// the default is the first choice or not.
	for _, req := range []engine.Request[colour]{
		{Kind: "turn", Choices: []colour{"red", "green", "grey"}, Default: "grey"},
		{Kind: "turn", Default: "wait"},
	} {
		mv, out, err := ask(t, "\n", req)
		if err != nil || mv != req.Default {
			t.Errorf("Enter gave %q, %v; want the default %q", mv, err, req.Default)
		}
		if want := fmt.Sprintf("Enter plays %s", req.Default); !strings.Contains(out, want) || !strings.Contains(out, "turn ["+string(req.Default)+"]> ") {
			t.Errorf("the prompt does not name the default %q:\n%s", req.Default, out)
		}
	}
}

// guarded suggests "shield" for Enter where the default is "nothing".
type guarded string

func (guarded) Suggest(req *engine.Request[colour]) (colour, string, bool) {
	return "shield", "the default holds no shield", req.Default == "nothing"
}

func TestTerminalEnterPlaysTheViewsSuggestion(t *testing.T) {
	// Where the view suggests better than the default (the move of the
	// slow), Enter plays the suggestion and the prompt says why; the
	// default is what time running out plays.
	var out bytes.Buffer
	term := &Terminal[colour, guarded]{In: strings.NewReader("\n"), Out: &out}
	req := engine.Request[colour]{Kind: "answer", Default: "nothing"}
	mv, err := term.Decide(context.Background(), &req, guarded(""))
	if err != nil || mv != "shield" {
		t.Fatalf("Enter gave %q, %v; want the suggestion\n%s", mv, err, out.String())
	}
	for _, want := range []string{"Enter plays shield (the default holds no shield)", "answer [shield]> "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the terminal lacks %q:\n%s", want, out.String())
		}
	}
	// No suggestion: Enter plays the default.
	out.Reset()
	term = &Terminal[colour, guarded]{In: strings.NewReader("\n"), Out: &out}
	req = engine.Request[colour]{Kind: "answer", Default: "wait"}
	if mv, err := term.Decide(context.Background(), &req, guarded("")); err != nil || mv != "wait" {
		t.Errorf("Enter gave %q, %v; want the default", mv, err)
	}
}

func TestTerminalHelpAndTypos(t *testing.T) {
	req := engine.Request[colour]{Kind: "turn", Choices: []colour{"conquer", "exchange", "develop"}, Default: "conquer"}
	mv, out, err := ask(t, "help\nexchnage\ndevlop\ncolour\n3\n", req)
	if err != nil || mv != "develop" {
		t.Fatalf("got %q, %v", mv, err)
	}
	for _, want := range []string{
		"Answer with one of 1 conquer, 2 exchange or 3 develop: its name (any case), the start of it, or its number.",
		"Enter alone plays conquer.",
		// Whether a record is kept, the terminal does not know: the game's
		// stop says where the moves are (arbiter play), help does not guess.
		"Ctrl-C, quit or exit stops the game and says where its moves are kept.",
		`"exchnage" is not offered; did you mean exchange? Choose 1 conquer, 2 exchange or 3 develop`,
		`"devlop" is not offered; did you mean develop?`,
		`"colour" is not offered; choose 1 conquer`,
	} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("the terminal lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "help\" is not offered") {
		t.Errorf("help is refused:\n%s", out)
	}
}

func TestTerminalAmbiguousStartSaysWhatItCouldBe(t *testing.T) {
	// The Terminal's rule: "An answer may be a choice's name, an
	// unambiguous start of one, or its number". The start of two names
	// answers neither yet, but both are offered: the person is told which
	// names it could be, not that it is not offered.
	req := engine.Request[colour]{Kind: "turn", Choices: []colour{"develop", "discover", "exchange"}, Default: "develop"}
	mv, out, err := ask(t, "d\ndis\n", req)
	if err != nil || mv != "discover" {
		t.Fatalf("got %q, %v\n%s", mv, err, out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	if want := `"d" could be develop or discover; type more of the name, or its number (1 develop or 2 discover).`; !strings.Contains(flat, want) {
		t.Errorf("the terminal lacks %q:\n%s", want, out)
	}
	if strings.Contains(out, "not offered") {
		t.Errorf("an ambiguous start is called not offered:\n%s", out)
	}
	// A view that reads moves of its own words says the same when it
	// cannot read the start whole.
	var b bytes.Buffer
	term := &Terminal[colour, spelled]{In: strings.NewReader("g\nrouge\n"), Out: &b}
	req = engine.Request[colour]{Kind: "turn", Choices: []colour{"green", "grey", "red"}, Default: "green"}
	if mv, err := term.Decide(context.Background(), &req, spelled{}); err != nil || mv != "red" {
		t.Fatalf("got %q, %v\n%s", mv, err, b.String())
	}
	if want := `"g" could be green or grey`; !strings.Contains(b.String(), want) {
		t.Errorf("the terminal lacks %q:\n%s", want, b.String())
	}
}

func TestTerminalTypoOfTwoLettersSwapped(t *testing.T) {
	// Two neighbouring letters swapped are one slip, even in a short word
	// (where a third of its letters is one).
	req := engine.Request[colour]{Kind: "turn", Choices: []colour{"adapt", "expand"}, Default: "adapt"}
	mv, out, err := ask(t, "adpat\nexapnd\nadapt\n", req)
	if err != nil || mv != "adapt" {
		t.Fatalf("got %q, %v", mv, err)
	}
	for _, want := range []string{`"adpat" is not offered; did you mean adapt?`, `"exapnd" is not offered; did you mean expand?`} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("the terminal lacks %q:\n%s", want, out)
		}
	}
}

// spelled is a view that reads answers in its own words and explains them.
type spelled struct{}

func (spelled) Parse(line string) (colour, error) {
	if strings.EqualFold(line, "rouge") {
		return "red", nil
	}
	return "", fmt.Errorf("no colour %q", line)
}
func (spelled) Help() string             { return "Colours may be named in French.\n" }
func (spelled) Check(c colour) error     { return nil }
func (spelled) Complete(string) []string { return nil }

func TestTerminalViewParses(t *testing.T) {
	var out bytes.Buffer
	term := &Terminal[colour, spelled]{In: strings.NewReader("help\nbleu\nRouge\n"), Out: &out}
	req := engine.Request[colour]{Kind: "turn", Choices: []colour{"green", "red"}, Default: "green"}
	mv, err := term.Decide(context.Background(), &req, spelled{})
	if err != nil || mv != "red" {
		t.Fatalf("got %q, %v\n%s", mv, err, out.String())
	}
	for _, want := range []string{"Colours may be named in French.", `no colour "bleu"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the terminal lacks %q:\n%s", want, out.String())
		}
	}
}

func TestTerminalEndOfInputStopsPlay(t *testing.T) {
	// When the person's input ends, play is stopped: the seat is not
	// played by defaults to the end.
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	term := &Terminal[colour, board]{In: strings.NewReader(""), Out: &out, Interrupt: cancel}
	req := engine.Request[colour]{Kind: "turn", Choices: []colour{"red"}, Default: "red"}
	if _, err := term.Decide(ctx, &req, "x"); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v; want play stopped", err)
	}
	if ctx.Err() == nil {
		t.Error("the end of input did not stop play")
	}
}

func TestTerminalQuitStopsPlayAsCtrlCDoes(t *testing.T) {
	// The Terminal's rule: "quit or exit stops the game as Ctrl-C does
	// (Interrupt)", at any prompt, with choices or without, and help says
	// so.
	for _, c := range []struct {
		input string
		req   engine.Request[colour]
	}{
		{"quit\n", engine.Request[colour]{Kind: "turn", Choices: []colour{"red", "green"}, Default: "red"}},
		{"EXIT\n", engine.Request[colour]{Kind: "turn", Default: "wait"}},
		{" Quit \n", engine.Request[colour]{Kind: "turn", Choices: []colour{"quiet", "queue"}, Default: "quiet"}},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		var out bytes.Buffer
		interrupted := false
		term := &Terminal[colour, board]{In: strings.NewReader(c.input + "red\n"), Out: &out, Interrupt: func() { interrupted = true; cancel() }}
		mv, err := term.Decide(ctx, &c.req, "x")
		if !interrupted || !errors.Is(err, context.Canceled) {
			t.Errorf("input %q: got %q, %v, interrupted %v; want play stopped as by Ctrl-C\n%s", c.input, mv, err, interrupted, out.String())
		}
		cancel()
	}
	// Without Interrupt, the decision fails.
	if _, _, err := ask(t, "quit\n", engine.Request[colour]{Kind: "turn", Default: "wait"}); err == nil || !strings.Contains(err.Error(), "quit") {
		t.Errorf("quit without Interrupt: %v; want the decision failed", err)
	}
	// A choice named so is a choice.
	if mv, _, err := ask(t, "exit\n", engine.Request[colour]{Kind: "turn", Choices: []colour{"enter", "exit"}, Default: "enter"}); err != nil || mv != "exit" {
		t.Errorf("a choice named exit: %q, %v", mv, err)
	}
	_, out, _ := ask(t, "help\n\n", engine.Request[colour]{Kind: "turn", Default: "wait"})
	if want := "Ctrl-C, quit or exit stops the game"; !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
		t.Errorf("help lacks %q:\n%s", want, out)
	}
}

func TestTerminalEndOfInput(t *testing.T) {
	req := engine.Request[colour]{Kind: "turn", Choices: []colour{"red"}, Default: "red"}
	var out bytes.Buffer
	term := &Terminal[colour, board]{In: strings.NewReader(""), Out: &out}
	for range 2 {
		if _, err := term.Decide(context.Background(), &req, "x"); err == nil {
			t.Error("a closed input gave no error")
		}
	}
}

func TestTerminalDeadline(t *testing.T) {
	// A person with a deadline gets the default when it passes; the line
	// typed late answers the next question.
	r, w := io.Pipe()
	defer w.Close()
	var out bytes.Buffer
	term := &Terminal[colour, board]{In: r, Out: &out}
	req := engine.Request[colour]{Kind: "turn", Choices: []colour{"red", "green"}, Default: "red", Deadline: 20 * time.Millisecond}
	_, err := term.Decide(context.Background(), &req, "x")
	if !errors.Is(err, engine.ErrDeadline) {
		t.Fatalf("error %v; want ErrDeadline", err)
	}
	if !strings.Contains(out.String(), "Time is up: red is played for you.") {
		t.Errorf("the person was not told:\n%s", out.String())
	}
	go func() { _, _ = io.WriteString(w, "green\n") }()
	req.Deadline = time.Second
	if mv, err := term.Decide(context.Background(), &req, "x"); err != nil || mv != "green" {
		t.Errorf("next question: %q, %v", mv, err)
	}
}

// fallen is a board whose seat is out once its round passes 2.
type fallen struct{ round int }

func (f fallen) Out() string {
	if f.round < 2 {
		return ""
	}
	return "Your country died in cycle 2: it had no citizens left"
}

func TestTerminalTellsTheKnockoutAndTheStanding(t *testing.T) {
	// A person whose seat is out hears it at once, not at the report; at
	// the end they hear where they finished.
	var out bytes.Buffer
	term := &Terminal[colour, fallen]{In: strings.NewReader(""), Out: &out}
	if err := term.Start(context.Background(), engine.MatchInfo{Seat: 1, Players: []string{"a", "b", "c"}}); err != nil {
		t.Fatal(err)
	}
	for round := range 5 {
		term.Follow(fallen{round}, false)
	}
	term.Follow(fallen{6}, true)
	term.Finish(context.Background(), engine.Result{Ranks: []int{1, 3, 2}, Winners: []int{0}})
	want := "\nYour country died in cycle 2: it had no citizens left; the others play on to the\nend.\n\nYou finished 3rd of 3.\n\n"
	if out.String() != want {
		t.Errorf("the terminal said\n%q\nwant\n%q", out.String(), want)
	}
}

// sided is a zombie-like board: won by a side, with a last turn to tell.
type sided struct{ over bool }

func (s sided) Side() string {
	if !s.over {
		return ""
	}
	return "The humans won; you were a zombie"
}

func (s sided) Epilogue() string {
	if !s.over {
		return ""
	}
	return "After turn 1 you were told:\n  GAME OVER: HUMANS WIN last_survivor=P2\n"
}

func TestTerminalTellsTheLastTurnAndTheSide(t *testing.T) {
	// "When the match ends, they are told where they finished": in a game
	// won by a side, which side won and whether they won with it, after
	// what they were told since their last decision.
	for _, c := range []struct {
		res  engine.Result
		want string
	}{
		{engine.Result{Ranks: []int{1, 2, 2, 2, 2}, Winners: []int{1}},
			"The humans won; you were a zombie: you lost."},
		{engine.Result{Ranks: []int{1, 1, 1, 1, 5}, Winners: []int{0, 1, 2, 3}},
			"The humans won; you were a zombie: you won with 3 others."},
		{engine.Result{Ranks: []int{1, 2, 2, 1, 2}, Winners: []int{0, 3}},
			"The humans won; you were a zombie: you won with 1 other."},
		{engine.Result{Ranks: []int{2, 2, 2, 1, 2}, Winners: []int{3}},
			"The humans won; you were a zombie: you won."},
	} {
		var out bytes.Buffer
		term := &Terminal[colour, sided]{In: strings.NewReader(""), Out: &out}
		if err := term.Start(context.Background(), engine.MatchInfo{Seat: 3, Players: []string{"a", "b", "c", "d", "e"}}); err != nil {
			t.Fatal(err)
		}
		term.Follow(sided{}, false)
		term.Follow(sided{true}, true)
		term.Finish(context.Background(), c.res)
		want := "\nAfter turn 1 you were told:\n  GAME OVER: HUMANS WIN last_survivor=P2\n\n" + c.want + "\n\n"
		if out.String() != want {
			t.Errorf("the terminal said\n%q\nwant\n%q", out.String(), want)
		}
	}
}

func TestStanding(t *testing.T) {
	for _, c := range []struct {
		res  engine.Result
		seat int
		want string
	}{
		{engine.Result{Ranks: []int{1, 2}, Winners: []int{0}}, 0, "You won."},
		{engine.Result{Ranks: []int{1, 1, 3}, Winners: []int{0, 1}}, 1, "You won, sharing first place with 1 other."},
		{engine.Result{Ranks: []int{1, 2, 2, 4, 5, 6, 7}, Winners: []int{0}}, 4, "You finished 5th of 7."},
		{engine.Result{Ranks: []int{1, 2, 2}, Winners: []int{0}}, 2, "You finished 2nd of 3, tied with 1 other."},
		{engine.Result{Winners: []int{1}}, 0, "You did not win."},
	} {
		if got := Standing(c.res, c.seat); got != c.want {
			t.Errorf("seat %d of %+v: %q; want %q", c.seat, c.res, got, c.want)
		}
	}
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 111: "111th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q; want %q", n, got, want)
		}
	}
}

func TestTerminalTypoReplyWrapsWithItsChoicesWhole(t *testing.T) {
	// At 80 columns a choice's number stays with its name ("3 exchange",
	// not "3" at a line's end), and the reply ends with a full stop.
	req := engine.Request[colour]{Kind: "turn", Choices: []colour{"consent", "conquer", "exchange"}, Default: "consent"}
	mv, out, err := ask(t, "conqure\n2\n", req)
	if err != nil || mv != "conquer" {
		t.Fatalf("got %q, %v", mv, err)
	}
	want := "\"conqure\" is not offered; did you mean conquer? Choose 1 consent, 2 conquer or\n3 exchange.\n"
	if !strings.Contains(out, want) {
		t.Errorf("the reply is not\n%s\nbut:\n%s", want, out)
	}
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimPrefix(line, "turn [consent]> ") // a terminal shows the answer and its newline here
		if len([]rune(line)) > 80 || strings.ContainsRune(line, '\u00a0') {
			t.Errorf("a line of %d columns, or with a no-break space: %q", len([]rune(line)), line)
		}
	}
}

func TestTerminalShowsAnswersReadAfterTheirPrompts(t *testing.T) {
	// Answers read from lines (piped in) are not echoed as a terminal
	// echoes what is typed: each is written after its prompt, so that the
	// transcript reads as a terminal's, and a reply starts its own line.
	req := engine.Request[colour]{Kind: "turn", Choices: []colour{"red", "green", "grey"}, Default: "red"}
	mv, out, err := ask(t, "blue\ngreen\n", req)
	if err != nil || mv != "green" {
		t.Fatalf("got %q, %v", mv, err)
	}
	for _, want := range []string{"turn [red]> blue\n\"blue\" is not offered", "turn [red]> green\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the terminal lacks %q:\n%s", want, out)
		}
	}
}

func TestTerminalTellsWhenTheNextGameOfASeriesBegins(t *testing.T) {
	// A person playing a series sees where one game ends and the next
	// begins: the first is the game the person asked for, the others are
	// numbered.
	var out bytes.Buffer
	term := &Terminal[colour, board]{In: strings.NewReader(""), Out: &out}
	if err := term.Start(context.Background(), engine.MatchInfo{Game: 1}); err != nil || out.Len() != 0 {
		t.Errorf("the first game begins with %q, %v; want nothing", out.String(), err)
	}
	if err := term.Start(context.Background(), engine.MatchInfo{Game: 2, Seat: 1}); err != nil || out.String() != "\nGame 2 of the series begins.\n" {
		t.Errorf("the second game begins with %q, %v", out.String(), err)
	}
}

func TestTerminalHelpPromisesTabOnlyWhereItCompletes(t *testing.T) {
	// Answers read from a reader (piped in) have no line editor: help does
	// not tell the person to press Tab.
	req := engine.Request[colour]{Kind: "turn", Choices: []colour{"red", "green"}, Default: "red"}
	_, out, err := ask(t, "help\nred\n", req)
	if err != nil || !strings.Contains(out, "Enter alone plays red.") || strings.Contains(out, "Tab") {
		t.Errorf("help, read from a reader: %v\n%s", err, out)
	}
}

// A path written by shellWord is read back whole, as one word, by the
// splitting of exec: commands.
func TestShellWordReadsBackWhole(t *testing.T) {
	for _, s := range []string{"mybot/bot.py", "my bot/bot.py", "it's/bot", `a"b/bot`, "$HOME/bot", "a;b/bot", "ünï/bot.js", "*/bot"} {
		words, err := shell.Fields("python3 "+shellWord(s), func(string) string { return "" })
		if err != nil || len(words) != 2 || words[1] != s {
			t.Errorf("%q written %s reads back as %q (%v)", s, shellWord(s), words, err)
		}
	}
}
