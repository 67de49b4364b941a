package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func sealedTally(t testing.TB) (*Record[int], []byte) {
	t.Helper()
	rec, m, err := play(context.Background(), 3, time.Second, picker(3), unbounded(func(r *Request[int]) (int, error) {
		if r.ID == 3 {
			return 9, nil // one illegal answer, so the record has a fault
		}
		return 2, nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Seal(m); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := rec.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return rec, buf.Bytes()
}

func TestRecordJSONLines(t *testing.T) {
	// "The on-disk match record is JSON Lines: a header line (format version,
	// rules version, ruleset and variant name, setup), one line per applied
	// move (seat, move; decision time and faults only where they happened),
	// and a final line with the result and a hash of the final state."
	_, data := sealedTally(t)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 1+6+1 {
		t.Fatalf("%d lines; want header, 6 moves, end:\n%s", len(lines), data)
	}
	wantHeader := `{"format":"arbiter-record","version":1,"ruleset":"tally","variant":"plain","rules_version":"1","setup":{"seed":1,"players":["p0","p1"],"options":{"rounds":"3"}}}`
	if lines[0] != wantHeader {
		t.Errorf("header\n got %s\nwant %s", lines[0], wantHeader)
	}
	if lines[1] != `{"seat":0,"move":3}` {
		t.Errorf("move line %s", lines[1])
	}
	if lines[3] != `{"seat":0,"move":3}` || lines[4] != `{"seat":1,"move":1,"fault":{"kind":"illegal","detail":"9 is not offered; pick 1, 2 or 3"}}` {
		t.Errorf("lines 3-4:\n%s\n%s", lines[3], lines[4])
	}
	if !strings.HasPrefix(lines[7], `{"result":{"scores":[9,5],"ranks":[1,2],"winners":[0],"reason":"rounds"},"hash":"sha256:`) {
		t.Errorf("end line %s", lines[7])
	}
	// The end line ends with the digest of the lines above it.
	sum := sha256.Sum256([]byte(strings.Join(lines[:7], "\n") + "\n"))
	if want := `,"lines":"sha256:` + hex.EncodeToString(sum[:]) + `"}`; !strings.HasSuffix(lines[7], want) {
		t.Errorf("end line %s\ndoes not end with %s", lines[7], want)
	}
}

func TestRecordRoundTrip(t *testing.T) {
	rec, data := sealedTally(t)
	back, err := ReadRecord[int](bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	// What was read has the digest that was written.
	if !strings.HasPrefix(back.End.Lines, "sha256:") || !strings.Contains(string(data), back.End.Lines) {
		t.Errorf("read the digest %q", back.End.Lines)
	}
	rec.End.Lines = back.End.Lines
	if diff := cmp.Diff(rec, back); diff != "" {
		t.Error(diff)
	}
	h, err := ReadHeader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rec.Header, h); diff != "" {
		t.Error(diff)
	}
}

func TestRecordDeterministic(t *testing.T) {
	// "Same setup + same moves => byte-identical states and results."
	_, a := sealedTally(t)
	_, b := sealedTally(t)
	if !bytes.Equal(a, b) {
		t.Errorf("two plays of the same match differ:\n%s\n%s", a, b)
	}
}

func TestReplay(t *testing.T) {
	rec, data := sealedTally(t)
	var rounds int
	if _, err := Replay[int, tallyView](tally{}, rec, func(Match[int, tallyView]) { rounds++ }); err != nil {
		t.Fatal(err)
	}
	if rounds != 4 { // the start and three rounds
		t.Errorf("the round callback ran %d times; want 4", rounds)
	}

	// The record without the digest of its lines, as an older Arbiter wrote
	// it, edited: the rules see what they can.
	tamper := func(old, new string) *Record[int] {
		t.Helper()
		r, err := ReadRecord[int](strings.NewReader(strings.Replace(withoutDigest(t, data), old, new, 1)))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	var re *ReplayError
	// A move the rules refuse.
	if _, err := Replay[int, tallyView](tally{}, tamper(`{"seat":0,"move":3}`, `{"seat":0,"move":7}`), nil); !errors.As(err, &re) || re.Step != 0 {
		t.Errorf("illegal move: %v", err)
	}
	// A different but legal move: the result no longer matches.
	if _, err := Replay[int, tallyView](tally{}, tamper(`{"seat":0,"move":3}`, `{"seat":0,"move":2}`), nil); !errors.As(err, &re) || !strings.Contains(err.Error(), "result differs") {
		t.Errorf("changed move: %v", err)
	}
	// A different hash.
	if _, err := Replay[int, tallyView](tally{}, tamper(`"hash":"sha256:`, `"hash":"sha256:00`), nil); err == nil || !strings.Contains(err.Error(), "final state differs") {
		t.Errorf("changed hash: %v", err)
	}
	// Another ruleset's record.
	other := *rec
	other.Header.Ruleset = "zombie"
	if _, err := Replay[int, tallyView](tally{}, &other, nil); err == nil {
		t.Error("a zombie record replayed as tally")
	}
	// An interrupted record replays its moves only.
	cut := *rec
	cut.Steps = cut.Steps[:3]
	cut.End = &End{Aborted: "interrupted"}
	if _, err := Replay[int, tallyView](tally{}, &cut, nil); err != nil {
		t.Errorf("interrupted record: %v", err)
	}
}

func TestReadRecordErrors(t *testing.T) {
	_, data := sealedTally(t)
	header, _, _ := strings.Cut(string(data), "\n")
	cases := map[string]string{
		"":         "empty file",
		"{}":       "format",
		"not json": "record line 1",
		strings.Replace(header, `"version":1`, `"version":9`, 1):            "version 9",
		header + "\n{\"seat\":0}":                                           "want a step",
		header + "\n{\"seat\":0,\"move\":\"x\"}":                            "record line 2",
		header + "\n{\"result\":{},\"hash\":\"\"}\n{\"seat\":0,\"move\":1}": "after the end line",
		header + "\n{\"seat\":0,\"move\":1,\"extra\":1}":                    "unknown field",
	}
	for in, want := range cases {
		if _, err := ReadRecord[int](strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadRecord(%.40q) = %v; want an error about %q", in, err, want)
		}
	}
}

func FuzzReadRecord(f *testing.F) {
	f.Add([]byte(`{"format":"arbiter-record","version":1,"ruleset":"tally","rules_version":"1","setup":{"seed":1,"players":["a"]}}
{"seat":0,"move":1}
{"result":{"scores":[1],"ranks":[1],"winners":[0]},"hash":"sha256:00"}`))
	f.Add([]byte("{}\n{}"))
	_, sealed := sealedTally(f)
	f.Add(sealed)
	f.Add([]byte(withoutDigest(f, sealed)))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ReadRecord[int](bytes.NewReader(data))
		if err != nil {
			return
		}
		// Whatever parses must replay without a panic: accepted or refused.
		_, _ = Replay[int, tallyView](tally{}, rec, nil)
		var buf bytes.Buffer
		if _, err := rec.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := ReadRecord[int](&buf)
		if err != nil {
			t.Fatalf("a record that was read cannot be read back: %v", err)
		}
		if back.End != nil {
			// Written again, the lines have their digest (of their new
			// bytes).
			if back.End.Lines == "" {
				t.Fatal("a record written without the digest of its lines")
			}
			back.End.Lines = ""
			if rec.End != nil {
				rec.End.Lines = ""
			}
		}
		if diff := cmp.Diff(rec, back); diff != "" {
			t.Fatal(diff)
		}
	})
}

func TestReplayWatchedSteps(t *testing.T) {
	// Each step is told with the request it answered, before it is applied.
	rec, _ := sealedTally(t)
	var told []int
	_, err := ReplayWatched[int, tallyView](tally{}, rec, Watch[int, tallyView]{Step: func(m Match[int, tallyView], req *Request[int], s Step[int]) error {
		if req == nil || req.Seat != s.Seat || req.Kind != "pick" {
			t.Errorf("step of seat %d told with request %+v", s.Seat, req)
		}
		told = append(told, s.Seat)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(told) != len(rec.Steps) {
		t.Errorf("%d steps told; the record has %d", len(told), len(rec.Steps))
	}
	stop := errors.New("enough")
	if _, err := ReplayWatched[int, tallyView](tally{}, rec, Watch[int, tallyView]{Step: func(Match[int, tallyView], *Request[int], Step[int]) error { return stop }}); !errors.Is(err, stop) {
		t.Errorf("a step's error: %v; want it to stop the replay", err)
	}
}

// withoutDigest is a record's text without the digest of its lines, as
// Arbiter wrote records before it kept one.
func withoutDigest(t testing.TB, data []byte) string {
	t.Helper()
	text := string(data)
	k := strings.LastIndex(text, `,"lines":"sha256:`)
	if k < 0 {
		t.Fatalf("no digest in\n%s", data)
	}
	end := strings.Index(text[k:], `"}`) + k
	return text[:k] + text[end+1:]
}

func TestReadRecordRefusesEditedLines(t *testing.T) {
	// The end line's digest of the lines above it shows an edit that the
	// rules cannot see: a player's name, a fault, a timing; and any other.
	_, data := sealedTally(t)
	text := string(data)
	fault := `,"fault":{"kind":"illegal","detail":"9 is not offered; pick 1, 2 or 3"}`
	lines := strings.SplitAfter(text, "\n")
	for _, c := range []struct {
		name, text, want string
	}{
		{"a player's name", strings.Replace(text, `"players":["p0","p1"]`, `"players":["p0","px"]`, 1), "record line 8: the record was edited: lines 1 to 7 do not match"},
		{"the seed", strings.Replace(text, `"seed":1`, `"seed":2`, 1), "record line 8: the record was edited"},
		{"a fault removed", strings.Replace(text, fault, "", 1), "record line 8: the record was edited"},
		{"a fault's kind", strings.Replace(text, `"kind":"illegal"`, `"kind":"timeout"`, 1), "record line 8: the record was edited"},
		{"a fault added", strings.Replace(text, `{"seat":0,"move":3}`, `{"seat":0,"move":3,"fault":{"kind":"timeout"}}`, 1), "record line 8: the record was edited"},
		{"a timing", strings.Replace(text, `{"seat":0,"move":3}`, `{"seat":0,"move":3,"decision_us":12}`, 1), "record line 8: the record was edited"},
		{"a move", strings.Replace(text, `{"seat":0,"move":3}`, `{"seat":0,"move":2}`, 1), "record line 8: the record was edited"},
		{"a line dropped", strings.Join(slices.Delete(slices.Clone(lines), 2, 3), ""), "record line 7: the record was edited: lines 1 to 6 do not match"},
		{"two lines swapped", strings.Join(append(slices.Clone(lines[:1]), append([]string{lines[2], lines[1]}, lines[3:]...)...), ""), "record line 8: the record was edited"},
		{"the digest", strings.Replace(text, `"lines":"sha256:`, `"lines":"sha256:0`, 1), "record line 8: the record was edited"},
	} {
		if c.text == text {
			t.Fatalf("%s: the edit changed nothing", c.name)
		}
		_, err := ReadRecord[int](strings.NewReader(c.text))
		if !errors.Is(err, ErrEdited) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error saying %q", c.name, err, c.want)
		}
	}
	// Spaces around a line are not an edit (a file saved with CRLF).
	if _, err := ReadRecord[int](strings.NewReader(strings.ReplaceAll(text, "\n", "\r\n"))); err != nil {
		t.Errorf("CRLF: %v", err)
	}
	// A blank line would move the lines from their numbers.
	if _, err := ReadRecord[int](strings.NewReader(strings.Replace(text, "\n", "\n\n", 2))); err == nil || !strings.Contains(err.Error(), "record line 2: a blank line inside the record") {
		t.Errorf("a blank line: %v", err)
	}
	if _, err := ReadRecord[int](strings.NewReader(text + "\n\n")); err != nil {
		t.Errorf("blank lines after the end: %v", err)
	}
}

func TestReplayChecksFaultedMoves(t *testing.T) {
	// A fault means the runner applied the request's default: a step with
	// a fault and another move is refused at its line, in a record with or
	// without the digest of its lines.
	_, data := sealedTally(t)
	old := withoutDigest(t, data)
	fault := `,"fault":{"kind":"illegal","detail":"9 is not offered; pick 1, 2 or 3"}`
	for _, c := range []struct {
		name, text, want string
	}{
		{"a fault added to a move of the player's", strings.Replace(old, `{"seat":0,"move":3}`, `{"seat":0,"move":3,"fault":{"kind":"timeout"}}`, 1),
			"replay: step 0 (record line 2): seat 0's move 3 has a fault (timeout), but a fault means the default move was applied, and the default is 1"},
		{"a faulted step's move changed", strings.Replace(old, `{"seat":1,"move":1`+fault, `{"seat":1,"move":2`+fault, 1),
			"replay: step 3 (record line 5): seat 1's move 2 has a fault (illegal), but a fault means the default move was applied, and the default is 1"},
		{"a line dropped", strings.Replace(old, `{"seat":1,"move":1`+fault+"}\n", "", 1),
			"replay: step 3 (record line 5): seat 0's move 3 was refused"},
	} {
		if c.text == old {
			t.Fatalf("%s: the edit changed nothing", c.name)
		}
		rec, err := ReadRecord[int](strings.NewReader(c.text))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var re *ReplayError
		if _, err := Replay[int, tallyView](tally{}, rec, nil); !errors.As(err, &re) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
	// Without the digest, what the rules cannot see goes unseen: the record
	// of an older Arbiter replays with another player's name.
	rec, err := ReadRecord[int](strings.NewReader(strings.Replace(old, `"players":["p0","p1"]`, `"players":["p0","px"]`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if rec.End.Lines != "" {
		t.Errorf("a record without a digest read with %q", rec.End.Lines)
	}
	if _, err := Replay[int, tallyView](tally{}, rec, nil); err != nil {
		t.Errorf("an old record: %v", err)
	}
}

func TestRecordKeepsNotes(t *testing.T) {
	// A judge's note on a move of theirs (a correction's reason) is on its
	// step's line, read back, and under the record's digest like the rest.
	rec, _ := sealedTally(t)
	rec.Notes = map[int]string{1: "the judge's reason"}
	var buf bytes.Buffer
	if _, err := rec.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(buf.String(), "\n"); !strings.HasSuffix(lines[2], `,"note":"the judge's reason"}`) || strings.Contains(lines[1]+lines[3], "note") {
		t.Errorf("the record:\n%s\nwant the note on step 1's line (the third) only", buf.String())
	}
	back, err := ReadRecord[int](bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rec.Notes, back.Notes); diff != "" {
		t.Errorf("notes read back (-written +read):\n%s", diff)
	}
	edited := strings.Replace(buf.String(), "the judge's reason", "another reason", 1)
	if _, err := ReadRecord[int](strings.NewReader(edited)); !errors.Is(err, ErrEdited) {
		t.Errorf("a note edited: %v; want ErrEdited", err)
	}
}
