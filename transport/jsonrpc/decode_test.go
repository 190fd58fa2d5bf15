package jsonrpc_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// A refused frame says what it seems meant as and, when it can, its id:
// transports use both to end the call a bad response was meant for.
func TestDecodeErrorKindAndID(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000)
	for _, tc := range []struct {
		frame string
		id    jsonrpc.ID
		kind  jsonrpc.Kind
	}{
		{`{"jsonrpc":"2.0","id":3,"result":{"a":[[[`, jsonrpc.IntID(3), jsonrpc.KindResponse},
		{`{"jsonrpc":"2.0","id":"s","error":{"code":1,"message":`, jsonrpc.StringID("s"), jsonrpc.KindResponse},
		{`{"jsonrpc":"2.0","id":6,"result":` + deep + `}`, jsonrpc.IntID(6), jsonrpc.KindResponse},
		{`{"result":` + deep + `,"id":6,"jsonrpc":"2.0"}`, jsonrpc.IntID(6), jsonrpc.KindResponse}, // the whole value is skipped
		{`{"jsonrpc":"1.0","id":5,"result":{}}`, jsonrpc.IntID(5), jsonrpc.KindResponse},
		{`{"id":5,"result":{}}`, jsonrpc.IntID(5), jsonrpc.KindResponse},
		{`{"jsonrpc":"2.0","id":7,"error":"x"}`, jsonrpc.IntID(7), jsonrpc.KindResponse},
		{`{"jsonrpc":"2.0","id":7,"result":{},"error":{"code":1,"message":"m"}}`, jsonrpc.IntID(7), jsonrpc.KindResponse},
		{`{"jsonrpc":"2.0","id":4,"method":"x","params":[[[`, jsonrpc.IntID(4), jsonrpc.KindRequest},
		{`{"jsonrpc":"2.0","id":4,"method":"x","result":{}}`, jsonrpc.IntID(4), jsonrpc.KindRequest},
		{`{"jsonrpc":"2.0","method":"n","params":[[[`, jsonrpc.ID{}, jsonrpc.KindNotification},
		{`{"jsonrpc":"2.0","id":2,`, jsonrpc.IntID(2), jsonrpc.KindInvalid},
		{`{"jsonrpc":"2.0","result":{}`, jsonrpc.ID{}, jsonrpc.KindResponse},
		{`{"jsonrpc":"2.0","id":{"o":1},"result":{}}`, jsonrpc.ID{}, jsonrpc.KindResponse},
		{`{"jsonrpc":"2.0","result":{"a":[[[`, jsonrpc.ID{}, jsonrpc.KindResponse},
		{`[{"jsonrpc":"2.0","id":1,"result":{}}]`, jsonrpc.ID{}, jsonrpc.KindInvalid},
		{`not json`, jsonrpc.ID{}, jsonrpc.KindInvalid},
	} {
		_, err := jsonrpc.Decode([]byte(tc.frame))
		var de *jsonrpc.DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%.60s: err %v, want a DecodeError", tc.frame, err)
			continue
		}
		if de.ID != tc.id || de.Kind != tc.kind {
			t.Errorf("%.60s: id %s kind %s, want id %s kind %s", tc.frame, de.ID, de.Kind, tc.id, tc.kind)
		}
	}
}

// One leading UTF-8 BOM, with space on either side, is not part of the
// frame; a BOM anywhere else is.
func TestDecodeLeadingBOM(t *testing.T) {
	t.Parallel()
	const msg = `{"jsonrpc":"2.0","id":1,"result":{}}`
	for _, frame := range []string{"\xEF\xBB\xBF" + msg, " \xEF\xBB\xBF " + msg + "\r"} {
		if m, err := jsonrpc.Decode([]byte(frame)); err != nil || m.ID != jsonrpc.IntID(1) {
			t.Errorf("%q: %v, %v", frame, m, err)
		}
	}
	for _, frame := range []string{"\xEF\xBB\xBF\xEF\xBB\xBF" + msg, msg[:1] + "\xEF\xBB\xBF" + msg[1:]} {
		if _, err := jsonrpc.Decode([]byte(frame)); err == nil {
			t.Errorf("%q: accepted", frame)
		}
	}
}

// TestDecodeAliasesFrame: a message's Params and Result are slices of the
// frame, not copies, and appending to one leaves the frame as it was.
func TestDecodeAliasesFrame(t *testing.T) {
	for _, frame := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"big":"yes"},"x":1}`,
		`{"jsonrpc":"2.0","id":1,"method":"m","params":[1,2],"x":1}`,
	} {
		b := []byte(frame)
		m, err := jsonrpc.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		v := m.Result
		if v == nil {
			v = m.Params
		}
		start := bytes.Index(b, v)
		if start < 0 || &b[start] != &v[0] {
			t.Errorf("%s: the value %s is a copy, not a slice of the frame", frame, v)
		}
		_ = append(v, "!!!!"...)
		if string(b) != frame {
			t.Errorf("appending to the value changed the frame: %s", b)
		}
	}
}
