// Package doctest checks what the project's documents say, for tests
// that hold a document to what the code does.
package doctest

import (
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// Says fails t unless the document at path says each of claims, with its
// lines joined and its runs of white space taken as one space, as a
// reader reads it.
func Says(t testing.TB, path string, claims ...string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(data)), " ")
	for _, claim := range claims {
		if !strings.Contains(doc, claim) {
			t.Errorf("%s does not say %s", path, claim)
		}
	}
}

// PackageSays fails t unless the doc comment of package name, in the
// directory dir, says each of claims: go doc of a package is where a Go
// programmer starts.
func PackageSays(t testing.TB, dir, name string, claims ...string) {
	t.Helper()
	pkgs, err := parser.ParseDir(token.NewFileSet(), dir, nil, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var doc strings.Builder
	for _, f := range pkgs[name].Files {
		if f.Doc != nil {
			doc.WriteString(f.Doc.Text())
		}
	}
	for _, claim := range claims {
		if !strings.Contains(doc.String(), claim) {
			t.Errorf("the doc of package %s does not say %q:\n%s", name, claim, doc.String())
		}
	}
}

// TablesWhole fails t for each row of a Markdown table in the document at
// path that stands outside its table: a line that begins with "|" after a
// line that is not one of a table's (a paragraph put between a table's
// rows leaves the rows after it as text, the call they tell of missing
// from the table a reader looks it up in). Lines in code blocks are left
// alone.
func TablesWhole(t testing.TB, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	code := false
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			code = !code
			continue
		}
		if code || !strings.HasPrefix(line, "|") {
			continue
		}
		// A table begins with its heading and the line under it
		// (|---|); every other row follows a row.
		heading := i+1 < len(lines) && strings.HasPrefix(lines[i+1], "|") && strings.Trim(lines[i+1], "|-: ") == ""
		if !heading && (i == 0 || !strings.HasPrefix(lines[i-1], "|")) {
			t.Errorf("%s:%d: a table's row outside its table (after %q): %.60s", path, i+1, lineBefore(lines, i), line)
		}
	}
}

// lineBefore is the line before line i, cut for a message.
func lineBefore(lines []string, i int) string {
	if i == 0 {
		return ""
	}
	return lines[i-1]
}
