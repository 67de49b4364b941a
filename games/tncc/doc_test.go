package tncc

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestPackageDocSaysHowToWriteABot(t *testing.T) {
	// go doc of the package is where a Go programmer starts: it says what
	// the game is and how a bot is written and seated.
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", nil, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var doc strings.Builder
	for _, f := range pkgs["tncc"].Files {
		if f.Doc != nil {
			doc.WriteString(f.Doc.Text())
		}
	}
	for _, want := range []string{"Package tncc is TNCC", "implements Bot", "Player makes it", "Bots returns", "never the flanks"} {
		if !strings.Contains(doc.String(), want) {
			t.Errorf("the package doc does not say %q:\n%s", want, doc.String())
		}
	}
}
