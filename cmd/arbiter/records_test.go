package main

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/player"
)

var updateRecords = flag.Bool("update-records", false, "rewrite the golden records in testdata/records")

// recordSeries are seeded series of every game, with their players, whose
// records, reports and tournament results must stay the same, byte for byte:
// making play faster never changes what is played.
var recordSeries = []struct {
	name string
	args []string
}{
	{"ajveciv-basic", []string{"play", "ajveciv", "--seed", "11", "--games", "3"}},
	{"ajveciv-mixed", []string{"play", "ajveciv", "--seed", "12", "--games", "2", "--players", "basic2.conquer-exchange,random,basic3.develop-consent-expand,basic"}},
	{"ajveciv-planner", []string{"play", "ajveciv", "--seed", "13", "--turns", "30", "--no-inflections", "--players", "planner,random,basic.expand"}},
	{"reaj-fixed", []string{"play", "reaj", "--seed", "21", "--games", "3"}},
	{"reaj-mixed", []string{"play", "reaj", "--seed", "22", "--games", "2", "--players", "steward,random,fixed,steward"}},
	{"tncc-default", []string{"play", "tncc", "--seed", "31", "--games", "3"}},
	{"tncc-all", []string{"play", "tncc", "--seed", "32", "--games", "2", "--players", "nothing,turtle,war,blitz,trader,general"}},
	{"tncc-crazy", []string{"play", "tncc", "--seed", "33", "--games", "2", "--preset", "crazy", "--players", "trader,general,war,blitz"}},
	{"tncc-decay", []string{"play", "tncc", "--seed", "34", "--preset", "decay", "--players", "turtle,general,trader"}},
	{"zombie-default", []string{"play", "zombie", "--seed", "41", "--games", "3"}},
	{"zombie-mixed", []string{"play", "zombie", "--seed", "42", "--games", "2", "--zombies", "2", "--turns", "8", "--players", "sensible,cautious,spreader,random,sensible,cautious,random"}},
	{"territories-default", []string{"play", "territories", "--seed", "51", "--games", "2"}},
	{"territories-mixed", []string{"play", "territories", "--seed", "52", "--turns", "40", "--players", "random,greedy,greedy,random,greedy"}},
}

// tournamentSeries are seeded tournaments whose results (with each game's
// digest), standings and training lines must stay the same. The long ones
// play the workloads of the games' benchmarks, many seeds each.
var tournamentSeries = []struct {
	name string
	args []string
}{
	{"tournament-ajveciv-long", []string{"tournament", "ajveciv", "--seed", "1", "--players", "basic", "--games", "40"}},
	{"tournament-reaj-long", []string{"tournament", "reaj", "--seed", "1", "--players", "fixed", "--games", "40"}},
	{"tournament-tncc-long", []string{"tournament", "tncc", "--seed", "1", "--players", "nothing,turtle,war,blitz", "--games", "60"}},
	{"tournament-territories", []string{"tournament", "territories", "--seed", "71", "--players", "greedy,random", "--seats", "2", "--games", "5"}},
	{"tournament-zombie", []string{"tournament", "zombie", "--seed", "81", "--players", "sensible,cautious,spreader,random", "--games", "3"}},
	{"tournament-reaj", []string{"tournament", "reaj", "--seed", "61", "--players", "conquer,steward,random,adapt", "--seats", "3", "--parallel", "2"}},
	{"tournament-ajveciv", []string{"tournament", "ajveciv", "--seed", "62", "--players", "basic.conquer,random,basic2.develop-consent", "--parallel", "1"}},
	{"tournament-tncc", []string{"tournament", "tncc", "--seed", "63", "--players", "turtle,war,trader,general", "--seats", "3", "--parallel", "2"}},
}

// timed returns args, a play or tournament command, with --deadline d,
// unless every player it seats is a built-in AI that nothing times, where
// the flag is refused (catalog.Game.Untimed): its players are those of
// --players and --player, else the game's default players.
func timed(t *testing.T, args []string, d string) []string {
	t.Helper()
	g, err := catalog.Find(args[1])
	if err != nil {
		t.Fatal(err)
	}
	var specs []string
	for i := 2; i+1 < len(args); i++ {
		switch args[i] {
		case "--players":
			names, err := player.ParseList(args[i+1])
			if err != nil {
				t.Fatal(err)
			}
			specs = append(specs, names...)
		case "--player":
			specs = append(specs, args[i+1])
		}
	}
	if len(specs) == 0 {
		specs, _ = player.ParseList(g.Info().DefaultPlayers)
	}
	if g.Untimed(specs) {
		return args
	}
	return append(slices.Clip(args), "--deadline", d)
}

func TestRecordsUnchanged(t *testing.T) {
	// Every series is played with records, text and JSON reports; each file
	// is compared with the one kept in testdata/records. Each decision of
	// an AI that is timed has a minute: a loaded machine must not turn a
	// slow one into a time fault and so change what is played (the
	// deadline is in no file).
	for _, s := range recordSeries {
		s.args = timed(t, s.args, "1m")
		t.Run(s.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append(append([]string{}, s.args...), "--record", filepath.Join(dir, "records"), "--report", filepath.Join(dir, "report.json"))
			if code, _, errOut := arbiter(t, "", args...); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			code, text, errOut := arbiter(t, "", append(append([]string{}, s.args...), "--report", "text")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if err := os.WriteFile(filepath.Join(dir, "report.txt"), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			compareTree(t, dir, filepath.Join("testdata", "records", s.name))
		})
	}
	for _, s := range tournamentSeries {
		s.args = timed(t, s.args, "1m")
		t.Run(s.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append(append([]string{}, s.args...), "--out", filepath.Join(dir, "results.jsonl"))
			if !strings.HasSuffix(s.name, "-long") {
				args = append(args, "--export-training", filepath.Join(dir, "training.jsonl"))
			}
			code, out, errOut := arbiter(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if err := os.WriteFile(filepath.Join(dir, "standings.txt"), []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			compareTree(t, dir, filepath.Join("testdata", "records", s.name))
		})
	}
}

// compareTree compares every file under got with the file of the same name
// under want, or copies them there with -update-records. A file larger than
// bigFile is kept as its digest and length, in the file digests.
func compareTree(t *testing.T, got, want string) {
	t.Helper()
	files := keptForm(treeFiles(t, got))
	if *updateRecords {
		if err := os.RemoveAll(want); err != nil {
			t.Fatal(err)
		}
		for name, b := range files {
			path := filepath.Join(want, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	kept := treeFiles(t, want)
	if len(kept) == 0 {
		t.Fatalf("no golden files in %s (run go test ./cmd/arbiter -run TestRecordsUnchanged -update-records)", want)
	}
	for _, name := range sortedKeys(kept) {
		b, ok := files[name]
		switch {
		case !ok:
			t.Errorf("%s: not written", name)
		case !bytes.Equal(b, kept[name]):
			t.Errorf("%s differs from %s: %s", name, filepath.Join(want, name), firstDifference(b, kept[name]))
		}
	}
	for _, name := range sortedKeys(files) {
		if _, ok := kept[name]; !ok {
			t.Errorf("%s: written, but not in %s", name, want)
		}
	}
}

// bigFile is the size above which a file is kept as its digest.
const bigFile = 64 << 10

// keptForm replaces the files larger than bigFile by one line each in the
// file digests: the SHA-256, the length and the name.
func keptForm(files map[string][]byte) map[string][]byte {
	var digests strings.Builder
	for _, name := range sortedKeys(files) {
		b := files[name]
		if len(b) <= bigFile {
			continue
		}
		fmt.Fprintf(&digests, "%x %d %s\n", sha256.Sum256(b), len(b), name)
		delete(files, name)
	}
	if digests.Len() > 0 {
		files["digests"] = []byte(digests.String())
	}
	return files
}

// treeFiles reads every file under dir, by its path relative to dir.
func treeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return files
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// firstDifference names the first line where got and want differ.
func firstDifference(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + clip(g[i]) + "\n want " + clip(w[i])
		}
	}
	return "line " + strconv.Itoa(min(len(g), len(w))+1) + ": one ends first"
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
