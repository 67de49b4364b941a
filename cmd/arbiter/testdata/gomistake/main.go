// Command gomistake is an AjveCiv bot written with the game's packages and
// served by player.Serve, that makes a newcomer's mistake named by its
// argument from its third turn on:
//
//	error    Decide returns an error
//	panic    Decide panics
//	badmove  Decide returns a value that is no value of the game
//	stdout   Decide prints on standard output, with fmt.Println and a
//	         logger made on os.Stdout when the program started
//	late     Decide waits for its context to end, then as long again as
//	         the tenth of its deadline kept for the answer, and 50ms more
//
// The tests play it through exec: and read what the report and the
// seat's log say of it.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/ajveciv"
	"github.com/arbiter-games/arbiter/player"
)

// logger writes on standard output, as it was when the program started.
var logger = log.New(os.Stdout, "gomistake: ", 0)

// bot plays the first value offered, until it makes its mistake.
type bot struct{ mistake string }

func (b bot) Decide(ctx context.Context, req *engine.Request[ajveciv.Value], v ajveciv.View) (ajveciv.Value, error) {
	if v.Turn() >= 3 {
		switch b.mistake {
		case "error":
			return 0, errors.New("no idea what to do")
		case "panic":
			panic("the bot fell over")
		case "badmove":
			return ajveciv.Value(42), nil
		case "stdout":
			fmt.Println("deciding request", req.ID)
			logger.Println("deciding request", req.ID)
		case "late":
			<-ctx.Done()
			time.Sleep(req.Deadline/10 + 50*time.Millisecond)
		}
	}
	return v.Offered()[0], nil
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gomistake MISTAKE")
		os.Exit(2)
	}
	mistake := os.Args[1]
	player.Serve(ajveciv.Original(), func() engine.Player[ajveciv.Value, ajveciv.View] { return bot{mistake} })
}
