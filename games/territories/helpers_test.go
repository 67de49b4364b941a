package territories

import (
	"errors"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

// wantRefused checks that err is a *engine.RuleError whose message says why
// (it contains every one of words).
func wantRefused(t *testing.T, what string, err error, words ...string) {
	t.Helper()
	var re *engine.RuleError
	if !errors.As(err, &re) {
		t.Errorf("%s: got %v (%T); want a *engine.RuleError", what, err, err)
		return
	}
	if re.Msg == "" {
		t.Errorf("%s: refused without a reason", what)
	}
	for _, w := range words {
		if !strings.Contains(re.Msg, w) {
			t.Errorf("%s: refused with %q; want the reason to mention %q", what, re.Msg, w)
		}
	}
}
