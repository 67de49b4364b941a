package tncc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/internal/doctest"
)

func TestPackageDocSaysHowToWriteABot(t *testing.T) {
	// go doc of the package is where a Go programmer starts: it says what
	// the game is and how a bot is written and seated.
	doctest.PackageSays(t, ".", "tncc", "Package tncc is TNCC", "implements Bot", "Player makes it", "Bots returns", "never the flanks")
}

func TestPresetFieldsSayWhatTheyAre(t *testing.T) {
	// A bot reads the game's numbers from its view's Preset: each says in
	// go doc what it is, and when it counts, as the rules name it.
	f, err := parser.ParseFile(token.NewFileSet(), "preset.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != "Preset" {
			return true
		}
		doc := ""
		for _, field := range ts.Type.(*ast.StructType).Fields.List {
			if field.Doc != nil {
				doc = field.Doc.Text()
			}
			for _, name := range field.Names {
				if !strings.Contains(doc, name.Name) {
					t.Errorf("Preset.%s: its doc comment does not name it: %q", name.Name, doc)
				}
			}
		}
		return false
	})
}
