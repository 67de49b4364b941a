package server_test

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/server"
)

// A board may name its map by file when the server's operator offers
// maps (arbiter serve --maps DIR): the file is read from DIR when the
// match is created and kept in the match, which is drawn on it from then
// on. Nothing outside DIR is read: no path from /, no .., no link that
// leads out, nothing but a regular .svg file of at most 1 MiB.
func TestABoardNamesAMapTheServerOffers(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "maps")
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "west.svg"), twoLandsMap)
	write(filepath.Join(dir, "more", "two.svg"), twoLandsMap)
	write(filepath.Join(dir, "a", "deep.svg"), twoLandsMap)
	write(filepath.Join(dir, "notes.txt"), twoLandsMap)
	write(filepath.Join(dir, "big.svg"), twoLandsMap+strings.Repeat(" ", 1<<20))
	write(filepath.Join(top, "outside.svg"), twoLandsMap)
	if err := os.Symlink(filepath.Join(top, "outside.svg"), filepath.Join(dir, "link.svg")); err != nil {
		t.Fatal(err)
	}
	// A link that stays inside is read where it leads, and offered.
	if err := os.Symlink(filepath.Join("more", "two.svg"), filepath.Join(dir, "again.svg")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	ts := newServer(t, server.Config{Maps: root})

	own := ts.create(map[string]any{"game": "territories", "mode": "referee", "options": map[string]any{"board": twoLandsBoard("west.svg")}, "judge": true})
	// The match carries its map: the file may go.
	if err := os.Remove(filepath.Join(dir, "west.svg")); err != nil {
		t.Fatal(err)
	}
	if a := ts.call("GET", "/api/v1/matches/"+own.ID+"/map.svg", "", nil); a.status != 200 || !bytes.Contains(a.body, []byte(`<path id="OR" data-name="Oregon"`)) {
		t.Errorf("the map named west.svg: %d %.300s", a.status, a.body)
	}
	if a := ts.call("POST", "/api/v1/matches/"+own.ID+"/moves", own.Judge.Secret, map[string]any{"move": map[string]any{"player": "ann", "action": "join Amber OR"}}); a.status != 200 {
		t.Fatalf("join: %d %s", a.status, a.body)
	}
	a := ts.call("GET", "/api/v1/matches/"+own.ID+"/board.png", "", nil)
	img, err := png.Decode(bytes.NewReader(a.body))
	if a.status != 200 || err != nil {
		t.Fatalf("the board as a PNG: %d, %v", a.status, err)
	}
	if r, g, b, _ := img.At(100, 180).RGBA(); r>>8 == 0xff && g>>8 == 0xff && b>>8 == 0xff {
		t.Errorf("Oregon, held, is not filled in the PNG: %v", img.At(100, 180))
	}
	if a := ts.call("GET", "/api/v1/matches/"+own.ID+"/record", own.Judge.Secret, nil); a.status != 200 || !bytes.Contains(a.body, []byte(`id=\\\"WA-armies\\\"`)) {
		t.Errorf("the record does not carry the map: %d %.300s", a.status, a.body)
	}
	ts.create(map[string]any{"game": "territories", "mode": "seats", "seats": people(2), "options": map[string]any{"board": twoLandsBoard("more/two.svg")}})
	ts.create(map[string]any{"game": "territories", "mode": "seats", "seats": people(2), "options": map[string]any{"board": twoLandsBoard("again.svg")}})

	for _, c := range []struct{ name, want string }{
		{"missing.svg", "the server has no such map"},
		{"../outside.svg", "no .."},
		{filepath.Join(top, "outside.svg"), "not from /"},
		{"link.svg", "the server has no such map"},
		{"notes.txt", "an .svg file"},
		{"big.svg", "larger than 1024 KiB"},
		{"more", "an .svg file"},
	} {
		a := ts.call("POST", "/api/v1/matches", "", map[string]any{"game": "territories", "mode": "referee", "options": map[string]any{"board": twoLandsBoard(c.name)}})
		e, _ := a.json["error"].(map[string]any)
		msg, _ := e["message"].(string)
		if a.status != 400 || !strings.Contains(msg, c.want) || !strings.Contains(msg, "the server's maps are again.svg, big.svg, a/deep.svg, more/two.svg") { // west.svg is gone; a link out is not offered
			t.Errorf("a board whose map is %q: %d %s; want 400 saying %q and naming the maps", c.name, a.status, a.body, c.want)
		}
		if strings.Contains(msg, top) && !strings.Contains(c.name, top) {
			t.Errorf("a board whose map is %q: the message names the server's directory: %s", c.name, msg)
		}
	}
}
