package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
)

// OptionDocument is an option's value given as a JSON object rather than a
// word: a custom TNCC preset, a territories board of one's own. Records
// keep such a value as the option's string, unchanged; reports and
// headers name it by its Label.
type OptionDocument struct {
	// Name is the object's "name" member, its control characters shown
	// as "?" (Printable); without one, "custom (BASE)" for a document
	// built on another named by its "base" member (a TNCC preset given in
	// short), else "custom".
	Name string
	// Digest is the first eight hex digits of the SHA-256 of the object
	// without its name, as compact JSON with its keys in order and its
	// numbers as written: the same numbers have the same digest whatever
	// the document is called.
	Digest string
	// JSON is the object as the option's value holds it.
	JSON json.RawMessage
}

// ReadOptionDocument reads an option's value as a document. It is false
// for a value that is not a JSON object: a preset's name, a number.
func ReadOptionDocument(value string) (OptionDocument, bool) {
	v := strings.TrimSpace(value)
	if !strings.HasPrefix(v, "{") {
		return OptionDocument{}, false
	}
	dec := json.NewDecoder(strings.NewReader(v))
	dec.UseNumber()
	var members map[string]any
	if err := dec.Decode(&members); err != nil || dec.More() {
		return OptionDocument{}, false
	}
	d := OptionDocument{Name: "custom", JSON: json.RawMessage(v)}
	// The name is printed wherever the option is (reports, a tournament's
	// header, its merge): as a terminal shows it, not as an escape
	// sequence a file or a match's creator wrote into it.
	if name, ok := members["name"].(string); ok && name != "" {
		d.Name = Printable(name)
	} else if base, ok := members["base"].(string); ok && base != "" {
		d.Name = "custom (" + Printable(base) + ")" // as the game names it once read
	}
	delete(members, "name")
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(members); err != nil { // sorted keys, numbers as written
		return OptionDocument{}, false
	}
	sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	d.Digest = hex.EncodeToString(sum[:4])
	return d, true
}

// Label names the document for people and reports: its name and its
// digest, "custom (default) #1a2b3c4d".
func (d OptionDocument) Label() string { return d.Name + " #" + d.Digest }

// OptionLabel names an option's value for people: a document's Label, or
// the value itself.
func OptionLabel(value string) string {
	if d, ok := ReadOptionDocument(value); ok {
		return d.Label()
	}
	return value
}
