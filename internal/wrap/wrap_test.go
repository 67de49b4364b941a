package wrap

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestWrite(t *testing.T) {
	for _, tc := range []struct {
		text, first, rest string
		width             int
		want              string
	}{
		{"", "", "", 10, "\n"},
		{"   \t ", "> ", "  ", 10, "\n"},
		{"one two three", "", "", 80, "one two three\n"},
		{"one two three", "", "", 7, "one two\nthree\n"},
		{"one two three", "- ", "  ", 7, "- one\n  two\n  three\n"},
		{"a  b\n\tc", "", "", 80, "a b c\n"},
		{"unbreakable-word x", "", "", 5, "unbreakable-word\nx\n"},
		{"seat 1\u00a0Alice and 2\u00a0Bob", "", "", 12, "seat 1 Alice\nand 2 Bob\n"},
		{"été été", "", "", 7, "été été\n"},
		{"été été", "", "", 6, "été\nété\n"},
		// Cells, not runes: a wide character takes two, a combining mark
		// none, an emoji two.
		{"太郎 太郎", "", "", 9, "太郎 太郎\n"},
		{"太郎 太郎", "", "", 8, "太郎\n太郎\n"},
		{"Jose\u0301 Jose\u0301", "", "", 9, "Jose\u0301 Jose\u0301\n"},
		{"🎲 🎲 🎲", "", "", 7, "🎲 🎲\n🎲\n"},
		{"a b c", "太", "  ", 5, "太a b\n  c\n"},
		{"a b c", "太", "太郎", 5, "太a b\n太郎c\n"},
	} {
		var b strings.Builder
		Write(&b, tc.text, tc.first, tc.rest, tc.width)
		if got := b.String(); got != tc.want {
			t.Errorf("Write(%q, %q, %q, %d) = %q, want %q", tc.text, tc.first, tc.rest, tc.width, got, tc.want)
		}
	}
}

func TestParagraphs(t *testing.T) {
	got := Paragraphs("one two three\n\nfour five\n", 8)
	want := "one two\nthree\n\nfour\nfive\n"
	if got != want {
		t.Errorf("Paragraphs = %q, want %q", got, want)
	}
}

// FuzzWrite checks, in the cells a terminal shows, that no line is wider
// than the width unless it holds a single word (an unbreakable word wider
// than a line), that no line breaks before a word that would have fitted
// on it, and that the words come out as they went in, in order, after
// their margins.
func FuzzWrite(f *testing.F) {
	f.Add("one two three", "", "", 7)
	f.Add("1\u00a0Alice  \t2\u00a0Bob", "", "", 3)
	f.Add("太郎 and Jose\u0301 and 👩\u200d🚀 and 🇯🇵 play", "- ", "  ", 9)
	f.Add("한국어 ｱｲｳ e\u0301\u0301 x", "太", "  ", 5)
	f.Fuzz(func(t *testing.T, text, first, rest string, width int) {
		if !utf8.ValidString(text) || width < 1 || width > 200 {
			return
		}
		// A margin is a prefix of its own: no word of the text, nor one
		// that joins the word after it into a cluster (below).
		for _, m := range []string{first, rest} {
			if !utf8.ValidString(m) || strings.ContainsFunc(m, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }) {
				return
			}
		}
		var b strings.Builder
		Write(&b, text, first, rest, width)
		out := b.String()
		if !strings.HasSuffix(out, "\n") {
			t.Fatalf("%q does not end in a newline", out)
		}
		var words []string
		for _, w := range strings.FieldsFunc(text, breaks) {
			w = strings.ReplaceAll(w, string(NoBreak), " ")
			for _, m := range []string{first, rest} {
				if Cells(m+w) != Cells(m)+Cells(w) {
					return // the margin and the word are one cluster, an emoji joined to a ZWJ
				}
			}
			words = append(words, w)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(words) == 0 {
			if out != "\n" {
				t.Fatalf("%q has no words but became %q", text, out)
			}
			return
		}
		k := 0 // the next word to find
		for i, line := range lines {
			margin := first
			if i > 0 {
				margin = rest
			}
			l, ok := strings.CutPrefix(line, margin)
			if !ok {
				t.Fatalf("line %d %q does not begin with its margin %q", i+1, line, margin)
			}
			n := 0 // words on the line
			for {
				if k == len(words) || !strings.HasPrefix(l, words[k]) {
					t.Fatalf("words changed: %q became %q (line %d)", text, out, i+1)
				}
				l = l[len(words[k]):]
				k, n = k+1, n+1
				if l == "" {
					break
				}
				if l, ok = strings.CutPrefix(l, " "); !ok {
					t.Fatalf("words changed: %q became %q (line %d)", text, out, i+1)
				}
			}
			if w := Cells(line); w > width && n > 1 {
				t.Fatalf("line %q is %d cells, wider than %d, and more than one word", line, w, width)
			}
			if i+1 < len(lines) && Cells(line)+1+Cells(words[k]) <= width {
				t.Fatalf("line %q broke before %q, which fits in %d cells", line, words[k], width)
			}
		}
		if k != len(words) {
			t.Fatalf("words lost: %q became %q", text, out)
		}
	})
}

func TestCells(t *testing.T) {
	for _, tc := range []struct {
		s     string
		cells int
	}{
		{"", 0},
		{"Alice", 5},
		{"太郎", 4},
		{"Jose\u0301", 4}, // decomposed: e and a combining acute
		{"José", 4},
		{"🎲", 2},
		{"👩\u200d🚀", 2}, // one cluster, joined by a ZWJ
		{"🇯🇵", 2},
		{"한국어", 6},
		{"μ ± σ…", 6}, // ambiguous, one cell whatever the locale
	} {
		if got := Cells(tc.s); got != tc.cells {
			t.Errorf("Cells(%q) = %d, want %d", tc.s, got, tc.cells)
		}
		if got := CellsOf([]byte(tc.s)); got != tc.cells {
			t.Errorf("CellsOf(%q) = %d, want %d", tc.s, got, tc.cells)
		}
	}
}

func TestCellsOfDoesNotAllocate(t *testing.T) {
	b := []byte("you→ 太郎 · Jose\u0301")
	if n := testing.AllocsPerRun(100, func() { _ = CellsOf(b) }); n != 0 {
		t.Errorf("CellsOf allocates %v times", n)
	}
}

func TestHeadTailMiddle(t *testing.T) {
	for _, tc := range []struct {
		s                  string
		width              int
		head, tail, middle string
	}{
		{"Alice", 9, "Alice", "Alice", "Alice"},
		{"abcdefghij", 7, "abcdefg", "defghij", "ab…ghij"},
		// A wide character that would straddle the cut is left out.
		{"太郎と花子", 5, "太郎", "花子", "…花子"},
		{"太郎と花子", 6, "太郎と", "と花子", "…花子"},
		{"太郎と花子", 7, "太郎と", "と花子", "太…花子"},
		// Never inside a cluster: the accent stays with its e, the ZWJ
		// with its emoji.
		{"Jose\u0301Mari\u0301a", 4, "Jose\u0301", "ari\u0301a", "J…i\u0301a"},
		{"e\u0301e\u0301e\u0301e\u0301", 2, "e\u0301e\u0301", "e\u0301e\u0301", "…e\u0301"},
		{"👩\u200d🚀👩\u200d🚀x", 3, "👩\u200d🚀", "👩\u200d🚀x", "…x"},
		{"abc", 0, "", "", ""},
	} {
		if got := Head(tc.s, tc.width); got != tc.head {
			t.Errorf("Head(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.head)
		}
		if got := Tail(tc.s, tc.width); got != tc.tail {
			t.Errorf("Tail(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.tail)
		}
		got := Middle(tc.s, tc.width)
		if got != tc.middle {
			t.Errorf("Middle(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.middle)
		}
		if Cells(got) > tc.width {
			t.Errorf("Middle(%q, %d) = %q, %d cells", tc.s, tc.width, got, Cells(got))
		}
	}
}

func TestFirstRunes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"Alice", 9, "Alice"},
		{"Alice", 3, "Ali"},
		{"太郎と花子", 3, "太郎と"},
		{"Jose\u0301", 4, "Jos"}, // the e goes with its accent
		{"Jose\u0301", 5, "Jose\u0301"},
		{"ab👩\u200d🚀", 4, "ab"}, // the astronaut is three runes, one cluster
		{"ab👩\u200d🚀", 5, "ab👩\u200d🚀"},
		{"abc", 0, ""},
	} {
		if got := FirstRunes(tc.s, tc.n); got != tc.want {
			t.Errorf("FirstRunes(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func TestPad(t *testing.T) {
	for _, tc := range []struct {
		s           string
		width       int
		right, left string
	}{
		{"ab", 4, "ab  ", "  ab"},
		{"太郎", 6, "太郎  ", "  太郎"},
		{"Jose\u0301", 5, "Jose\u0301 ", " Jose\u0301"},
		{"🎲", 3, "🎲 ", " 🎲"},
		{"太郎", 3, "太郎", "太郎"},
	} {
		if got := PadRight(tc.s, tc.width); got != tc.right {
			t.Errorf("PadRight(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.right)
		}
		if got := PadLeft(tc.s, tc.width); got != tc.left {
			t.Errorf("PadLeft(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.left)
		}
	}
}
