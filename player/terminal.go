package player

import (
	"bufio"
	"context"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/peterh/liner"
	"golang.org/x/term"

	"github.com/arbiter-games/arbiter/internal/wrap"
)

// Terminal is a person playing one seat at a terminal. Each decision shows
// the seat's view (its String method, or its JSON), the offered choices, and
// a prompt that names the default move; on the process's own terminal the
// prompt has line editing and tab completion of the choices. An answer may
// be a choice's name, an unambiguous start of one, or its number in the list;
// an empty line plays the default; help explains what may be answered;
// quit or exit stops the game as Ctrl-C does (Interrupt). An
// answer that is not offered is refused with the list (and the closest
// choice, for a typo), the start of several names with those it could be,
// and the question asked again.
//
// When the person's seat is out of the match (a dead country, a nation out
// of the game: the view says so, Knockout) while the others play on, the
// person is told at once; when the match ends, they are shown what they
// were told since their last decision (Epilogue) and where they finished:
// their place, or in a game won by a side (Sider) their side and whether
// they won with it.
//
// A person has no deadline unless one is given (engine.Seat.Deadline); when
// it passes, the default move is played and the person is told so. When the
// person's input ends, play stops (Interrupt): a seat nobody answers is not
// played by defaults to the end.
type Terminal[M, V any] struct {
	// In and Out default to the process's standard input and output; with
	// those, a terminal gets line editing and completion.
	In  io.Reader
	Out io.Writer
	// Interrupt, if set, is called when the person presses Ctrl-C at the
	// prompt (the terminal is in raw mode then, so no signal is sent) or
	// answers quit or exit, and when the person's input ends.
	Interrupt func()

	seat    int           // the person's seat, from Start
	toldOut bool          // the person has been told their seat is out
	side    string        // the view's Side at the match's end (Sider)
	lines   *bufio.Reader // In, when it is not the process's standard input
	pending chan answer   // a prompt still waiting for its line
	closed  error         // set once the input has ended
}

type answer struct {
	line string
	err  error
}

// ErrInputEnded is the error of a decision whose person's input has ended.
// As the cause of a match's cancelled context it is an engine.Aborter: the
// record says the person's input ended.
var ErrInputEnded error = inputEnded{}

type inputEnded struct{}

func (inputEnded) Error() string       { return "the person's input has ended" }
func (inputEnded) AbortReason() string { return "the person's input ended" }

// SelfTimed marks the terminal as keeping its own time.
func (t *Terminal[M, V]) SelfTimed() {}

// Start notes the person's seat, and tells the person when a game of a
// series after the first begins: its first board would otherwise follow
// the last game's standing as if the same game went on.
func (t *Terminal[M, V]) Start(_ context.Context, info engine.MatchInfo) error {
	t.seat, t.toldOut, t.side = info.Seat, false, ""
	if info.Game > 1 {
		fmt.Fprintf(t.out(), "\nGame %d of the series begins.\n", info.Game)
	}
	return nil
}

// Follow tells the person, once, that their seat is out of the match, when
// its view says so (Knockout): the others play on without a word to them.
// When the match is over it shows what the person was told since their
// last decision (Epilogue) and notes which side won (Sider) for Finish.
func (t *Terminal[M, V]) Follow(view V, over bool) {
	if over {
		if e, ok := any(view).(Epilogue); ok {
			if s := e.Epilogue(); s != "" {
				fmt.Fprint(t.out(), "\n"+s)
			}
		}
		if s, ok := any(view).(Sider); ok {
			t.side = s.Side()
		}
	}
	k, ok := any(view).(Knockout)
	if !ok || t.toldOut {
		return
	}
	why := k.Out()
	if why == "" {
		return
	}
	t.toldOut = true
	if over {
		fmt.Fprint(t.out(), "\n"+wrap.Paragraphs(why+".", wrap.Width))
		return
	}
	fmt.Fprint(t.out(), "\n"+wrap.Paragraphs(why+"; the others play on to the end.", wrap.Width))
}

// Finish tells the person where they finished: on which side and whether
// they won, in a game won by a side (Sider), else their place.
func (t *Terminal[M, V]) Finish(_ context.Context, res engine.Result) {
	standing := Standing(res, t.seat)
	if t.side != "" {
		standing = SideStanding(res, t.seat, t.side)
	}
	fmt.Fprint(t.out(), "\n"+wrap.Paragraphs(standing, wrap.Width)+"\n")
}

// others counts the others a person won or tied with: "1 other", "3 others".
func others(n int) string {
	if n == 1 {
		return "1 other"
	}
	return fmt.Sprintf("%d others", n)
}

// SideStanding tells the person at seat how a game won by a side ended for
// them: side, the view's sentence (Sider), then whether they won, and with
// how many others: "The humans won; you were a zombie: you lost.", "The
// humans won; you were human: you won with 3 others."
func SideStanding(res engine.Result, seat int, side string) string {
	if !res.Won(seat) {
		return side + ": you lost."
	}
	if n := len(res.Winners) - 1; n > 0 {
		return side + ": you won with " + others(n) + "."
	}
	return side + ": you won."
}

// Standing tells the person at seat where they finished, from the result:
// "You won.", "You finished 5th of 7.", with those they tied with.
func Standing(res engine.Result, seat int) string {
	if res.Won(seat) {
		if n := len(res.Winners) - 1; n > 0 {
			return fmt.Sprintf("You won, sharing first place with %s.", others(n))
		}
		return "You won."
	}
	if seat < 0 || seat >= len(res.Ranks) {
		return "You did not win."
	}
	rank, tied := res.Ranks[seat], 0
	for i, r := range res.Ranks {
		if i != seat && r == rank {
			tied++
		}
	}
	s := fmt.Sprintf("You finished %s of %d", ordinal(rank), len(res.Ranks))
	if tied > 0 {
		s += ", tied with " + others(tied)
	}
	return s + "."
}

// ordinal writes n as 1st, 2nd, 3rd, 4th, 11th, 21st.
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// Decide asks the person for req's move.
func (t *Terminal[M, V]) Decide(ctx context.Context, req *engine.Request[M], view V) (M, error) {
	var zero M
	out := t.out()
	fmt.Fprintln(out)
	if s, ok := any(view).(fmt.Stringer); ok {
		fmt.Fprint(out, s.String())
	} else if b, err := json.MarshalIndent(view, "", "  "); err == nil {
		fmt.Fprintf(out, "%s\n", b)
	}
	name := text[M]
	if n, ok := any(view).(ChoiceNamer[M]); ok {
		name = n.ChoiceName
	}
	names := make([]string, len(req.Choices))
	for i, c := range req.Choices {
		names[i] = name(c)
	}
	// Enter plays the request's default, or the view's suggestion where
	// the default (for a player who is slow) is a poor answer to give by
	// pressing Enter. Time running out still plays the default.
	enter, slow := req.Default, name(req.Default)
	why := ""
	if s, ok := any(view).(Suggester[M]); ok {
		if mv, because, ok := s.Suggest(req); ok {
			enter, why = mv, " ("+because+")"
		}
	}
	def := name(enter)
	if len(names) > 0 {
		fmt.Fprint(out, wrap.Paragraphs(fmt.Sprintf("Choose %s (or its number).", list(names)), wrap.Width))
	}
	fmt.Fprint(out, wrap.Paragraphs(fmt.Sprintf("Enter plays %s%s; help explains.", def, why), wrap.Width))
	if req.Deadline > 0 {
		fmt.Fprintf(out, "You have %v.\n", req.Deadline)
	}
	prompt := fmt.Sprintf("%s [%s]> ", req.Kind, def)
	complete := func(line string) []string { return prefixed(names, line) }
	if c, ok := any(view).(Completer); ok {
		complete = c.Complete
	}
	check, _ := any(view).(Checker[M])
	for {
		line, err := t.read(ctx, prompt, complete, req.Deadline)
		switch {
		case errors.Is(err, engine.ErrDeadline):
			fmt.Fprintf(out, "\nTime is up: %s is played for you. (A line you type now answers the next question.)\n", slow)
			return zero, err
		case err != nil:
			return zero, err
		}
		line = strings.TrimSpace(line)
		if strings.EqualFold(line, "help") || line == "?" {
			t.help(view, names, def)
			continue
		}
		if isQuit(line) && !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, line) }) {
			return zero, t.stop(ctx, "the person typed "+strings.ToLower(line))
		}
		var mv M
		if line == "" {
			mv = enter
		} else if mv, err = t.parse(line, req.Choices, names, view); err != nil {
			fmt.Fprint(out, wrap.Paragraphs(err.Error(), wrap.Width))
			continue
		}
		if check != nil {
			if err := check.Check(mv); err != nil {
				fmt.Fprint(out, wrap.Paragraphs("refused: "+err.Error(), wrap.Width))
				continue
			}
		}
		return mv, nil
	}
}

// help tells the person what they may answer: the view's own help, if it
// has one, then how answers are read.
func (t *Terminal[M, V]) help(view V, names []string, def string) {
	out := t.out()
	if h, ok := any(view).(Helper); ok {
		fmt.Fprint(out, h.Help())
	}
	if len(names) > 0 {
		fmt.Fprint(out, wrap.Paragraphs(fmt.Sprintf("Answer with one of %s: its name (any case), the start of it, or its number.", list(names)), wrap.Width))
	}
	tab := " Tab completes."
	if t.In != nil || !console.typed() || console.aside() {
		// Answers piped in, or read as a shell reads them (standard
		// output elsewhere): no line editor completes them.
		tab = ""
	}
	fmt.Fprint(out, wrap.Paragraphs(fmt.Sprintf("Enter alone plays %s.%s Ctrl-C, quit or exit stops the game and says where its moves are kept.", def, tab), wrap.Width))
}

// Knockout is implemented by views that say when their seat is out of the
// match while others may play on: a dead country, a nation out of the game.
type Knockout interface {
	// Out tells the person, as a sentence without its full stop, that their
	// seat is out, when and why if known: "Your country died in cycle 18:
	// country 3 won a war against you and took your last citizens". It is
	// "" while the seat plays.
	Out() string
}

// Epilogue is implemented by views that have more to tell the person when
// the match ends than their last decision showed: the last turn's
// announcements and its GAME OVER line. Epilogue returns it as the
// terminal shows it, lines ending in a newline; "" when there is nothing.
type Epilogue interface {
	Epilogue() string
}

// Sider is implemented by views of games won by a side rather than by a
// place among the seats: the humans or the zombies. Once the match is over,
// Side says, as a sentence without its full stop, which side won and which
// the person was on: "The humans won; you were a zombie". The terminal adds
// whether the person won, and with how many others, where it would tell a
// place (SideStanding). It is "" while the match goes on, and in a game
// whose result is not by side.
type Sider interface {
	Side() string
}

// Helper is implemented by views that explain to a person what they may
// answer: the moves and what each does. The terminal shows it when asked
// for help.
type Helper interface {
	Help() string
}

// ChoiceNamer is implemented by views that name a request's choices for a
// person in fewer words than their text form: a territory alone for a join,
// say. The names are what the person sees, types and completes.
type ChoiceNamer[M any] interface {
	ChoiceName(M) string
}

// Parser is implemented by views that read a person's answer in the game's
// own words, beyond the move's text form: a territory by its name or alias,
// say. The terminal tries it after the choices' names and numbers.
type Parser[M any] interface {
	Parse(line string) (M, error)
}

// Suggester is implemented by views that suggest what Enter plays for a
// person where the request's default, the move a slow player gets, is a
// poor answer to give by pressing Enter: TNCC's default defence leaves
// every soldier at home. Suggest returns the move and why it is suggested,
// or false to keep the default.
type Suggester[M any] interface {
	Suggest(req *engine.Request[M]) (mv M, why string, ok bool)
}

// Checker is implemented by views that can tell, before a move is made,
// why the rules would refuse it. A person is then told why and asked again,
// rather than given the default move.
type Checker[M any] interface {
	Check(M) error
}

// Completer is implemented by views that complete a move a person has
// partly typed, for moves that are not a short list of choices.
type Completer interface {
	Complete(line string) []string
}

// parse reads an answer: a choice's name (any case), an unambiguous start of
// one, or its number; else what the view reads (Parser), or the move's own
// text form.
func (t *Terminal[M, V]) parse(line string, choices []M, names []string, view V) (M, error) {
	var zero M
	p, parses := any(view).(Parser[M])
	_, checks := any(view).(Checker[M])
	if len(choices) > 0 {
		if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(choices) {
			return choices[n-1], nil
		}
		var starting []int // the choices line is the start of
		for i, name := range names {
			if strings.EqualFold(name, line) {
				return choices[i], nil
			}
			if len(line) < len(name) && strings.EqualFold(name[:len(line)], line) {
				starting = append(starting, i)
			}
		}
		if len(starting) == 1 {
			return choices[starting[0]], nil
		}
		if len(starting) > 1 {
			// The start of several names: a view that reads moves of its
			// own may still read it whole; if not, the person is told
			// which names it could be.
			if parses || checks {
				if mv, err := t.parseMove(line, p, parses); err == nil {
					return mv, nil
				}
			}
			return zero, ambiguous(line, names, starting)
		}
		if !parses && !checks {
			return zero, notOffered(line, names)
		}
	}
	if parses {
		mv, err := p.Parse(line)
		if err != nil && len(choices) > 0 && !checks {
			return zero, notOffered(line, names)
		}
		return mv, err
	}
	var mv M
	u, ok := any(&mv).(encoding.TextUnmarshaler)
	if !ok {
		return zero, fmt.Errorf("%q is not a move here", line)
	}
	if err := u.UnmarshalText([]byte(line)); err != nil {
		if len(choices) > 0 {
			return zero, notOffered(line, names)
		}
		return zero, err
	}
	return mv, nil
}

// parseMove reads line as the view reads it (Parser), else as the move's
// text form.
func (t *Terminal[M, V]) parseMove(line string, p Parser[M], parses bool) (M, error) {
	if parses {
		return p.Parse(line)
	}
	var mv M
	u, ok := any(&mv).(encoding.TextUnmarshaler)
	if !ok {
		return mv, fmt.Errorf("%q is not a move here", line)
	}
	return mv, u.UnmarshalText([]byte(line))
}

// ambiguous refuses an answer that is the start of more than one name (the
// names at starting): it says which it could be, and how to choose.
func ambiguous(line string, names []string, starting []int) error {
	could := make([]string, len(starting))
	numbered := make([]string, len(starting))
	for k, i := range starting {
		could[k] = names[i]
		numbered[k] = fmt.Sprintf("%d%c%s", i+1, wrap.NoBreak, names[i])
	}
	return fmt.Errorf("%q could be %s; type more of the name, or its number (%s).", line, engine.Or(could), engine.Or(numbered))
}

// notOffered refuses an answer that is none of the names: with the closest
// name when the answer looks like a typo of it, and the list.
func notOffered(line string, names []string) error {
	if c := engine.Nearest(line, names); c != "" {
		return fmt.Errorf("%q is not offered; did you mean %s? Choose %s.", line, c, list(names))
	}
	return fmt.Errorf("%q is not offered; choose %s.", line, list(names))
}

// prefixed returns the words that start with line, in any case.
func prefixed(words []string, line string) []string {
	var out []string
	for _, w := range words {
		if strings.HasPrefix(strings.ToLower(w), strings.ToLower(line)) {
			out = append(out, w)
		}
	}
	return out
}

// read waits for a line, the deadline, or the end of the match. A prompt
// that outlives its deadline stays open: the next question takes its line.
func (t *Terminal[M, V]) read(ctx context.Context, prompt string, complete func(string) []string, deadline time.Duration) (string, error) {
	if t.closed != nil {
		return "", t.closed
	}
	if t.pending == nil {
		ch := make(chan answer, 1)
		t.pending = ch
		if t.In == nil {
			go func() {
				line, err := console.prompt(prompt, complete)
				ch <- answer{line, err}
			}()
		} else {
			if t.lines == nil {
				t.lines = bufio.NewReader(t.In)
			}
			fmt.Fprint(t.out(), prompt)
			go func(r *bufio.Reader) {
				line, err := r.ReadString('\n')
				if err != nil && line != "" {
					err = nil // a last line without a newline
				}
				ch <- answer{strings.TrimRight(line, "\r\n"), err}
			}(t.lines)
		}
	}
	var timeout <-chan time.Time
	if deadline > 0 {
		timer := time.NewTimer(deadline)
		defer timer.Stop()
		timeout = timer.C
	}
	select {
	case a := <-t.pending:
		t.pending = nil
		if t.In != nil && a.err == nil {
			// Lines read are not shown as a terminal shows what is typed:
			// the answer goes after its prompt, written here, where
			// everything else is written to Out, not by the goroutine
			// that read it while a question was being written.
			fmt.Fprintln(t.out(), a.line)
		}
		switch {
		case errors.Is(a.err, liner.ErrPromptAborted):
			return "", t.stop(ctx, "the person pressed Ctrl-C")
		case errors.Is(a.err, io.EOF):
			t.closed = ErrInputEnded
			fmt.Fprintln(t.out())
			if t.In == nil {
				console.ended.Store(true)
			}
			if t.Interrupt != nil {
				t.Interrupt()
				<-ctx.Done()
				return "", ctx.Err()
			}
			return "", t.closed
		}
		return a.line, a.err
	case <-timeout:
		return "", fmt.Errorf("no answer within %v: %w", deadline, engine.ErrDeadline)
	case <-ctx.Done():
		if t.In == nil && console.aside() {
			// Ctrl-C at a prompt of standard error's is the signal, which
			// the terminal echoes as ^C: the next line starts below it.
			fmt.Fprintln(os.Stderr)
		}
		return "", ctx.Err()
	}
}

// isQuit reports whether a person's answer asks to stop the game: quit or
// exit, in any case.
func isQuit(line string) bool {
	return strings.EqualFold(line, "quit") || strings.EqualFold(line, "exit")
}

// stop stops play at the person's word (Ctrl-C, quit, exit): through
// Interrupt, when set, which ends the match as an interrupted one; else the
// decision fails with why.
func (t *Terminal[M, V]) stop(ctx context.Context, why string) error {
	if t.Interrupt != nil {
		t.Interrupt()
		<-ctx.Done()
		return ctx.Err()
	}
	return errors.New(why)
}

func (t *Terminal[M, V]) out() io.Writer {
	if t.Out != nil {
		return t.Out
	}
	if t.In == nil && console.aside() {
		return os.Stderr
	}
	return os.Stdout
}

// text is a move's name for people: its text form if it has one.
func text[M any](mv M) string {
	var m any = mv
	if tm, ok := m.(encoding.TextMarshaler); ok {
		if b, err := tm.MarshalText(); err == nil {
			return string(b)
		}
	}
	return fmt.Sprint(m)
}

// list joins names as "1 a, 2 b or 3 c", each number held to its name by a
// no-break space: the list is for wrap.
func list(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%d%c%s", i+1, wrap.NoBreak, n)
	}
	return engine.Or(parts)
}

// console is the process's terminal, shared by every Terminal reading
// standard input: one line editor, made on first use.
var console terminalConsole

type terminalConsole struct {
	ended  atomic.Bool // standard input has ended
	asking sync.Mutex  // one prompt at a time
	mu     sync.Mutex  // guards state
	state  *liner.State

	once     sync.Once
	terminal bool // standard input is a terminal (typed)
	sideways bool // standard output is not a terminal, standard error is
	lines    *bufio.Reader
}

// prompt asks for one line with completion.
func (c *terminalConsole) prompt(prompt string, complete func(string) []string) (string, error) {
	c.asking.Lock()
	defer c.asking.Unlock()
	if c.aside() {
		// Standard output goes to a file or a program (arbiter play ... >
		// report.txt): the person sees the prompt on standard error, the
		// terminal, and types at it as at any shell prompt (Ctrl-C is the
		// signal then, which stops play).
		fmt.Fprint(os.Stderr, prompt)
		c.mu.Lock()
		if c.lines == nil {
			c.lines = bufio.NewReader(os.Stdin)
		}
		r := c.lines
		c.mu.Unlock()
		line, err := r.ReadString('\n')
		if err != nil && line != "" {
			err = nil
		}
		return strings.TrimRight(line, "\r\n"), err
	}
	c.mu.Lock()
	if c.state == nil {
		c.state = liner.NewLiner()
		c.state.SetCtrlCAborts(true)
	}
	state := c.state
	c.mu.Unlock()
	state.SetCompleter(complete)
	line, err := state.Prompt(prompt)
	if err == nil && !c.typed() {
		// Answers piped in are not shown as a terminal shows what is
		// typed: each goes after its prompt, so that what was answered to
		// what reads as at a terminal ("turn [consent]> discover").
		fmt.Fprintln(os.Stdout, line)
	}
	return line, err
}

// typed reports whether standard input is a terminal, which shows what is
// typed at it.
func (c *terminalConsole) typed() bool {
	c.once.Do(func() {
		c.terminal = term.IsTerminal(int(os.Stdin.Fd()))
		c.sideways = c.terminal && !term.IsTerminal(int(os.Stdout.Fd())) && term.IsTerminal(int(os.Stderr.Fd()))
	})
	return c.terminal
}

// aside reports whether the person types at a terminal whose standard
// output is sent elsewhere (to a file, a pager, a program) while standard
// error still shows at the terminal: what the person is shown and asked
// goes there, and standard output keeps the report alone. Without it the
// board and the prompts went into the file, and the person typed blind.
func (c *terminalConsole) aside() bool {
	c.typed()
	return c.sideways
}

// ConsoleEnded reports whether a person's standard input has ended during
// play: a program that seats people tells them why play stopped.
func ConsoleEnded() bool { return console.ended.Load() }

// CloseConsole gives the terminal back as it was, if a person played at it.
// Programs that seat people call it before they exit; it does not wait for a
// prompt still open.
func CloseConsole() {
	console.mu.Lock()
	defer console.mu.Unlock()
	if console.state != nil {
		console.state.Close()
		console.state = nil
	}
}

// CheckConsole refuses to seat a person when in, the standard input the
// person would answer on, can give no answer: it is neither a terminal nor
// something with lines to read (a pipe or a non-empty file), but a device
// such as /dev/null or an empty file. Readers that are not files pass.
func CheckConsole(in io.Reader) error {
	f, ok := in.(*os.File)
	if !ok || term.IsTerminal(int(f.Fd())) {
		return nil
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
		return fmt.Errorf("a person (%s) answers on standard input, which cannot be read: %v", Person, err)
	case fi.Mode()&os.ModeCharDevice != 0:
		return fmt.Errorf("a person (%s) answers at a terminal, and standard input is a device that is not one (such as /dev/null), which gives no answers; run arbiter at a terminal, or pipe the answers in", Person)
	case fi.Mode().IsRegular() && fi.Size() == 0:
		return fmt.Errorf("a person (%s) answers on standard input, and it is an empty file; run arbiter at a terminal, or give it a file of answers", Person)
	}
	return nil
}
