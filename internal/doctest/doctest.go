// Package doctest checks what the project's documents say, for tests
// that hold a document to what the code does.
package doctest

import (
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
