package zombie

import (
	"bytes"
	"fmt"
	"io"

	"github.com/arbiter-games/arbiter/engine"
)

// WriteScript writes the match's game.txt: a header naming the seats'
// players, the roster and GAME_START, then every turn's commands under a
// comment naming the turn. Run judges it to exactly the match's Transcript.
func (m *Match) WriteScript(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Zombie Game script of an arbiter play zombie match (seed=%d)\n", m.seed)
	for i, name := range m.entrants {
		fmt.Fprintf(&b, "# %s: seat %d, %s\n", SeatName(i), i+1, name)
	}
	turn := 0
	for i, c := range m.cmds {
		for turn < len(m.turnAt) && m.turnAt[turn] == i {
			turn++
			fmt.Fprintf(&b, "# turn %d\n", turn)
		}
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	for turn < len(m.turnAt) {
		turn++
		fmt.Fprintf(&b, "# turn %d\n", turn)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// Script converts a match record of `arbiter play zombie` into the game.txt
// of the same game: it replays the record and writes the commands the match
// made (see Match.WriteScript). A record that does not replay is an error.
func Script(rec *engine.Record[Plan]) ([]byte, error) {
	m, err := engine.Replay[Plan, View](Game{}, rec, nil)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := m.(*Match).WriteScript(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
