package territories

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestPackageDocSaysHowToWriteABot(t *testing.T) {
	// go doc of the package is where a Go programmer starts: besides the
	// referee, it says how a bot is written, seated and what it sees.
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", nil, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var doc strings.Builder
	for _, f := range pkgs["territories"].Files {
		if f.Doc != nil {
			doc.WriteString(f.Doc.Text())
		}
	}
	for _, want := range []string{"# Writing a bot", "implements [Bot]", "[Player] seats it", "[Bots] names", "never the match's"} {
		if !strings.Contains(doc.String(), want) {
			t.Errorf("the package doc does not say %q", want)
		}
	}
}
