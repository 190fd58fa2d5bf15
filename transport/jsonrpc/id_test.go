package jsonrpc_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// A request's id goes back out exactly as it came, whatever number it is.
func TestIDRoundTripExact(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		`7`, `-3`, `0`, `9223372036854775807`, `-9223372036854775808`,
		`9223372036854775808`, `-9223372036854775809`, `1e300`, `1e400`, `-0`,
		`1.5`, `3.0`, `1E2`, `0.1e1`, `2e-1`, `123456789012345678901234567890`,
		`"s"`, `"\u00e9\n"`, `""`,
	} {
		m, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":` + raw + `,"method":"ping"}`))
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		reply, _ := jsonrpc.NewResponse(m.ID, nil)
		b, err := jsonrpc.Encode(reply)
		if err != nil {
			t.Errorf("%s: encode: %v", raw, err)
			continue
		}
		var w struct{ ID json.RawMessage }
		if err := json.Unmarshal(b, &w); err != nil || string(w.ID) != strings.ReplaceAll(raw, `\u00e9`, "é") {
			t.Errorf("%s: echoed as %s (%v)", raw, w.ID, err)
		}
	}
	for _, bad := range []string{`null`, `true`, `{}`, `[1]`, `01`, `1.`, `+1`, `0x10`, `NaN`} {
		var id jsonrpc.ID
		if err := id.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("%s: accepted as id %s", bad, id)
		}
	}
}

// Plain int64 text is an integer id; any other number is its own id,
// distinct from the integer of the same value, until Canonical.
func TestIDCanonical(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]int64{
		`3.0`: 3, `3e0`: 3, `30e-1`: 3, `0.3E1`: 3, `-0`: 0, `0e99999999`: 0, `-0.0`: 0,
		`1E2`: 100, `9.223372036854775807e18`: 9223372036854775807, `-9223372036854775808.0`: -9223372036854775808,
		`9007199254740993.0`: 9007199254740993, // a float64 would round it
	} {
		var id jsonrpc.ID
		if err := id.UnmarshalJSON([]byte(raw)); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if _, isInt := id.Int(); isInt || id == jsonrpc.IntID(want) {
			t.Errorf("%s: read as the integer %s, want its own text", raw, id)
		}
		if c, ok := id.Canonical(); !ok || c != jsonrpc.IntID(want) {
			t.Errorf("%s: Canonical = %s, %v; want %d", raw, c, ok, want)
		}
	}
	for _, raw := range []string{`1.5`, `1e300`, `1e-99999999`, `9223372036854775808`, `-9223372036854775809`, `1e19`, `5e-1`} {
		var id jsonrpc.ID
		if err := id.UnmarshalJSON([]byte(raw)); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if c, ok := id.Canonical(); ok {
			t.Errorf("%s: Canonical = %s, want none", raw, c)
		}
	}
	if c, ok := jsonrpc.StringID("3").Canonical(); !ok || c != jsonrpc.StringID("3") {
		t.Errorf("a string id changed: %s", c)
	}
}

// A response answers one of our ids, so it is read by value; one whose id
// is a number no request of ours had is refused, still as a response.
func TestDecodeResponseIDByValue(t *testing.T) {
	t.Parallel()
	m, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":3.0,"result":{}}`))
	if err != nil || m.ID != jsonrpc.IntID(3) {
		t.Fatalf("3.0: %v, %v; want the response to 3", m, err)
	}
	_, err = jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":1.5,"result":{}}`))
	var de *jsonrpc.DecodeError
	if !errors.As(err, &de) || de.Kind != jsonrpc.KindResponse || de.ID.IsValid() {
		t.Fatalf("1.5: %v, want a DecodeError for a response without id", err)
	}
	_, err = jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":4e0,"result":[[[`))
	if !errors.As(err, &de) || de.ID != jsonrpc.IntID(4) {
		t.Fatalf("salvaged 4e0: %v, want id 4", err)
	}
}
