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
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/peterh/liner"
)

// Terminal is a person playing one seat at a terminal. Each decision shows
// the seat's view (its String method, or its JSON), the offered choices, and
// a prompt; on the process's own terminal the prompt has line editing and
// tab completion of the choices. An answer may be a choice's name, an
// unambiguous start of one, or its number in the list. An answer that is not
// offered is refused with the list, and the question asked again.
//
// A person has no deadline unless one is given (engine.Seat.Deadline); when
// it passes, the default move is played and the person is told so.
type Terminal[M, V any] struct {
	// In and Out default to the process's standard input and output; with
	// those, a terminal gets line editing and completion.
	In  io.Reader
	Out io.Writer
	// Interrupt, if set, is called when the person presses Ctrl-C at the
	// prompt (the terminal is in raw mode then, so no signal is sent).
	Interrupt func()

	lines   *bufio.Reader // In, when it is not the process's standard input
	pending chan answer   // a prompt still waiting for its line
	closed  error         // set once the input has ended
}

type answer struct {
	line string
	err  error
}

// SelfTimed marks the terminal as keeping its own time.
func (t *Terminal[M, V]) SelfTimed() {}

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
	names := make([]string, len(req.Choices))
	for i, c := range req.Choices {
		names[i] = text(c)
	}
	if len(names) > 0 {
		fmt.Fprintf(out, "Choose %s (or its number; the first is the default).\n", list(names))
	}
	if req.Deadline > 0 {
		fmt.Fprintf(out, "You have %v.\n", req.Deadline)
	}
	prompt := string(req.Kind) + "> "
	complete := func(line string) []string { return prefixed(names, line) }
	if c, ok := any(view).(Completer); ok {
		complete = c.Complete
	}
	check, _ := any(view).(Checker[M])
	for {
		line, err := t.read(ctx, prompt, complete, req.Deadline)
		switch {
		case errors.Is(err, engine.ErrDeadline):
			fmt.Fprintf(out, "\nTime is up: %s is played for you. (A line you type now answers the next question.)\n", text(req.Default))
			return zero, err
		case err != nil:
			return zero, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		mv, err := t.parse(line, req.Choices, names, check != nil)
		if err == nil && check != nil {
			if err = check.Check(mv); err != nil {
				err = fmt.Errorf("refused: %w", err)
			}
		}
		if err == nil {
			return mv, nil
		}
		fmt.Fprintln(out, err)
	}
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
// one, or its number; or the move's own text form, when there are no finite
// choices or the view can check it.
func (t *Terminal[M, V]) parse(line string, choices []M, names []string, checked bool) (M, error) {
	var zero M
	if len(choices) > 0 {
		if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(choices) {
			return choices[n-1], nil
		}
		found := -1
		for i, name := range names {
			if strings.EqualFold(name, line) {
				return choices[i], nil
			}
			if len(line) < len(name) && strings.EqualFold(name[:len(line)], line) {
				if found >= 0 {
					found = -2 // ambiguous
					break
				}
				found = i
			}
		}
		if found >= 0 {
			return choices[found], nil
		}
		if !checked {
			return zero, fmt.Errorf("%q is not offered; choose %s", line, list(names))
		}
	}
	var mv M
	u, ok := any(&mv).(encoding.TextUnmarshaler)
	if !ok {
		return zero, fmt.Errorf("%q is not a move here", line)
	}
	if err := u.UnmarshalText([]byte(line)); err != nil {
		if len(choices) > 0 {
			return zero, fmt.Errorf("%q is not offered; choose %s", line, list(names))
		}
		return zero, err
	}
	return mv, nil
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
		switch {
		case errors.Is(a.err, liner.ErrPromptAborted):
			if t.Interrupt != nil {
				t.Interrupt()
				<-ctx.Done()
				return "", ctx.Err()
			}
			return "", errors.New("the person pressed Ctrl-C")
		case errors.Is(a.err, io.EOF):
			t.closed = errors.New("the person's input has ended")
			fmt.Fprintln(t.out())
			return "", t.closed
		}
		return a.line, a.err
	case <-timeout:
		return "", fmt.Errorf("no answer within %v: %w", deadline, engine.ErrDeadline)
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (t *Terminal[M, V]) out() io.Writer {
	if t.Out == nil {
		return os.Stdout
	}
	return t.Out
}

// text is a move's name for people: its text form if it has one.
func text(m any) string {
	if tm, ok := m.(encoding.TextMarshaler); ok {
		if b, err := tm.MarshalText(); err == nil {
			return string(b)
		}
	}
	return fmt.Sprint(m)
}

// list joins names as "a, b or c", numbered.
func list(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%d %s", i+1, n)
	}
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// console is the process's terminal, shared by every Terminal reading
// standard input: one line editor, made on first use.
var console terminalConsole

type terminalConsole struct {
	asking sync.Mutex // one prompt at a time
	mu     sync.Mutex // guards state
	state  *liner.State
}

// prompt asks for one line with completion.
func (c *terminalConsole) prompt(prompt string, complete func(string) []string) (string, error) {
	c.asking.Lock()
	defer c.asking.Unlock()
	c.mu.Lock()
	if c.state == nil {
		c.state = liner.NewLiner()
		c.state.SetCtrlCAborts(true)
	}
	state := c.state
	c.mu.Unlock()
	state.SetCompleter(complete)
	return state.Prompt(prompt)
}

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
