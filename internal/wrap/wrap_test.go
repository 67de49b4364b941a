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

// FuzzWrite checks that no line is longer than the width unless it is one
// word, and that the words come out as they went in.
func FuzzWrite(f *testing.F) {
	f.Add("one two three", 7)
	f.Add("1\u00a0Alice  \t2\u00a0Bob", 3)
	f.Fuzz(func(t *testing.T, text string, width int) {
		if !utf8.ValidString(text) || width < 1 || width > 200 {
			return
		}
		var b strings.Builder
		Write(&b, text, "", "", width)
		out := b.String()
		if !strings.HasSuffix(out, "\n") {
			t.Fatalf("%q does not end in a newline", out)
		}
		words := map[string]bool{}
		for _, w := range strings.FieldsFunc(text, breaks) {
			words[strings.ReplaceAll(w, string(NoBreak), " ")] = true
		}
		for line := range strings.SplitSeq(strings.TrimSuffix(out, "\n"), "\n") {
			if utf8.RuneCountInString(line) > width && !words[line] {
				t.Fatalf("line %q is longer than %d and more than one word", line, width)
			}
		}
		same := func(s string) string {
			return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == NoBreak || unicode.IsSpace(r) }), " ")
		}
		if same(out) != same(text) {
			t.Fatalf("words changed: %q became %q", text, out)
		}
	})
}
