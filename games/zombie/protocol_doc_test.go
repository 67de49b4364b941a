package zombie

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestProtocolDocumentsAPlan(t *testing.T) {
	// docs/protocol.md gives a plan's JSON in full, guard included, and its
	// text form: they are the same plan.
	data, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i := strings.Index(doc, "a plan in full:\n\n```\n")
	if i < 0 {
		t.Fatal("docs/protocol.md gives no plan in full")
	}
	block := doc[i+len("a plan in full:\n\n```\n"):]
	block = block[:strings.Index(block, "```")]
	var p Plan
	if err := json.Unmarshal([]byte(block), &p); err != nil {
		t.Fatalf("the documented plan does not parse: %v\n%s", err, block)
	}
	if got := p.String(); !strings.Contains(strings.Join(strings.Fields(doc), " "), "The text form of the same plan is `"+got+"`") {
		t.Errorf("the documented plan is %q in text; the page says otherwise", got)
	}
}

func TestPlanJSONTakesTheTextForm(t *testing.T) {
	// docs/protocol.md: "A move may be that text as a JSON string, "move":
	// "P2/p P4 guard=p cure=last end": in it, seats count from 1 (P2 is
	// {"with": 1}); the log keeps the object."
	var text, object Plan
	if err := json.Unmarshal([]byte(` "P2/p P4 guard=p cure=last end" `), &text); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"touch": [{"with": 1, "precaution": true}, {"with": 3}], "guard": {"precaution": true}, "cure_last": true, "end": true}`), &object); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(text)
	b, _ := json.Marshal(object)
	if string(a) != string(b) {
		t.Errorf("the text reads as %s; the object as %s", a, b)
	}
	for in, want := range map[string]string{
		`"P2 fly"`: `plan "P2 fly": "fly" is no seat`,
		`""`:       `plan "": an empty plan`,
		`7`:        `got a JSON number; or the plan's text as a string, such as "P2/p P4 guard=p cure=last end"`,
	} {
		var p Plan
		if err := json.Unmarshal([]byte(in), &p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want an error saying %q", in, err, want)
		}
	}
}
