package player_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/ajveciv"
	"github.com/arbiter-games/arbiter/player"
)

// Raider is an AjveCiv bot written with the game's own types: it conquers
// when it is offered conquer, and develops while it can.
type Raider struct{}

// Decide chooses among the offered values of the typed view.
func (Raider) Decide(_ context.Context, req *engine.Request[ajveciv.Value], v ajveciv.View) (ajveciv.Value, error) {
	if v.Offers(ajveciv.Conquer) && v.World().Len() > 1 {
		return ajveciv.Conquer, nil
	}
	if v.Offers(ajveciv.Develop) {
		return ajveciv.Develop, nil
	}
	return req.Default, nil
}

// The main function of a bot program: built with go build -o raider, it
// plays with arbiter play ajveciv --player exec:./raider.
func ExampleServe() {
	player.Serve(ajveciv.Original(), func() engine.Player[ajveciv.Value, ajveciv.View] { return Raider{} })
}

// A Program speaks the protocol: here the lines Arbiter sends a program
// for one request of a game, and what the raider answers.
func ExampleProgram() {
	m, _ := ajveciv.Original().NewMatch(engine.Setup{Seed: 1, Players: []string{"basic", "exec:raider"}, Options: map[string]string{"turns": "10"}})
	req := m.Pending()[1]
	hello, _ := json.Marshal(player.Hello{Type: "hello", Match: "run-1", Protocol: player.ProtocolVersion, Game: "ajveciv", Variant: "original",
		RulesVersion: ajveciv.RulesVersion, Seat: 1, Players: []string{"basic", "exec:raider"}, Options: map[string]string{"turns": "10"}, Seed: 42})
	request, _ := json.Marshal(player.RequestMessage[ajveciv.Value, ajveciv.View]{Type: "request", Match: "run-1", Seat: 1, ID: req.ID,
		Kind: string(req.Kind), Choices: req.Choices, Default: req.Default, View: m.View(1), DeadlineMS: 1000})
	bye := `{"type":"bye","match":"run-1","seat":1}`
	fmt.Println("offered:", req.Choices)

	p := &player.Program[ajveciv.Value, ajveciv.View]{Rules: ajveciv.Original(), Name: "raider",
		New: func() engine.Player[ajveciv.Value, ajveciv.View] { return Raider{} }}
	in := strings.NewReader(string(hello) + "\n" + string(request) + "\n" + bye + "\n")
	if err := p.Run(context.Background(), in, os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// offered: [consent conquer discover]
	// {"type":"ready","name":"raider"}
	// {"type":"move","id":3,"move":"conquer"}
}
