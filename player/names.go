package player

import (
	"net/url"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
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
