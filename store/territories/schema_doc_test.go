package territories

import (
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"
)

// createTable matches a table's definition in the migrations.
var createTable = regexp.MustCompile(`(?s)CREATE TABLE (actions|nations|holdings) \((.*?)\n\);`)

func TestReadmeDocumentsEveryColumn(t *testing.T) {
	// The README's territories section gives SQL readers every column of
	// the tables other programs read, each under its table's name.
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	sql, err := fs.ReadFile(migrations, "migrations/00001_projection.sql")
	if err != nil {
		t.Fatal(err)
	}
	tables := createTable.FindAllStringSubmatch(string(sql), -1)
	if len(tables) != 3 {
		t.Fatalf("%d of the tables actions, nations and holdings found in the migrations", len(tables))
	}
	for _, m := range tables {
		table := m[1]
		var rows strings.Builder
		for line := range strings.Lines(string(readme)) {
			if strings.HasPrefix(line, "| `"+table+".") {
				rows.WriteString(line)
			}
		}
		for line := range strings.Lines(m[2]) {
			f := strings.Fields(line)
			if len(f) == 0 || f[0] == "PRIMARY" || f[0] == "UNIQUE" || f[0] == "--" {
				continue
			}
			col := f[0]
			if !strings.Contains(rows.String(), "`"+table+"."+col+"`") && !strings.Contains(rows.String(), "`."+col+"`") {
				t.Errorf("the README does not say what %s.%s holds", table, col)
			}
		}
	}
	for _, want := range []string{"`''` (an empty string) for the judge", "up to nine fractional digits"} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("the README does not say %q", want)
		}
	}
}
