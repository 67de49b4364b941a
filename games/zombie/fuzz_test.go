package zombie

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/engine"
)

// Fuzz targets: the script parser, the config loader and the whole judge
// never panic or loop, and no input makes the judge print a state that
// breaks R5.
//
//	go test ./games/zombie -run XXX -fuzz FuzzRun -fuzztime 30s

func scriptSeeds(f *testing.F) {
	for _, s := range []string{"", "\n", "# only a comment", "HUMAN Ann\nHUMAN Bob\nZOMBIE Zed\nGAME_START\ni Ann Zed\nnt",
		"i a/p b/v3", "GAME_START 3 antibodies=1 viruses=2", "t ann/V99 bob/P", "HUMAN Ann 1000000000", "HUMAN Ann 1000000001",
		"GAME_START 1 1", "GAME_START antibodies=1 antibodies=2", "i a/v0 b", "nt nt", "e", "a ann", "ZOMBIE z 3 4"} {
		f.Add(s)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 8 {
		f.Add(randomScript(rng, 40))
	}
	for _, name := range []string{"s1", "s12", "survivor", "ranking"} {
		if b, err := readTestdata(name + ".txt"); err == nil {
			f.Add(string(b))
		}
	}
}

func FuzzScript(f *testing.F) {
	scriptSeeds(f)
	f.Fuzz(func(t *testing.T, line string) {
		c, ok := ParseLine(line)
		if !ok {
			// A line with no command is empty or a comment: its first word
			// starts with '#'.
			if w := strings.Fields(line); len(w) > 0 && !strings.HasPrefix(w[0], "#") {
				t.Fatalf("%q has words %q but no command", line, w)
			}
			return
		}
		if c.Op == OpUnknown || c.Bad != "" {
			if c.Bad == "" {
				t.Fatalf("%q: refused without a reason", line)
			}
			return
		}
		// A command that parses writes back as the same command.
		back, ok := ParseLine(c.String())
		if !ok || back != normal(c) {
			t.Fatalf("%q parses as %+v, written %q, which reads back as %+v", line, c, c.String(), back)
		}
	})
}

// normal is c as String writes it: GAME_START always gives its three
// numbers.
func normal(c Command) Command {
	if c.Op == OpGameStart && c.MaxTurns == 0 {
		c.MaxTurns = DefaultMaxTurns
	}
	return c
}

func FuzzRun(f *testing.F) {
	scriptSeeds(f)
	f.Fuzz(func(t *testing.T, script string) {
		tr, err := Run([]byte(script))
		if err != nil {
			if utf8.ValidString(script) {
				t.Fatalf("valid text refused: %v", err)
			}
			return
		}
		checkInvariants(t, "final", tr.Players)
		var b bytes.Buffer
		if err := tr.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.Count(out, "FINAL ") != 1 {
			t.Fatalf("FINAL lines: %d", strings.Count(out, "FINAL "))
		}
		// R5 on the printed STATE lines, and no PRIVATE line says infected.
		states := 0
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "PRIVATE ") && strings.Contains(l, " infected ") {
				t.Fatalf("a private message says infected: %s", l)
			}
			if !strings.HasPrefix(l, "STATE ") {
				continue
			}
			states++
			w := strings.Fields(l)
			if len(w) != 5 {
				t.Fatalf("STATE line %q", l)
			}
			a, err1 := strconv.ParseInt(strings.TrimPrefix(w[3], "antibodies="), 10, 64)
			v, err2 := strconv.ParseInt(strings.TrimPrefix(w[4], "viruses="), 10, 64)
			if err1 != nil || err2 != nil || a < 0 || v < 0 || w[2] == "zombie" && a != 0 || w[2] != "zombie" && v != 0 {
				t.Fatalf("STATE line breaks R5: %q", l)
			}
		}
		if states != len(tr.Players) {
			t.Fatalf("%d STATE lines for %d players", states, len(tr.Players))
		}
		for i := range tr.Players {
			b.Reset()
			if err := tr.WritePrivate(&b, i); err != nil || strings.Contains(b.String(), "infected") || strings.Contains(b.String(), "STATE") {
				t.Fatalf("%v: private view of %d:\n%s", err, i, b.String())
			}
		}
		if err := tr.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzConfig(f *testing.F) {
	for _, s := range []string{DefaultConfig, "", "players: [A, B, C]\nzombie_count: 1\n", "players: [A, B, C]\nzombie_count: 1\nseed: -3\n",
		"players: [A, B]\nzombie_count: 1\n", "players: [A, a, C]\nzombie_count: 1\n", "zombie_count: x", "x: 1", "[1, 2]",
		"players: [A, B, C, D]\nzombie_count: 2\nmax_turns: 9\nstart_antibodies: 3\nstart_viruses: 4\n", "&a [*a]", "players: *x",
		"players: [A, B, C]\nzombie_count: 1\n---\n", "players: !!str 3\n", "players: [A, B, C]\nzombie_count: 0x10\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		c, err := ParseConfig([]byte(data))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty error")
			}
			return
		}
		n := len(c.Players)
		if n < 3 || c.ZombieCount < 1 || c.ZombieCount > n-2 || c.MaxTurns < 1 || c.MaxTurns > MaxCount ||
			c.StartAntibodies < 0 || c.StartAntibodies > MaxCount || c.StartViruses < 0 || c.StartViruses > MaxCount {
			t.Fatalf("accepted out of range: %+v", c)
		}
		// The script it makes judges without an error, with the zombies it
		// asks for.
		tr, err := Run(c.Script("config.yml", c.Seed))
		if err != nil || tr.Errors != 0 || tr.Phase != InProgress {
			t.Fatalf("%+v: the script: %v %q", c, err, refusals(tr))
		}
		zombies := 0
		for _, p := range tr.Players {
			if p.State == Zombie {
				zombies++
			}
		}
		if zombies != c.ZombieCount {
			t.Fatalf("%d zombies; the config asks for %d", zombies, c.ZombieCount)
		}
	})
}

// TestHugeRosterStaysFast judges a script of 50,000 players and 100,000
// refused lines that each look at the whole roster (a NEXT_TURN that names
// the players without an interaction, an END_TURN checked for deadlock):
// every line must cost little, however large the roster.
func TestHugeRosterStaysFast(t *testing.T) {
	if testing.Short() {
		t.Skip("a large script")
	}
	const n = 50000
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "HUMAN P%d\n", i)
	}
	b.WriteString("ZOMBIE Z\nGAME_START\n")
	for i := 0; i+1 < n-40; i += 2 {
		fmt.Fprintf(&b, "i P%d P%d\n", i, i+1)
	}
	for range n {
		b.WriteString("nt\nGAME_START\n")
	}
	start := time.Now()
	tr := judged(t, b.String())
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("%v for %d lines", took, strings.Count(b.String(), "\n"))
	}
	if tr.Errors != 2*n {
		t.Errorf("%d errors", tr.Errors)
	}
	if e := tr.Events[len(tr.Events)-2]; !strings.Contains(e.Text, "and 21 more") {
		t.Errorf("the refusal: %s", e.Text)
	}
}

// FuzzPlan reads plans as a person types them and as a program sends them:
// no input panics, and a plan that reads back from its own text form is the
// same plan.
func FuzzPlan(f *testing.F) {
	for _, s := range []string{"P2/p P4 guard=p cure=last end", "2 3/v2 cure=both", "", "guard=v0", "P0", "P99999999999999999999",
		`{"touch":[{"with":1,"precaution":true}],"guard":{"viruses":2},"end":true}`, `{"touch":null}`, `[]`, `"P2/p P4 guard=p cure=last end"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var p Plan
		if err := p.UnmarshalText([]byte(s)); err == nil {
			var back Plan
			if err := back.UnmarshalText([]byte(p.String())); err != nil {
				t.Fatalf("%q reads as %q, which does not read back: %v", s, p.String(), err)
			}
			if back.String() != p.String() {
				t.Fatalf("%q: %q, then %q", s, p.String(), back.String())
			}
		}
		var j Plan
		_ = j.UnmarshalJSON([]byte(s))
	})
}

func FuzzReadMove(f *testing.F) {
	// A plan sent to a party, its players by name or by seat: never a
	// panic, and a plan read is the plan its JSON (by seat) reads back as.
	for _, s := range []string{`"Bob/p cat end"`, `"ann bob/v2 guard=p"`, `{"touch":[{"with":"Bob","precaution":true}],"end":true}`, `{"touch":[{"with":"nobody"}]}`,
		`{"touch":[{"with":2}]}`, `"P2 Dan"`, `{"touch":[{"with":"ann"},{"with":null}]}`, `"/p"`, `""`, `{"touch":"Bob"}`} {
		f.Add(s)
	}
	m, err := Game{}.NewMatch(engineSetup([]string{"Ann", "Bob", "Cat", "person"}))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := m.ReadMove([]byte(s))
		if err != nil {
			return
		}
		written, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("%q reads as a plan that does not write: %v", s, err)
		}
		back, err := m.ReadMove(written)
		if err != nil || back.String() != p.String() {
			t.Fatalf("%q reads as %s, which reads back as %q (%v)", s, written, back.String(), err)
		}
	})
}

// engineSetup is the setup of a party of the players given, seed 1.
func engineSetup(players []string) engine.Setup {
	return engine.Setup{Seed: 1, Players: players}
}

func TestReadMoveNamesThePlayers(t *testing.T) {
	// A plan that names nobody is told who the players are, each once by
	// name and seat: two Bobs are Bob (P1) and Bob (P2), not "Bob (P1) (P1)".
	m, err := Game{}.NewMatch(engineSetup([]string{"Bob", "Bob", "Cy", "person"}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.ReadMove([]byte(`"Dan end"`))
	if want := `"Dan" is no player; the players are Bob (P1), Bob (P2), Cy (P3), P4`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%v; want %q", err, want)
	}
}
