package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

func TestOptionDocumentsAreNamed(t *testing.T) {
	// An option given as a document (a custom preset) is named by its name
	// and digest in the text and HTML forms and in the JSON's options; the
	// JSON's option_documents and the HTML page carry its numbers.
	preset := `{"name":"custom (default)","start":{"gold":600,"citizens":800},"gold_for_war":800}`
	label := engine.OptionLabel(preset)
	if !strings.HasPrefix(label, "custom (default) #") {
		t.Fatalf("the preset's label is %q", label)
	}
	rec := &engine.Record[int]{Header: engine.Header{Ruleset: "tncc",
		Setup: engine.Setup{Seed: 1, Players: []string{"a", "b"}, Options: map[string]string{"preset": preset, "turns": "5"}}}}
	g := Outcome(rec, 1)
	r := &Report{Games: []Game{g}}

	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if want := "options: preset=" + label + " turns=5\n"; !strings.Contains(text.String(), want) {
		t.Errorf("the text report does not say %q:\n%s", want, text.String())
	}

	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var games []struct {
		Options   map[string]string         `json:"options"`
		Documents map[string]map[string]any `json:"option_documents"`
	}
	if err := json.Unmarshal(js.Bytes(), &games); err != nil {
		t.Fatalf("%v:\n%s", err, js.String())
	}
	if o := games[0].Options; o["preset"] != label || o["turns"] != "5" {
		t.Errorf("the JSON's options are %v; want preset %q, turns 5", o, label)
	}
	d := games[0].Documents
	if len(d) != 1 || d["preset"]["gold_for_war"] != 800.0 || d["preset"]["start"].(map[string]any)["citizens"] != 800.0 {
		t.Errorf("the JSON's option_documents are %v; want the preset's numbers, as an object", d)
	}

	var page bytes.Buffer
	if err := r.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<p>Options: preset=" + label + " turns=5</p>", "<summary>preset: " + label + "</summary>",
		`<tr><td>start.citizens</td><td class="n">800</td></tr>`, `<tr><td>gold_for_war</td><td class="n">800</td></tr>`} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("the HTML page does not say %s", want)
		}
	}
}
