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
