package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func TestFlagUsagesNameOnlyTheirCommandsFlags(t *testing.T) {
	// A flag's usage that points to another flag (--deadline, --record)
	// points to one the same command has: a tournament's --bot-logs said
	// its default was in the --record directory, and a tournament has no
	// --record. (--help is cobra's, on every command; load's
	// --serve-flags names flags of the server it starts.)
	ref := regexp.MustCompile(`--([a-z][a-z-]*[a-z])`)
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if c.Name() == "load" && f.Name == "serve-flags" {
				return
			}
			for _, m := range ref.FindAllStringSubmatch(f.Usage, -1) {
				if m[1] == "help" {
					continue
				}
				if c.Flags().Lookup(m[1]) == nil && c.InheritedFlags().Lookup(m[1]) == nil {
					t.Errorf("arbiter %s --%s: its usage names --%s, which the command has not: %q", strings.Join(path, " "), f.Name, m[1], f.Usage)
				}
			}
		})
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				walk(sub, append(slices.Clone(path), sub.Name()))
			}
		}
	}
	walk(newRoot(), nil)
}
