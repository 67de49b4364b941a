package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReplayWritesTheViewer(t *testing.T) {
	// "arbiter replay --html FILE -o out.html writes the same viewer as one
	// self-contained file (the viewer's data embedded)."
	dir := t.TempDir()
	if code, _, errOut := arbiter(t, "", "play", "tncc", "--players", "war,blitz,turtle", "--seed", "4", "--record", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rec := filepath.Join(dir, "game-0001.jsonl")
	page := filepath.Join(dir, "replay.html")
	code, _, errOut := arbiter(t, "", "replay", "--html", rec, "-o", page)
	if code != 0 || !strings.Contains(errOut, "wrote "+page+": the replay viewer") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	for _, want := range []string{`id="replay-data-gz"`, "<style>", "DecompressionStream"} {
		if !strings.Contains(html, want) {
			t.Errorf("the page has no %q", want)
		}
	}
	// Nothing is fetched from elsewhere: no script or style by address.
	for _, ref := range []string{`src="`, `href="/`, `href="http`, "@import", "url(http"} {
		if strings.Contains(html, ref) {
			t.Errorf("the page refers to %q: it must stand alone", ref)
		}
	}
	// The page exists: without --force it is not replaced.
	if code, _, errOut := arbiter(t, "", "replay", "--html", rec, "-o", page); code != 2 || !strings.Contains(errOut, "--force") {
		t.Errorf("an existing page: exit %d, %s; want 2 and --force named", code, errOut)
	}
	if code, _, errOut := arbiter(t, "", "replay", "--html", rec); code != 2 || !strings.Contains(errOut, "-o FILE") {
		t.Errorf("--html without -o: exit %d, %s; want 2", code, errOut)
	}
	if code, _, errOut := arbiter(t, "", "replay", rec, "-o", page); code != 2 || !strings.Contains(errOut, "--html") {
		t.Errorf("-o without --html: exit %d, %s; want 2", code, errOut)
	}
}

func TestReplayWritesTheViewerWithJSONToo(t *testing.T) {
	// --json and --html -o PAGE.html go together: the verdict is printed
	// and the page written, where the page was left unwritten, and said
	// nothing of it.
	dir := t.TempDir()
	if code, _, errOut := arbiter(t, "", "play", "tncc", "--players", "war,blitz", "--seed", "4", "--record", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rec := filepath.Join(dir, "game-0001.jsonl")
	page := filepath.Join(dir, "replay.html")
	code, out, errOut := arbiter(t, "", "replay", rec, "--json", "--html", "-o", page)
	if code != 0 || !strings.Contains(out, `"ok": true`) || !strings.Contains(errOut, "wrote "+page) {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if _, err := os.Stat(page); err != nil {
		t.Errorf("the page: %v", err)
	}
	// Both to standard output would be neither JSON nor a page.
	if code, _, errOut := arbiter(t, "", "replay", rec, "--json", "--html", "-o", "-"); code != 2 || !strings.Contains(errOut, "standard output") {
		t.Errorf("--json with -o -: exit %d, %s; want 2", code, errOut)
	}
}

func TestReplayOfATerritoriesDatabaseRefusesTheRecordsFlags(t *testing.T) {
	// A territories database is checked by its log: it has no viewer's
	// page nor a cut end, and --html -o PAGE.html wrote no page, silently.
	db := newTerritories(t)
	page := filepath.Join(t.TempDir(), "page.html")
	for _, args := range [][]string{{"--html", "-o", page}, {"--partial"}} {
		code, out, errOut := arbiter(t, "", append([]string{"replay", db}, args...)...)
		if code != 2 || !strings.Contains(errOut, args[0]+" has no effect on a territories database") || out != "" {
			t.Errorf("%v: exit %d, %q %q; want 2 and %s refused", args, code, out, errOut, args[0])
		}
	}
	if _, err := os.Stat(page); err == nil {
		t.Error("a page was written")
	}
}
