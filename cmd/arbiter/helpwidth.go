package main

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/arbiter-games/arbiter/internal/wrap"
	"github.com/spf13/cobra"
)

// helpWidth is the width of the terminal --help is written for.
const helpWidth = 80

// flagLine matches the start of a flag's line in a command's help, up to
// the column where its usage begins: "      --seed uint   " or
// "  -h, --help   ".
var flagLine = regexp.MustCompile(`^ +(?:-\S, )?--\S+(?: \S+)?  +`)

// commandLine matches the start of a line of a list of commands, up to the
// column where its description begins: "  play        ".
var commandLine = regexp.MustCompile(`^  \S+ +`)

// word matches a word of a line with the spaces before it, which a line
// that does not break there keeps as they are.
var word = regexp.MustCompile(`( *)(\S+)`)

// fitHelp sets cmd's help, and its subcommands', to lines of at most
// helpWidth columns: a flag's usage and a command's description carry on
// under their own column, prose under its own indentation. A command to
// copy ("  arbiter ...", the usage line and the examples) stays whole.
func fitHelp(cmd *cobra.Command) {
	help := cmd.HelpFunc()
	cmd.SetHelpFunc(func(c *cobra.Command, args []string) {
		out := c.OutOrStdout()
		var b bytes.Buffer
		c.SetOut(&b)
		help(c, args)
		c.SetOut(out)
		out.Write([]byte(fitLines(b.String(), helpWidth)))
	})
}

// fitLines breaks each line of text longer than width at spaces, as
// fitHelp describes; a word longer than a line stays whole.
func fitLines(text string, width int) string {
	var b strings.Builder
	commands := false
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch {
		case strings.HasSuffix(line, "Commands:"):
			commands = true
		case line == "":
			commands = false
		}
		if wrap.Cells(line) <= width || strings.HasPrefix(line, "  arbiter ") {
			b.WriteString(line)
			continue
		}
		head := line[:len(line)-len(strings.TrimLeft(line, " "))]
		if m := flagLine.FindString(line); m != "" {
			head = m
		} else if m := commandLine.FindString(line); commands && m != "" {
			head = m
		}
		b.WriteString(hang(line, head, min(len(head), width/2), width))
	}
	return b.String()
}

// hang breaks line, which starts with head, at spaces into lines of at
// most width columns, each after the first indented by lead spaces; a
// line that does not break keeps its spaces as they are. It returns the
// lines with no newline at the end.
func hang(line, head string, lead, width int) string {
	var b strings.Builder
	b.WriteString(head)
	n := wrap.Cells(head)
	for k, m := range word.FindAllStringSubmatch(line[len(head):], -1) {
		space, w := m[1], m[2]
		wl := wrap.Cells(w)
		switch {
		case k > 0 && n+len(space)+wl > width:
			b.WriteString("\n" + strings.Repeat(" ", lead))
			n = lead
		case k > 0:
			b.WriteString(space)
			n += len(space)
		}
		b.WriteString(w)
		n += wl
	}
	return b.String()
}
