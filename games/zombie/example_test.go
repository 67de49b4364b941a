package zombie_test

import (
	"fmt"
	"os"

	"github.com/arbiter-games/arbiter/games/zombie"
)

// A game master's script, judged: every announcement and private message,
// the refused line with its number, and the final state.
func ExampleRun() {
	script := `HUMAN Ann 1
HUMAN Bob
ZOMBIE Zed
GAME_START 2
i Ann/p Zed      # Ann pays for precaution: not infected
t Bob Zed        # Bob is infected, and is not told
CURE Zed         # zombies cannot cure
nt               # Bob, infected at 0, turns into a zombie
`
	t, err := zombie.Run([]byte(script))
	if err != nil {
		fmt.Println(err)
		return
	}
	t.WriteText(os.Stdout)
	// Output:
	// GAME START max_turns=2
	// PRIVATE Ann human antibodies=1 viruses=0
	// PRIVATE Bob human antibodies=0 viruses=0
	// PRIVATE Zed zombie antibodies=0 viruses=0
	// PUBLIC start zombies=1 humans=2
	// ERROR line 7 E_ZOMBIE_ACTION: Zed is a zombie and cannot cure; only humans can
	// TURN 1 END
	// PRIVATE Ann human antibodies=0 viruses=0
	// PRIVATE Bob zombie antibodies=0 viruses=0
	// PRIVATE Zed zombie antibodies=0 viruses=0
	// PUBLIC turn=1 zombies=2 humans=1 max_antibodies=0 max_viruses=0
	// GAME OVER: HUMANS WIN last_survivor=Ann
	// FINAL status=over turn=1
	// STATE Ann human antibodies=0 viruses=0
	// STATE Bob zombie antibodies=0 viruses=0
	// STATE Zed zombie antibodies=0 viruses=0
}

// What one player may know: their own PRIVATE lines and the PUBLIC ones.
func ExampleTranscript_WritePrivate() {
	t, _ := zombie.Run([]byte("HUMAN Ann 3\nHUMAN Bob\nZOMBIE Zed\nGAME_START\ni Ann Zed\ni Bob Ann\nnt\n"))
	ann, _ := t.Lookup("ann")
	t.WritePrivate(os.Stdout, ann)
	// Output:
	// GAME START max_turns=5
	// PRIVATE Ann human antibodies=3 viruses=0
	// PUBLIC start zombies=1 humans=2
	// TURN 1 END
	// PRIVATE Ann human antibodies=3 viruses=0
	// PUBLIC turn=1 zombies=2 humans=1 max_antibodies=3 max_viruses=0
	// GAME OVER: HUMANS WIN last_survivor=Ann
	// FINAL status=over turn=1
}
