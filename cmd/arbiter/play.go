package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/arbiter-games/arbiter/catalog"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/player"
	"github.com/arbiter-games/arbiter/report"
)

// findGame returns the game called name, or a usage error that lists the
// games.
func findGame(name string) (catalog.Game, error) { return catalog.Find(name) }

// playOptions is what play was asked to do.
type playOptions struct {
	specs       []string
	options     map[string]string
	seed        uint64
	games       int
	deadline    time.Duration
	deadlineSet bool // people get the deadline only when it is given
	timings     bool
	report      reportTarget
	recordDir   string
	training    string // --export-training FILE
	verbose     bool   // the world at every turn in the text report
	external    player.External
	bank        time.Duration
	startup     time.Duration
	reply       time.Duration
	strict      bool // any fault fails the run
	force       bool // replace files that exist
	stdout      io.Writer
	stderr      io.Writer
	interrupt   func() // stops play, for a person pressing Ctrl-C at a prompt
	score       string // what a score counts, for reports that do not replay
}

// play plays a series of g and writes its records, report and training
// lines as each game ends.
func play(ctx context.Context, g catalog.Game, o playOptions) error {
	rep := &reportStream{}
	defer rep.discard()
	var bar *progress
	var training *bufio.Writer
	var trainingFile *os.File
	ready := func(people bool) error {
		for _, c := range []error{checkOutput("report", o.report.path, o.force), checkOutput("export-training", o.training, o.force),
			checkRecordDir(o.recordDir, o.games, o.force)} {
			if c != nil {
				return c
			}
		}
		// A bar of the games played, unless a person is playing at this
		// terminal or the report scrolls by on it.
		if !people && !o.report.scrolls(o.stdout) {
			bar = newProgress(o.stderr, o.games)
		}
		if o.training != "" {
			f, err := os.Create(o.training)
			if err != nil {
				return usagef("--export-training %s: %v", o.training, pathCause(err))
			}
			trainingFile, training = f, bufio.NewWriterSize(f, 1<<16)
		}
		// Each game is written to the report, and to its file, as soon as
		// it is played; nothing keeps the records or the games of a long
		// series.
		var err error
		if rep, err = o.report.open(o.stdout, o.verbose); err != nil {
			return err
		}
		// What the run writes, a sandboxed bot does not read: the
		// records and reports of the games before its own hold their
		// seeds.
		o.external.Outputs.Add(o.recordDir, o.training)
		o.external.Outputs.Add(rep.files()...)
		return nil
	}
	faults := 0
	played := func(p catalog.Played) error {
		bar.game(p.Faults)
		faults += p.Faults
		var g report.Game
		var err error
		switch {
		case o.report.form == "summary" || o.report.form == "summary-json":
			g = p.Outcome()
		case o.report.form == "text" && !o.verbose:
			g, err = p.Brief()
		default:
			g, err = p.Report()
		}
		if err != nil {
			return err
		}
		g.Rename(o.external.Names.Rename(g.Players))
		if g.ScoreName == "" {
			g.ScoreName = o.score
		}
		if err := rep.write(&g); err != nil {
			return err
		}
		if training != nil {
			if err := p.WriteTraining(training); err != nil {
				return err
			}
		}
		if o.recordDir == "" {
			return nil
		}
		path := filepath.Join(o.recordDir, fmt.Sprintf("game-%04d.jsonl", p.Number))
		return writeFile(path, p.WriteRecord)
	}
	playErr := g.Series(ctx, catalog.SeriesOptions{
		Players: o.specs, External: o.external, Interrupt: o.interrupt, Options: o.options,
		Seed: o.seed, Games: o.games, Deadline: o.deadline, DeadlineForPeople: o.deadlineSet,
		Bank: o.bank, Startup: o.startup, Reply: o.reply, Timings: o.timings,
		Ready: ready, Played: played,
	})
	if training != nil {
		if err := training.Flush(); err != nil && playErr == nil {
			playErr = fmt.Errorf("--export-training %s: %w", o.training, err)
		}
		trainingFile.Close()
	}
	bar.close()
	if err := rep.finish(o.stderr); err != nil {
		return classify(err)
	}
	noteCuts(o.stderr, o.external.Logs)
	noteLogs(o.stderr, o.specs, o.external)
	if playErr != nil {
		if (errors.Is(playErr, context.Canceled) || errors.Is(playErr, player.ErrInputEnded)) && player.ConsoleEnded() {
			return usagef("standard input ended before the game did: a person (%s) had no more answers, so play stopped; %s", player.Person, o.keptSoFar())
		}
		if errors.Is(playErr, context.Canceled) {
			return &exitError{exitInternal, errors.New("interrupted; " + o.keptSoFar())}
		}
		return classify(playErr)
	}
	return strictly(o.strict, faults)
}

// keptSoFar says where the games played until play stopped are kept: the
// report, on standard output or in its file, and the records, when
// --record was given. A run without --record has no records to look for.
func (o playOptions) keptSoFar() string {
	report := "the report"
	if o.report.path != "" {
		report = "the report in " + o.report.path
	}
	if o.recordDir == "" {
		return report + " holds the games so far (--record DIR keeps each game's record, to replay)"
	}
	return fmt.Sprintf("the records in %s and %s hold the games so far", o.recordDir, report)
}

// strictly is the end of a run under --strict: any fault fails it.
func strictly(strict bool, faults int) error {
	if strict && faults > 0 {
		return &exitError{exitRefused, fmt.Errorf("--strict: the players committed %d faults; the report lists them", faults)}
	}
	return nil
}

// noteCuts says which seats' logs were cut, or could not be written.
func noteCuts(w io.Writer, logs *player.Logs) {
	for _, c := range logs.Cuts() {
		fmt.Fprintf(w, "bot logs: %s\n", c)
	}
}

// reportTarget is where --report sends the report: text, the summary or
// JSON to standard output, or a file whose extension names its form.
type reportTarget struct {
	form string // "text", "summary", "summary-json", "json" or "html"
	path string // "" for standard output
}

func parseReportTarget(s string) (reportTarget, error) {
	switch s {
	case "", "text":
		return reportTarget{form: "text"}, nil
	case "summary", "summary-json", "json":
		return reportTarget{form: s}, nil
	}
	switch strings.ToLower(filepath.Ext(s)) {
	case ".json":
		return reportTarget{form: "json", path: s}, nil
	case ".html", ".htm":
		return reportTarget{form: "html", path: s}, nil
	case ".txt":
		return reportTarget{form: "text", path: s}, nil
	}
	if near := engine.Nearest(s, []string{"text", "json", "summary", "summary-json"}); near != "" && filepath.Ext(s) == "" {
		return reportTarget{}, usagef("--report %q: did you mean %s? It takes text, json, summary, summary-json, or a file ending in .json, .html or .txt", s, near)
	}
	return reportTarget{}, usagef("--report %q: want text, json, summary, summary-json, or a file ending in .json, .html or .txt", s)
}

// writeFile writes a file whole or not at all: into a temporary file beside
// it, renamed into place when complete.
func writeFile(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// externalsHelp names the external players every game takes.
const externalsHelp = "exec:COMMAND (a program of your own, speaking docs/protocol.md), an http:// or https:// URL (a bot behind it)"

// playersHelp describes the --players names a game takes.
func playersHelp(info engine.Info) string {
	names := slices.Clone(info.Players)
	names = append(names, player.Person+" (a person at this terminal)")
	return strings.Join(names, ", ")
}

// botsHelp describes the players a duel or a tournament takes: bots only,
// its own and external ones.
func botsHelp(info engine.Info) string {
	return strings.Join(append(slices.Clone(info.Players), externalsHelp), ", ")
}
