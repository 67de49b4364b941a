package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/web"
	"github.com/spf13/cobra"
)

// replayPage is what arbiter replay --html writes: the replay viewer as one
// self-contained page.
type replayPage struct {
	html  bool
	out   string
	force bool
}

// flags adds the page's flags to the replay command.
func (p *replayPage) flags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&p.html, "html", false, "write the replay viewer as one self-contained page (-o FILE): step, play, seek, and see the match as the judge, the public or any seat saw it")
	f.StringVarP(&p.out, "output", "o", "", "the page's file, with --html (- for standard output)")
	f.BoolVar(&p.force, "force", false, "replace the page if it exists")
}

// check refuses flags that do not go together, before anything is read.
func (p *replayPage) check() error {
	switch {
	case p.html && p.out == "":
		return usagef("--html writes a page: give its file with -o FILE (or -o - for standard output)")
	case !p.html && p.out != "":
		return usagef("-o %s goes with --html, the replay viewer's page", p.out)
	case p.force && (p.out == "" || p.out == "-"):
		return usagef("--force replaces the page's file; give --html -o PAGE.html too")
	case p.out != "" && p.out != "-":
		return checkOutput("output", p.out, p.force)
	}
	return nil
}

// write writes the viewer of the record data, every viewpoint's views in
// it, and says where.
func (p *replayPage) write(cmd *cobra.Command, file string, data []byte) error {
	if !p.html {
		return nil
	}
	v, err := catalog.ReplayViewer(data, catalog.ViewerOptions{})
	if err != nil {
		return classify(fmt.Errorf("%s: %w", file, err))
	}
	b, err := json.Marshal(v)
	if err != nil {
		return classify(err)
	}
	title := fmt.Sprintf("Replay of %s (%s)", strings.TrimSuffix(file, ".jsonl"), v.Game)
	if p.out == "-" {
		return classify(web.WriteReplay(cmd.OutOrStdout(), title, b))
	}
	f, err := os.Create(p.out)
	if err != nil {
		return usagef("-o %s: %v", p.out, pathCause(err))
	}
	if err := web.WriteReplay(f, title, b); err != nil {
		f.Close()
		return classify(err)
	}
	if err := f.Close(); err != nil {
		return classify(err)
	}
	fi, _ := os.Stat(p.out)
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s: the replay viewer, %d moves seen by the judge, the public and %d seats (%d KB); open it in a browser\n",
		p.out, v.Moves, len(v.Players), fi.Size()/1024)
	return nil
}
