package mapdraw

import (
	"testing"

	"github.com/arbiter-games/arbiter/games/territories"
	"golang.org/x/image/font/sfnt"
)

func TestDrawableHasAGlyphForEveryCharacter(t *testing.T) {
	// A character the Go fonts lack is drawn as Missing, once for what a
	// reader sees as one character, never as the font's empty box.
	for in, want := range map[string]string{
		"Pacifica":            "Pacifica",
		"Red 🐉":               "Red \uFFFD",
		"👨\u200d👩\u200d👧 Kin": "\uFFFD Kin",  // a family: one character of five code points
		"🇫🇷 Gaul":             "\uFFFD Gaul", // a flag: two
		"♥\uFE0F Hearts":      "♥ Hearts",    // the heart the fonts have; its selector left out
		"Cafe\u0301":          "Café",        // composed
		"中国":                  "\uFFFD\uFFFD",
		"Ж and ☺":             "Ж and ☺",
	} {
		for _, bold := range []bool{false, true} {
			got, err := faceCache{}.drawable(in, bold)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("drawable(%q, bold %v) = %q; want %q", in, bold, got, want)
			}
			fs, _ := fonts()
			f := fs[0]
			if bold {
				f = fs[1]
			}
			var buf sfnt.Buffer
			for _, r := range got {
				if i, err := f.GlyphIndex(&buf, r); err != nil || i == 0 {
					t.Errorf("drawable(%q) has %U, which the font draws as a box", in, r)
				}
			}
		}
	}
}

func TestPNGDrawsAnEmojiAsMissingNotAsABox(t *testing.T) {
	// A nation's name with an emoji is listed on the PNG as the same name
	// with Missing in the emoji's place: the pictures are the same, pixel
	// for pixel.
	draw := func(nation string) []byte {
		t.Helper()
		cfg := territories.Sample()
		w := territories.NewWorld(cfg)
		if _, err := w.Apply("alice", territories.JoinAction(nation, "CA")); err != nil {
			t.Fatal(err)
		}
		m, err := Parse(territories.SampleMap(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		img, err := m.Image(w)
		if err != nil {
			t.Fatal(err)
		}
		return img.Pix
	}
	emoji, missing, box := draw("Red 🐉"), draw("Red \uFFFD"), draw("Red")
	if string(emoji) != string(missing) {
		t.Error("the map of Red 🐉 differs from the map of Red \uFFFD: the emoji is not drawn as Missing")
	}
	if string(missing) == string(box) {
		t.Error("Missing draws nothing")
	}
}
