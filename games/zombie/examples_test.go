package zombie

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestWorkedExamples judges the two worked scripts of the rules page
// (rules/zombie-examples.md, S1 and S12) and compares the output with
// theirs byte for byte: "For ERROR lines only ERROR line <n> <CODE> is
// fixed; free text may follow", so an ERROR line matches when it is the
// page's line followed by ": " and a reason.
func TestWorkedExamples(t *testing.T) {
	for _, name := range []string{"s1", "s12"} {
		t.Run(name, func(t *testing.T) {
			script, err := os.ReadFile(filepath.Join("testdata", name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", name+".out"))
			if err != nil {
				t.Fatal(err)
			}
			tr, err := Run(script)
			if err != nil {
				t.Fatal(err)
			}
			got := output(t, tr)
			if !strings.HasSuffix(got, "\n") || !strings.HasSuffix(string(want), "\n") {
				t.Fatal("an output without its last newline")
			}
			gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
			if len(gl) != len(wl) {
				t.Fatalf("%d lines; the page has %d:\n%s", len(gl), len(wl), got)
			}
			for i := range wl {
				g, w := gl[i], wl[i]
				if strings.HasPrefix(w, "ERROR ") {
					if !strings.HasPrefix(g, w+": ") || len(g) <= len(w)+2 {
						t.Errorf("line %d: %q; want %q and a reason", i+1, g, w)
					}
					continue
				}
				if g != w {
					t.Errorf("line %d: %q; want %q", i+1, g, w)
				}
			}
			if name == "s1" && got != string(want) {
				t.Error("S1 differs from the page")
			}
		})
	}
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n%s", name, got)
	}
}

// TestGoldenOutputs pins --json, --private and --private --json for the
// worked examples.
func TestGoldenOutputs(t *testing.T) {
	for _, name := range []string{"s1", "s12", "survivor", "ranking"} {
		script, err := os.ReadFile(filepath.Join("testdata", name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		tr, err := Run(script)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := tr.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		golden(t, name+".json", b.Bytes())
		if name == "survivor" || name == "ranking" {
			golden(t, name+".out", []byte(output(t, tr)))
		}
		for _, who := range []string{"Ann", "Zed"} {
			i, ok := tr.Lookup(who)
			if !ok {
				t.Fatalf("%s: no %s", name, who)
			}
			b.Reset()
			if err := tr.WritePrivate(&b, i); err != nil {
				t.Fatal(err)
			}
			golden(t, name+".private-"+strings.ToLower(who)+".txt", b.Bytes())
			b.Reset()
			if err := tr.WritePrivateJSON(&b, i); err != nil {
				t.Fatal(err)
			}
			golden(t, name+".private-"+strings.ToLower(who)+".json", b.Bytes())
		}
	}
}

func readTestdata(name string) ([]byte, error) { return os.ReadFile(filepath.Join("testdata", name)) }
