package tournament_test

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/tournament"
)

func TestParseShardAccepts(t *testing.T) {
	for in, want := range map[string]tournament.Shard{
		"0/1":           {Index: 0, Count: 1},
		"0/3":           {Index: 0, Count: 3},
		"2/3":           {Index: 2, Count: 3},
		"99999/100000":  {Index: 99999, Count: 100000},
		"17/1000":       {Index: 17, Count: 1000},
		"0/" + "100000": {Index: 0, Count: 100000},
	} {
		got, err := tournament.ParseShard(in)
		if err != nil {
			t.Errorf("ParseShard(%q): %v", in, err)
			continue
		}
		if got != want {
			t.Errorf("ParseShard(%q) = %+v; want %+v", in, got, want)
		}
		if got.String() != in {
			t.Errorf("ParseShard(%q).String() = %q", in, got.String())
		}
	}
}

func TestParseShardRejects(t *testing.T) {
	for in, want := range map[string][]string{
		"3/2":      {"with 2 shards the shard number must be from 0 to 1", "numbered from 0"},
		"3/3":      {"with 3 shards the shard number must be from 0 to 2"},
		"-1/2":     {"with 2 shards the shard number must be from 0 to 1"},
		"0/0":      {"the number of shards must be a whole number from 1 to 100000"},
		"0/-3":     {"the number of shards must be a whole number from 1 to 100000"},
		"0/100001": {"the number of shards must be a whole number from 1 to 100000"},
		"a/b":      {"the number of shards must be a whole number"},
		"a/2":      {"with 2 shards the shard number must be from 0 to 1"},
		"1/2/3":    {"the number of shards must be a whole number"},
		"1":        {"want i/N", "e.g. 0/4 … 3/4"},
		"":         {"want i/N"},
		"/":        {"the number of shards must be a whole number"},
		" 0/2":     {"shard number"},
		"1.5/3":    {"shard number"},
	} {
		s, err := tournament.ParseShard(in)
		if err == nil {
			t.Errorf("ParseShard(%q) = %v; want an error", in, s)
			continue
		}
		if s != (tournament.Shard{}) {
			t.Errorf("ParseShard(%q) returned %+v along with its error", in, s)
		}
		msg := err.Error()
		if !strings.Contains(msg, `--shard "`+in+`"`) {
			t.Errorf("ParseShard(%q): %q does not name the input", in, msg)
		}
		for _, w := range want {
			if !strings.Contains(msg, w) {
				t.Errorf("ParseShard(%q): %q does not say %q", in, msg, w)
			}
		}
	}
}

func TestShardString(t *testing.T) {
	if got := (tournament.Shard{}).String(); got != "0/1" {
		t.Errorf("the zero shard is %q; want 0/1, the whole tournament", got)
	}
	for n := 1; n <= 7; n++ {
		for i := range n {
			s := tournament.Shard{Index: i, Count: n}
			back, err := tournament.ParseShard(s.String())
			if err != nil || back != s {
				t.Errorf("%+v: String %q reads back as %+v, %v", s, s.String(), back, err)
			}
		}
	}
}

func TestEveryGameIsInExactlyOneShard(t *testing.T) {
	for n := 1; n <= 7; n++ {
		for games := range 40 {
			total := 0
			for i := range n {
				s := tournament.Shard{Index: i, Count: n}
				has := 0
				for g := range games {
					if s.Has(g) {
						has++
					}
				}
				if got := s.Games(games); got != has {
					t.Errorf("shard %s of %d games: Games says %d, Has holds %d", s, games, got, has)
				}
				total += s.Games(games)
			}
			if total != games {
				t.Errorf("%d shards of %d games hold %d games in all", n, games, total)
			}
			for g := range games {
				in := 0
				for i := range n {
					if (tournament.Shard{Index: i, Count: n}).Has(g) {
						in++
					}
				}
				if in != 1 {
					t.Errorf("%d shards: game %d is in %d of them", n, g, in)
				}
			}
		}
	}
	// The zero value is the whole tournament.
	var whole tournament.Shard
	if whole.Games(10) != 10 || !whole.Has(0) || !whole.Has(9) {
		t.Errorf("the zero shard does not hold every game")
	}
}

func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/3", "2/3", "3/2", "0/0", "-1/2", "a/b", "1", "", "1/2/3", "+1/2", "01/02", "99999/100000", "0/100001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := tournament.ParseShard(in)
		if err != nil {
			if s != (tournament.Shard{}) {
				t.Fatalf("ParseShard(%q) = %+v along with %v", in, s, err)
			}
			if !strings.Contains(err.Error(), "--shard ") {
				t.Fatalf("ParseShard(%q): %q does not name the flag", in, err)
			}
			return
		}
		if s.Count < 1 || s.Count > tournament.MaxShards || s.Index < 0 || s.Index >= s.Count {
			t.Fatalf("ParseShard(%q) = %+v, out of range", in, s)
		}
		back, err := tournament.ParseShard(s.String())
		if err != nil || back != s {
			t.Fatalf("ParseShard(%q) = %+v; its String %q reads back as %+v, %v", in, s, s.String(), back, err)
		}
		if !s.Has(s.Index) || s.Games(s.Index+1) != 1 {
			t.Fatalf("%+v does not hold its first game", s)
		}
	})
}
