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
