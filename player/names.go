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
// player's name, stay apart. It is safe for concurrent use.
type Names struct {
	mu     sync.Mutex
	wished map[string]string // by record name: the name given in ready
	given  map[string]string // by record name: the name in reports
	taken  map[string]bool
}

// NewNames returns an empty Names in which the reserved names (the built-in
// players, the specs on the command line) are taken.
func NewNames(reserved ...string) *Names {
	n := &Names{wished: map[string]string{}, given: map[string]string{}, taken: map[string]bool{}}
	for _, r := range reserved {
		n.taken[r] = true
	}
	return n
}

// maxName bounds a name a program gives itself, in characters.
const maxName = 40

// wish notes the name the program of player (its record name) gave.
func (n *Names) wish(player, name string) {
	if n == nil {
		return
	}
	name = strings.Join(strings.FieldsFunc(name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	name = wrap.FirstRunes(name, maxName) // never half a character: an accent stays with its letter
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
	for k := 2; n.taken[name]; k++ {
		name = fmt.Sprintf("%s #%d", wish, k)
	}
	n.taken[name] = true
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
