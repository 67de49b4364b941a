package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/report"
	"golang.org/x/term"
)

// scrolls says whether the report goes game by game to the terminal that
// stdout is.
func (t reportTarget) scrolls(stdout io.Writer) bool {
	f, ok := stdout.(*os.File)
	return t.path == "" && t.form != "summary" && ok && term.IsTerminal(int(f.Fd()))
}

// reportStream is a report written game by game as a series plays: to
// standard output, or to a temporary file beside the target's path that
// finish renames into place, so that the file is whole or absent.
type reportStream struct {
	report.GameWriter
	path      string
	file      *os.File      // nil on standard output
	buf       *bufio.Writer // every write of the report goes through it
	flushEach bool          // the report scrolls by on a terminal: each game shows as it ends
	games     int
	failed    bool
}

// open starts the report of a series on stdout or in its file.
func (t reportTarget) open(stdout io.Writer, verbose bool) (*reportStream, error) {
	rs := &reportStream{path: t.path, flushEach: t.scrolls(stdout)}
	w := stdout
	if t.path != "" {
		f, err := os.CreateTemp(filepath.Dir(t.path), "."+filepath.Base(t.path)+".*")
		if err != nil {
			return nil, usagef("--report %s: %v", t.path, pathCause(err))
		}
		rs.file, w = f, f
	}
	rs.buf = bufio.NewWriterSize(w, 64<<10)
	w = rs.buf
	switch t.form {
	case "json":
		rs.GameWriter = report.NewJSON(w)
	case "html":
		rs.GameWriter = report.NewHTML(w)
	case "summary":
		rs.GameWriter = report.NewSummary(w)
	default:
		rs.GameWriter = report.NewText(w, verbose)
	}
	return rs, nil
}

// write writes one game of the report.
func (rs *reportStream) write(g *report.Game) error {
	rs.games++
	err := rs.WriteGame(g)
	if err == nil && rs.flushEach {
		err = rs.buf.Flush()
	}
	if err != nil {
		rs.failed = true
		return fmt.Errorf("writing the report: %w", err)
	}
	return nil
}

// finish ends the report of the games played, however many that was: a
// series that played none has no report, and one whose report could not be
// written leaves no file.
func (rs *reportStream) finish(stderr io.Writer) error {
	if rs.games == 0 || rs.failed {
		rs.discard()
		return nil
	}
	err := rs.Close()
	if err == nil {
		err = rs.buf.Flush()
	}
	if err != nil {
		rs.discard()
		return fmt.Errorf("writing the report: %w", err)
	}
	if rs.file == nil {
		return nil
	}
	f := rs.file
	rs.file = nil
	defer os.Remove(f.Name())
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", rs.path, err)
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), rs.path); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote the report to %s\n", rs.path)
	return nil
}

// discard removes the report's temporary file, if it still has one.
func (rs *reportStream) discard() {
	if rs.file != nil {
		rs.file.Close()
		os.Remove(rs.file.Name())
		rs.file = nil
	}
}

// reportGame makes a record's part of a report of the given form: the
// outcome alone for the summary, which needs no more, and otherwise the
// game replayed.
func reportGame[M, V any](rs engine.Ruleset[M, V], rec *engine.Record[M], number int, form string) (report.Game, error) {
	if form == "summary" {
		return report.Outcome(rec, number), nil
	}
	return report.BuildGame(rs, rec, number)
}
