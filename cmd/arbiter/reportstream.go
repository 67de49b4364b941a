package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/arbiter-games/arbiter/report"
	"golang.org/x/term"
)

// scrolls says whether the report goes game by game to the terminal that
// stdout is.
func (t reportTarget) scrolls(stdout io.Writer) bool {
	f, ok := stdout.(*os.File)
	return t.path == "" && t.form != "summary" && t.form != "summary-json" && ok && term.IsTerminal(int(f.Fd()))
}

// reportStream is a report written game by game as a series plays: to
// standard output, or to a temporary file beside the target's path that
// finish renames into place, so that the file is whole or absent.
type reportStream struct {
	report.GameWriter
	path      string
	file      *os.File      // nil on standard output
	spool     *os.File      // a file's games, until its summary is written before them
	buf       *bufio.Writer // every write of the report goes through it
	flushEach bool          // the report scrolls by on a terminal: each game shows as it ends
	games     int
	failed    bool
}

// files are the temporary files the report is written to as it goes.
func (rs *reportStream) files() []string {
	var names []string
	for _, f := range []*os.File{rs.file, rs.spool} {
		if f != nil {
			names = append(names, f.Name())
		}
	}
	return names
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
	// A file of text or HTML leads with the series' summary: its games
	// wait in a spool beside it until the summary is known.
	if t.path != "" && (t.form == "html" || t.form == "text") {
		f, err := os.CreateTemp(filepath.Dir(t.path), "."+filepath.Base(t.path)+".games.*")
		if err != nil {
			rs.discard()
			return nil, usagef("--report %s: %v", t.path, pathCause(err))
		}
		rs.spool = f
	}
	rs.buf = bufio.NewWriterSize(w, 64<<10)
	w = rs.buf
	switch t.form {
	case "json":
		rs.GameWriter = report.NewJSON(w)
	case "html":
		h := report.NewHTML(w)
		if rs.spool != nil {
			h.SummaryFirst(rs.spool)
		}
		rs.GameWriter = h
	case "summary":
		rs.GameWriter = report.NewSummary(w)
	case "summary-json":
		rs.GameWriter = report.NewSummaryJSON(w)
	default:
		tw := report.NewText(w, verbose)
		if rs.spool != nil {
			tw.SummaryFirst(rs.spool)
		}
		rs.GameWriter = tw
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
	rs.dropSpool()
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

// dropSpool removes the spool of the report's games, if it has one.
func (rs *reportStream) dropSpool() {
	if rs.spool != nil {
		rs.spool.Close()
		os.Remove(rs.spool.Name())
		rs.spool = nil
	}
}

// discard removes the report's temporary files, if it still has them.
func (rs *reportStream) discard() {
	rs.dropSpool()
	if rs.file != nil {
		rs.file.Close()
		os.Remove(rs.file.Name())
		rs.file = nil
	}
}
