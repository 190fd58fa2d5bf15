package headless

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// TestWithFailureJSON: a command that fails before writing leaves the
// failure object on stdout; one that wrote its JSON, or showed its help,
// gets nothing added.
func TestWithFailureJSON(t *testing.T) {
	var out bytes.Buffer
	err := WithFailureJSON(&out, func(io.Writer) error { return exit.Usagef("no server given") })
	var got struct{ Failure *exit.Failure }
	if jerr := json.Unmarshal(out.Bytes(), &got); jerr != nil || got.Failure == nil ||
		*got.Failure != (exit.Failure{Exit: exit.Usage, Kind: "usage", Message: "no server given"}) || exit.CodeOf(err) != exit.Usage {
		t.Errorf("failed before writing: %v, stdout %q", err, out.String())
	}
	for name, run := range map[string]func(io.Writer) error{
		"wrote": func(w io.Writer) error {
			_, _ = io.WriteString(w, "{}\n")
			return exit.Fail(exit.ToolError, "isError")
		},
		"help": func(io.Writer) error { return exit.ErrHelp },
		"ok":   func(io.Writer) error { return nil },
	} {
		out.Reset()
		if err := WithFailureJSON(&out, run); errors.Is(err, exit.ErrHelp) != (name == "help") || out.Len() > len("{}\n") {
			t.Errorf("%s: %v, stdout %q", name, err, out.String())
		}
	}
}
