// Command starter is an Arbiter bot in Go, standard library only.
//
// Copy this directory, edit decide, and play it:
//
//	go build -o mybot . && arbiter play ajveciv --player "exec:./mybot" --players basic
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

// decide returns the move for one request. This bot picks a random choice,
// or plays the default when the move is open; decode View into a struct of
// your game's view to do better.
func decide(r *request, dice *rand.Rand) json.RawMessage {
	if len(r.Choices) > 0 {
		return r.Choices[dice.IntN(len(r.Choices))]
	}
	return r.Default
}

// message is any message from Arbiter.
type message struct {
	Type string `json:"type"`
	Seed uint64 `json:"seed"`
	Seat uint64 `json:"seat"`
	request
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	dice := rand.New(rand.NewPCG(1, 1))
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 1 {
			var m message
			if err := json.Unmarshal(line, &m); err != nil {
				fmt.Fprintln(os.Stderr, "starter:", err)
				os.Exit(1)
			}
			switch m.Type {
			case "hello":
				// Your own dice, the same for the same game and seat.
				dice = rand.New(rand.NewPCG(m.Seed, m.Seat))
				_ = enc.Encode(map[string]string{"type": "ready", "name": "go starter"})
			case "request":
				_ = enc.Encode(struct {
					Type string          `json:"type"`
					ID   int64           `json:"id"`
					Move json.RawMessage `json:"move"`
				}{"move", m.ID, decide(&m.request, dice)})
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
