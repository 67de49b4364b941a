// Command starter is an Arbiter bot in Go, standard library only: it plays
// every game.
//
// Copy this directory, edit the game you play (ajveciv.go, reaj.go,
// tncc.go, territories.go or zombie.go: each has one function, decide...),
// and play it:
//
//	go build -o mybot . && arbiter play ajveciv --player "exec:./mybot"
//
// The protocol is in docs/protocol.md: one JSON object per line each way.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
)

// request is one decision Arbiter asks for.
type request struct {
	ID      int64             `json:"id"`
	Kind    string            `json:"kind"`    // what is asked: "turn", "trade answer", ...
	Choices []json.RawMessage `json:"choices"` // the legal moves, when there are few
	Default json.RawMessage   `json:"default"` // the move played if you are late
	View    json.RawMessage   `json:"view"`    // what your seat may see
}

// match is what a seat knows of its match: its seat, its own dice (the
// same game and seat play the same way), and the game's decide, with
// whatever that keeps from one request to the next.
type match struct {
	seat   int
	dice   *rand.Rand
	decide func(r *request) (any, error)
}

// games makes each game's decide for a match.
var games = map[string]func(m *match) func(r *request) (any, error){
	"ajveciv":     func(*match) func(*request) (any, error) { return decideAjveCiv },
	"reaj":        func(*match) func(*request) (any, error) { return decideReaj },
	"tncc":        func(*match) func(*request) (any, error) { return decideTNCC },
	"territories": func(*match) func(*request) (any, error) { return decideTerritories },
	"zombie":      func(*match) func(*request) (any, error) { return new(zombieMemory).decide },
}

// message is any message from Arbiter.
type message struct {
	Type string `json:"type"`
	Game string `json:"game"`
	Seed uint64 `json:"seed"`
	Seat int    `json:"seat"`
	request
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	var m *match
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 1 {
			var msg message
			if err := json.Unmarshal(line, &msg); err != nil {
				fmt.Fprintln(os.Stderr, "starter:", err)
				os.Exit(1)
			}
			switch msg.Type {
			case "hello":
				m = &match{seat: msg.Seat, dice: rand.New(rand.NewPCG(msg.Seed, uint64(msg.Seat)))}
				if newDecide, ok := games[msg.Game]; ok {
					m.decide = newDecide(m)
				} else {
					// A game this bot does not know: it plays each
					// request's default, and says so once.
					fmt.Fprintf(os.Stderr, "starter: %q is not a game this bot knows; it plays the defaults\n", msg.Game)
					m.decide = func(r *request) (any, error) { return r.Default, nil }
				}
				_ = enc.Encode(map[string]string{"type": "ready", "name": "go starter"})
			case "request":
				move, err := m.decide(&msg.request)
				if err != nil {
					fmt.Fprintln(os.Stderr, "starter:", err)
					move = msg.Default
				}
				_ = enc.Encode(struct {
					Type string `json:"type"`
					ID   int64  `json:"id"`
					Move any    `json:"move"`
				}{"move", msg.ID, move})
			case "bye":
				out.Flush()
				return
			}
			// "result" tells how the game ended; nothing to answer.
			out.Flush()
		}
		if err != nil {
			return
		}
	}
}
