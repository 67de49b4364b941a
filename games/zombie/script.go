package zombie

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ScriptError says why a script cannot be judged at all: it is not text.
// Rule violations are never ScriptErrors; they are ERROR lines.
type ScriptError struct {
	Line int // 1-based
	Msg  string
}

// Error says where the script stops being text.
func (e *ScriptError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Run judges a whole script (arbiter rules zombie): every line in order, the rejected
// ones as ERROR lines with their line numbers, processing going on after
// each. The error is a *ScriptError when the script is not UTF-8
// text; everything else is in the transcript.
func Run(script []byte) (*Transcript, error) {
	j := NewJudge()
	if err := j.RunScript(script); err != nil {
		return nil, err
	}
	return j.Transcript(), nil
}

// byteOrderMark is the UTF-8 byte order mark, U+FEFF, that some editors
// write at the start of a text file.
const byteOrderMark = "\ufeff"

// RunScript judges every line of script in order, numbering lines from 1,
// on this judge. It returns a *ScriptError, having judged nothing, when the
// script is not UTF-8 text.
func (j *Judge) RunScript(script []byte) error {
	if !utf8.Valid(script) {
		line := 1
		for i := 0; i < len(script); {
			r, size := utf8.DecodeRune(script[i:])
			if r == utf8.RuneError && size <= 1 {
				return &ScriptError{Line: line, Msg: fmt.Sprintf("byte %#02x is not UTF-8 text; a script is text", script[i])}
			}
			if r == '\n' {
				line++
			}
			i += size
		}
	}
	// One copy of the whole script; lines and words are slices of it, and
	// the names the roster keeps are cloned so as not to hold it all.
	// A byte order mark, which Windows editors (Notepad) write at the
	// start of a UTF-8 file, is not part of the first command.
	text := strings.TrimPrefix(string(script), byteOrderMark)
	var ws words
	n := 0
	for len(text) > 0 {
		n++
		line, rest, more := strings.Cut(text, "\n")
		ws.split(line)
		if c, ok := parseWords(&ws); ok {
			if c.Op == OpHuman || c.Op == OpZombie {
				c.Name = strings.Clone(c.Name)
			}
			j.Exec(n, c)
		}
		if !more {
			break
		}
		text = rest
	}
	return nil
}
