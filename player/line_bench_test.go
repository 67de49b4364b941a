package player

import (
	"testing"

	"github.com/arbiter-games/arbiter/games/ajveciv"
	"github.com/arbiter-games/arbiter/games/tncc"
)

// benchMoveLine reads a bot's answer to a request as Decide reads it: the
// protocol line checked and decoded, then its move as the game's type.
func benchMoveLine[M any](b *testing.B, line string) {
	data := []byte(line)
	b.ReportAllocs()
	for b.Loop() {
		var m MoveMessage
		if err := decodeObject(data, &m); err != nil || m.Type != "move" {
			b.Fatal(err)
		}
		var mv M
		if err := unmarshalMove(m.Move, &mv); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMoveLine reads typical move lines of bots: an AjveCiv value, a
// TNCC war (whose move reads its own JSON strictly, with DecodeJSON), and
// a move of a Go struct type with nested fields, checked as the line is.
func BenchmarkMoveLine(b *testing.B) {
	b.Run("ajveciv", func(b *testing.B) {
		benchMoveLine[ajveciv.Value](b, `{"type":"move","id":1234,"move":"conquer"}`)
	})
	b.Run("tncc", func(b *testing.B) {
		benchMoveLine[tncc.Move](b, `{"type":"move","id":1234,"move":{"type":"war","target":1,"flanks":[10,0,30]}}`)
	})
	b.Run("struct", func(b *testing.B) {
		type order struct {
			Unit string `json:"unit"`
			To   [2]int `json:"to"`
		}
		type plan struct {
			Kind   string  `json:"kind"`
			Orders []order `json:"orders"`
			Note   string  `json:"note,omitempty"`
		}
		benchMoveLine[plan](b, `{"type":"move","id":1234,"move":{"kind":"march","orders":[{"unit":"a1","to":[3,4]},{"unit":"b2","to":[5,1]}]},"debug":"eval 0.61"}`)
	})
}
