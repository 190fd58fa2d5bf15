package headless_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
)

// outsideOutput is a command's output defined outside this package (as
// elicit acp's is, in cmd/elicit): WriteJSON must tell it too that it
// repaired the server's text.
type outsideOutput struct {
	Text     json.RawMessage `json:"text"` // as the server sent it
	Repaired string          `json:"repaired,omitempty"`
}

func (o *outsideOutput) SetRepaired(note string) { o.Repaired = note }

// TestWriteJSONRepairedOutsideThePackage: an output of another package
// that can say it was repaired is told so, as the headless commands' own
// are.
func TestWriteJSONRepairedOutsideThePackage(t *testing.T) {
	out := &outsideOutput{Text: json.RawMessage("\"bad \xff byte\"")}
	var b bytes.Buffer
	if err := headless.WriteJSON(&b, out); err != nil {
		t.Fatal(err)
	}
	var got outsideOutput
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, b.Bytes())
	}
	if got.Repaired != headless.RepairedNote {
		t.Errorf("repaired %q, want %q:\n%s", got.Repaired, headless.RepairedNote, b.Bytes())
	}
}
