package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/zombie"
	"github.com/fsnotify/fsnotify"
	"github.com/spf13/cobra"
)

// zombieCommand is arbiter zombie: the Zombie Game judge, run from a
// game master's recorded script (seed 004).
func zombieCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "zombie",
		Short: "The Zombie Game judge: run a party game recorded in a script",
		Long: `The Zombie Game judge. A game master writes config.yml (new-config), makes
game.txt from it (new-game), records the evening into game.txt one command
per line, and runs it (run), or keeps watch open to judge it again on every
save. The judge prints every announcement, every private message, every
refused line (ERROR line N CODE) and the final state.

Exit codes: 0 no ERROR line; 1 some ERROR line; 2 a script or config that
cannot be read or is invalid, or bad flags; 3 an I/O failure.

The same rules play as an ordinary game among bots: arbiter play zombie.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usagef("name a zombie command: new-config, new-game, run, watch, script (see arbiter zombie --help)")
		},
	}
	cmd.AddCommand(zombieNewConfigCommand(), zombieNewGameCommand(), zombieRunCommand(), zombieWatchCommand(), zombieScriptCommand())
	return cmd
}

func zombieNewConfigCommand() *cobra.Command {
	var config string
	var force bool
	cmd := &cobra.Command{
		Use:   "new-config [--config config.yml] [--force]",
		Short: "Write a config with the defaults: five players, one zombie, five turns",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := refuseOverwrite(config, force, "--config"); err != nil {
				return err
			}
			if err := writeFile(config, func(w io.Writer) error { _, err := io.WriteString(w, zombie.DefaultConfig); return err }); err != nil {
				return classify(err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s; edit the players, then run arbiter zombie new-game\n", config)
			return nil
		},
	}
	cmd.Flags().StringVar(&config, "config", "config.yml", "the config file to write")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite the file if it exists")
	return cmd
}

// refuseOverwrite refuses to replace an existing file without --force.
func refuseOverwrite(path string, force bool, flag string) error {
	if force {
		return nil
	}
	if _, err := os.Stat(path); err == nil {
		return usagef("%s already exists; give --force to overwrite it, or another %s", path, flag)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return classify(err)
	}
	return nil
}

func zombieNewGameCommand() *cobra.Command {
	var config, script string
	var force bool
	cmd := &cobra.Command{
		Use:   "new-game [--config config.yml] [--script game.txt] [--force]",
		Short: "Write game.txt from the config (zombies drawn from its seed), then run it",
		Long: `Write the game's script from the config: the roster in the config's order,
zombie_count of them drawn as zombies from the config's seed (the same seed
and players always give the same zombies), GAME_START, and a reminder of
the commands. Without a seed in the config, one is picked and written into
the script's first line. Then the script is run, as arbiter zombie run does.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			data, err := readInput(config)
			if errors.Is(err, fs.ErrNotExist) {
				return usagef("--config %s: no such file; arbiter zombie new-config writes one with the defaults", config)
			}
			if err != nil {
				return usagef("--config %s: %w", config, err)
			}
			c, err := zombie.ParseConfig(data)
			if err != nil {
				return usagef("%s: %w", config, err)
			}
			if err := refuseOverwrite(script, force, "--script"); err != nil {
				return err
			}
			seed := c.Seed
			if !c.HasSeed {
				seed = rand.Int64N(1_000_000_000)
			}
			text := c.Script(filepath.Base(config), seed)
			if err := writeFile(script, func(w io.Writer) error { _, err := w.Write(text); return err }); err != nil {
				return classify(err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s (seed=%d); record the game into it, then run arbiter zombie run\n", script, seed)
			return judgeScript(script, judgeFlags{}, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&config, "config", "config.yml", "the config to read")
	cmd.Flags().StringVar(&script, "script", "game.txt", "the script to write")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite the script if it exists")
	return cmd
}

// judgeFlags are the output flags of run and watch.
type judgeFlags struct {
	json    bool
	private string
}

func (f *judgeFlags) add(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.json, "json", false, "print the same content as one JSON document")
	cmd.Flags().StringVar(&f.private, "private", "", "print only what player `NAME` may know: their PRIVATE lines and the PUBLIC ones")
}

func zombieRunCommand() *cobra.Command {
	var script string
	var flags judgeFlags
	cmd := &cobra.Command{
		Use:   "run [--script game.txt] [--json] [--private NAME]",
		Short: "Judge the script and print what the judge says",
		Long: `Judge the script line by line and print, in order: GAME START, the PRIVATE
messages and PUBLIC announcements, TURN t END after every turn, GAME OVER,
an ERROR line for every refused command (with its line number; the
command changes nothing and the next line is judged), then FINAL and one
STATE line per player with their true state.

--private NAME prints only what that player may know: their own PRIVATE
lines and the PUBLIC ones (never another player's state, never "infected").
--json prints the same content as one JSON document.

Exit codes: 0 no ERROR line; 1 some ERROR line; 2 the script cannot be read
or is not text, or NAME is not a player.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return judgeScript(script, flags, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&script, "script", "game.txt", "the script to judge")
	flags.add(cmd)
	return cmd
}

// judgeScript judges the script at path and prints the output the flags ask
// for. It returns exit code 1 when the script has ERROR lines, 2 when it
// cannot be read or judged.
func judgeScript(path string, f judgeFlags, out io.Writer) error {
	data, err := readInput(path)
	if errors.Is(err, fs.ErrNotExist) {
		return usagef("--script %s: no such file; arbiter zombie new-game writes one from the config", path)
	}
	if err != nil {
		return usagef("--script %s: %w", path, err)
	}
	t, err := zombie.Run(data)
	if err != nil {
		return usagef("%s: %w", path, err)
	}
	if err := writeTranscript(t, path, f, out); err != nil {
		return err
	}
	if t.Errors > 0 {
		return &exitError{exitRefused, fmt.Errorf("%s: %d ERROR %s", path, t.Errors, plural(t.Errors, "line", "lines"))}
	}
	return nil
}

// writeTranscript prints t as the flags ask.
func writeTranscript(t *zombie.Transcript, path string, f judgeFlags, out io.Writer) error {
	var err error
	switch {
	case f.private != "":
		who, ok := t.Lookup(f.private)
		if !ok {
			names := make([]string, len(t.Players))
			for i, p := range t.Players {
				names[i] = p.Name
			}
			if len(names) == 0 {
				return usagef("--private %s: %s has no players", f.private, path)
			}
			return usagef("--private %s: no such player in %s; the players are %s", f.private, path, strings.Join(names, ", "))
		}
		if f.json {
			err = t.WritePrivateJSON(out, who)
		} else {
			err = t.WritePrivate(out, who)
		}
	case f.json:
		err = t.WriteJSON(out)
	default:
		err = t.WriteText(out)
	}
	return classify(err)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func zombieWatchCommand() *cobra.Command {
	var script string
	var flags judgeFlags
	var settle time.Duration
	cmd := &cobra.Command{
		Use:   "watch [--script game.txt] [--json] [--private NAME]",
		Short: "Judge the script again whenever it is saved",
		Long: `Judge the script, then again every time it changes, until interrupted
(Ctrl-C). It watches the script's directory, since editors save by writing
a new file and renaming it over the old one, and waits until the file has
been quiet for a moment (--settle) before judging it. A script that is
missing or half-written is judged as it stands, or reported, and the watch
goes on. It writes nothing and clears nothing: each run's output follows
the last, after a line on standard error that says which run it is.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if settle < 0 {
				return usagef("--settle %v: give a duration of 0 or more", settle)
			}
			return watchScript(cmd.Context(), script, flags, settle, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVar(&script, "script", "game.txt", "the script to watch")
	cmd.Flags().DurationVar(&settle, "settle", 100*time.Millisecond, "how long the file must be quiet before it is judged")
	flags.add(cmd)
	return cmd
}

// watchScript judges the script now and after every change to it, until ctx
// ends.
func watchScript(ctx context.Context, path string, f judgeFlags, settle time.Duration, out, errOut io.Writer) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return classify(fmt.Errorf("watch: %w", err))
	}
	defer w.Close()
	dir, base := filepath.Dir(path), filepath.Base(path)
	if err := w.Add(dir); err != nil {
		return usagef("watch %s: %w", dir, err)
	}
	runs := 0
	judge := func() {
		runs++
		fmt.Fprintf(errOut, "== %s: run %d at %s ==\n", path, runs, time.Now().Format("15:04:05"))
		var buf bytes.Buffer
		err := judgeScript(path, f, &buf)
		out.Write(buf.Bytes())
		var e *exitError
		switch {
		case err == nil:
			fmt.Fprintf(errOut, "== %s: run %d: no ERROR line ==\n", path, runs)
		case errors.As(err, &e) && e.code == exitRefused:
			fmt.Fprintf(errOut, "== %s: run %d: %v ==\n", path, runs, err)
		default:
			fmt.Fprintf(errOut, "== %s: run %d: %v; watching for the next save ==\n", path, runs, err)
		}
	}
	judge()
	var timer *time.Timer
	var fire <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if filepath.Base(ev.Name) != base || !ev.Has(fsnotify.Write|fsnotify.Create|fsnotify.Rename|fsnotify.Remove) {
				continue
			}
			if timer == nil {
				timer = time.NewTimer(settle)
			} else {
				timer.Reset(settle)
			}
			fire = timer.C
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			fmt.Fprintf(errOut, "== watch: %v ==\n", err)
		case <-fire:
			fire = nil
			judge()
		}
	}
}

func zombieScriptCommand() *cobra.Command {
	var outPath string
	var force bool
	cmd := &cobra.Command{
		Use:   "script RECORD.jsonl [--out game.txt] [--force]",
		Short: "Convert a record of arbiter play zombie into the game's script",
		Long: `Convert a match record of arbiter play zombie (--record DIR) into the
game.txt of the same game: the roster P1, P2, … with the seats' players in
comments, GAME_START, and every turn's commands in the order the match
made them. arbiter zombie run judges it to exactly the match's output.

Without --out the script is printed. A record that does not replay exits 1.`,
		Args: exactlyOne("a record file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if force && outPath == "" {
				return usagef("--force replaces --out FILE; give --out too")
			}
			data, err := readInput(args[0])
			if err != nil {
				return usagef("%s: %w", args[0], err)
			}
			h, err := engine.ReadHeader(bytes.NewReader(data))
			if err != nil {
				// A script given for a record, most likely: say what each is.
				return usagef("%s: %w; arbiter zombie script converts a match record (arbiter play zombie --record DIR writes DIR/game-0001.jsonl, ...); a script is judged by arbiter zombie run --script FILE", args[0], err)
			}
			if h.Ruleset != (zombie.Game{}).Info().Name {
				return usagef("%s is a record of %s; arbiter zombie script converts zombie records", args[0], h.Ruleset)
			}
			rec, err := engine.ReadRecord[zombie.Plan](bytes.NewReader(data))
			if err != nil {
				return usagef("%s: %w", args[0], err)
			}
			text, err := zombie.Script(rec)
			if err != nil {
				var re *engine.ReplayError
				if errors.As(err, &re) {
					return classify(fmt.Errorf("%s: %w", args[0], err))
				}
				return usagef("%s: %w", args[0], err)
			}
			if outPath == "" {
				_, err := cmd.OutOrStdout().Write(text)
				return classify(err)
			}
			if err := refuseOverwrite(outPath, force, "--out"); err != nil {
				return err
			}
			if err := writeFile(outPath, func(w io.Writer) error { _, err := w.Write(text); return err }); err != nil {
				return classify(err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s; arbiter zombie run --script %s judges it\n", outPath, outPath)
			return nil
		},
	}
	cmd.Flags().StringVar(&outPath, "out", "", "write the script to this file instead of printing it")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite --out if it exists")
	return cmd
}
