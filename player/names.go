package player

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/wrap"
	"github.com/mtibben/confusables"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// RecordName is the name an external player's seat has in records, reports
// and standings: its spec, with whatever a URL may carry for its owner
// alone (user:password, the query, the fragment) left out. Other names are
// kept as they are.
func RecordName(spec string) string {
	if !strings.HasPrefix(spec, "http://") && !strings.HasPrefix(spec, "https://") {
		return spec
	}
	u, err := url.Parse(spec)
	if err != nil {
		return "http bot"
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String()
}

// DisplayName is how other seats see a player in hello: see
// engine.DisplayName.
func DisplayName(name string) string { return engine.DisplayName(name) }

// DisplayNames maps DisplayName over names.
func DisplayNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = DisplayName(n)
	}
	return out
}

// Names keeps the names external players give themselves in their ready
// message, for standings and reports. A program keeps the first name it
// gives; names are made unique over a run ("bot", "bot #2"), so that two
// programs that give the same name, or a program that gives a built-in
// player's name, stay apart. Names that only look alike count as the
// same (lookalike): "grееdy" with Cyrillic e's, "ＧＲＥＥＤＹ" or "Greedy"
// beside the built-in greedy is "grееdy #2". It is safe for concurrent
// use.
type Names struct {
	mu     sync.Mutex
	wished map[string]string // by record name: the name given in ready
	given  map[string]string // by record name: the name in reports
	taken  map[string]bool   // by lookalike
}

// NewNames returns an empty Names in which the reserved names (the built-in
// players, the specs on the command line) are taken.
func NewNames(reserved ...string) *Names {
	n := &Names{wished: map[string]string{}, given: map[string]string{}, taken: map[string]bool{}}
	for _, r := range reserved {
		n.taken[lookalike(r)] = true
	}
	return n
}

// lookalike is what a name looks like to a reader, for telling apart names
// that look the same and are not: its compatibility form (fullwidth and
// styled letters made plain), folded to one case, then Unicode's skeleton
// of it (TR39), in which characters that look alike are one (Cyrillic а
// and Latin a, m and rn).
func lookalike(name string) string {
	return confusables.Skeleton(cases.Fold().String(norm.NFKC.String(name)))
}

// reserve takes name, a built-in player's, so that no program is given it:
// a name that stands for several (AjveCiv's basic) brings in players that
// the reserved names of NewNames do not list (basic.develop).
func (n *Names) reserve(name string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.taken[lookalike(name)] = true
}

// maxName bounds a name a program gives itself, in characters.
const maxName = 40

// ReadyName is name, as a program gave it in its ready, as standings and
// reports show it: what a reader does not see left out, spaces and
// control characters made single spaces, at most 40 characters; "" for a
// name of nothing visible.
func ReadyName(name string) string {
	name = strings.Join(strings.FieldsFunc(visible(name), func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || r == blankBraille
	}), " ")
	return wrap.FirstRunes(name, maxName) // never half a character: an accent stays with its letter
}

// Wish notes the name the program of player (its record name) gave in its
// ready; the first name noted is kept. A run's programs note theirs as
// they start; standings made from results files note the names the files
// keep (tournament.GameResult's Names).
func (n *Names) Wish(player, name string) {
	if n == nil {
		return
	}
	name = ReadyName(name)
	if name == "" {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, ok := n.wished[player]; !ok {
		n.wished[player] = name
	}
}

// Of returns the name of player (a record name) in reports: the name its
// program gave, made unique, or false when it gave none.
func (n *Names) Of(player string) (string, bool) {
	if n == nil {
		return "", false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if name, ok := n.given[player]; ok {
		return name, true
	}
	wish, ok := n.wished[player]
	if !ok {
		return "", false
	}
	name := wish
	for k := 2; n.taken[lookalike(name)]; k++ {
		name = fmt.Sprintf("%s #%d", wish, k)
	}
	n.taken[lookalike(name)] = true
	n.given[player] = name
	return name, true
}

// Rename returns players with the names their programs gave, and the specs
// of those renamed (by seat; "" for the others), or nil specs when none is.
func (n *Names) Rename(players []string) (names, specs []string) {
	names = players
	for i, p := range players {
		name, ok := n.Of(p)
		if !ok {
			continue
		}
		if specs == nil {
			names = slices.Clone(players)
			specs = make([]string, len(players))
		}
		names[i], specs[i] = name, p
	}
	return names, specs
}

// visible returns name without what a reader does not see, so that a
// name cannot look like another's it is not ("adapt" followed by a
// zero-width space, or led by a right-to-left override, beside "adapt"),
// nor like none at all: the characters Unicode makes default-ignorable
// (format characters, such as zero-width spaces, joiners, the byte order
// mark, the soft hyphen and the bidirectional controls; variation
// selectors; the Hangul fillers), but for the joiners and variation
// selectors that make one emoji of several (👩‍🚀, 🏳️‍🌈); and the marks
// that mark nothing, at its start or after a space. Spaces and control
// characters are left to the caller.
func visible(name string) string {
	rs := []rune(name)
	out := make([]rune, 0, len(rs))
	emoji := false // the last character kept is a symbol, or joins one
	for i, r := range rs {
		switch {
		case r == zeroWidthJoiner:
			if !emoji || i+1 == len(rs) || !unicode.IsSymbol(rs[i+1]) {
				continue
			}
		case unicode.Is(unicode.Variation_Selector, r):
			if !emoji {
				continue
			}
		case unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r):
			continue
		case unicode.IsMark(r):
			if k := len(out); k == 0 || unicode.IsSpace(out[k-1]) || unicode.IsControl(out[k-1]) || out[k-1] == blankBraille {
				continue
			}
		default:
			emoji = unicode.IsSymbol(r)
		}
		out = append(out, r)
	}
	return string(out)
}

const (
	zeroWidthJoiner = '\u200d'
	// blankBraille is a braille pattern of no dots: a symbol that shows
	// as a space.
	blankBraille = '\u2800'
)
