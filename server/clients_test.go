package server_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/server"
)

func TestExampleClientsPlayASeat(t *testing.T) {
	// "A Python and a JavaScript example client in examples/ that play a
	// seat through the API."
	ts := newServer(t, server.Config{})
	for _, client := range [][]string{{"python3", "../examples/clients/play.py"}, {"node", "../examples/clients/play.js"}} {
		t.Run(client[0], func(t *testing.T) {
			if _, err := exec.LookPath(client[0]); err != nil {
				if os.Getenv("ARBITER_CI") != "" {
					t.Fatalf("%s is not installed; .ci/run installs it", client[0])
				}
				t.Skipf("%s is not installed", client[0])
			}
			c := ts.create(map[string]any{"game": "tncc", "seats": []map[string]any{{"player": "person"}, {"player": "turtle"}, {"player": "war"}},
				"options": map[string]any{"preset": `{"base":"default","max_cycles":8}`}})
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			out, err := exec.CommandContext(ctx, client[0], client[1], ts.http.URL, c.ID, c.Seats[0].Secret).CombinedOutput()
			if err != nil || !strings.Contains(string(out), "the match is over") {
				t.Fatalf("%v\n%s", err, out)
			}
			if m := ts.state(c.ID, ""); m.Status != "over" {
				t.Errorf("status %s", m.Status)
			}
		})
	}
}
