package territories

import (
	"testing"

	"github.com/arbiter-games/arbiter/internal/doctest"
)

func TestPackageDocSaysHowToWriteABot(t *testing.T) {
	// go doc of the package is where a Go programmer starts: besides the
	// referee, it says how a bot is written, seated and what it sees.
	doctest.PackageSays(t, ".", "territories", "# Writing a bot", "implements [Bot]", "[Player] seats it", "[Bots] names", "never the match's")
}
