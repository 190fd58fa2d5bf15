package jsonrpc_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

func TestDecodeFrame(t *testing.T) {
	t.Parallel()
	const (
		n = `{"jsonrpc":"2.0","method":"n"}`
		r = `{"jsonrpc":"2.0","id":2,"result":{}}`
	)
	type want struct {
		raw string
		ok  bool
	}
	for frame, parts := range map[string][]want{
		n:                  {{n, true}},
		"\xEF\xBB\xBF" + n: {{"\xEF\xBB\xBF" + n, true}},
		"[" + n + "]":      {{n, true}},
		" \xEF\xBB\xBF[ " + n + " , " + r + " ]\r": {{n, true}, {r, true}},
		"[" + n + ",1,[" + n + "]," + r + "]":      {{n, true}, {"1", false}, {"[" + n + "]", false}, {r, true}},
		"[]":                                       {{"[]", false}},
		"[" + n + "] x":                            {{n, true}, {"x", false}},
		"[" + n + ",":                              {{n, true}, {"", false}},
		"[" + n + "," + `{"jsonrpc":"2.0","id":7,"result":[[`: {{n, true}, {`{"jsonrpc":"2.0","id":7,"result":[[`, false}},
		"[" + n + " " + r + "]":                               {{n, true}, {r + "]", false}},
	} {
		got := jsonrpc.DecodeFrame([]byte(frame))
		if len(got) != len(parts) {
			t.Errorf("%q: %d parts, want %d", frame, len(got), len(parts))
			continue
		}
		for i, p := range got {
			var de *jsonrpc.DecodeError
			if string(p.Raw) != parts[i].raw || (p.Err == nil) != parts[i].ok || (p.Msg != nil) != parts[i].ok ||
				p.Err != nil && !errors.As(p.Err, &de) {
				t.Errorf("%q: part %d = %q, %v, %v; want %q ok=%v", frame, i, p.Raw, p.Msg, p.Err, parts[i].raw, parts[i].ok)
			}
		}
	}
	// A response cut short inside a batch still names its id.
	got := jsonrpc.DecodeFrame([]byte("[" + n + "," + `{"jsonrpc":"2.0","id":7,"result":[[`))
	var de *jsonrpc.DecodeError
	if !errors.As(got[1].Err, &de) || de.ID != jsonrpc.IntID(7) || de.Kind != jsonrpc.KindResponse {
		t.Errorf("broken-off response: %v, want a DecodeError for response 7", got[1].Err)
	}
}

// FuzzDecodeFrame checks DecodeFrame against the plain reading of a batch:
// a frame that is a JSON array of n values is n parts, each decoded by
// Decode; anything else that is no batch is one part, Decode's.
func FuzzDecodeFrame(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"}]`,
		`[[],1,"x",null,{"jsonrpc":"2.0","id":1.5,"result":{}}]`,
		"\xEF\xBB\xBF [{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":[[",
		`[] []`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		parts := jsonrpc.DecodeFrame(b)
		if len(parts) == 0 {
			t.Fatal("no parts")
		}
		for _, p := range parts {
			if (p.Msg == nil) == (p.Err == nil) {
				t.Fatalf("part %q: msg %v and err %v", p.Raw, p.Msg, p.Err)
			}
		}
		t2 := bytes.TrimPrefix(bytes.TrimSpace(b), []byte("\xEF\xBB\xBF"))
		t2 = bytes.TrimSpace(t2)
		if len(t2) == 0 || t2[0] != '[' {
			m, err := jsonrpc.Decode(b)
			if len(parts) != 1 || (err == nil) != (parts[0].Err == nil) || m != nil && parts[0].Msg.ID != m.ID {
				t.Fatalf("not a batch: %d parts, want Decode's one", len(parts))
			}
			return
		}
		var elems []json.RawMessage
		if json.Unmarshal(t2, &elems) != nil || len(elems) == 0 {
			return // broken or empty: covered by the table
		}
		if len(parts) != len(elems) {
			t.Fatalf("%d parts for a batch of %d", len(parts), len(elems))
		}
		for i, e := range elems {
			m, err := jsonrpc.Decode(e)
			if bytes.HasPrefix(bytes.TrimSpace(e), []byte("[")) {
				m, err = nil, errors.New("nested")
			}
			if !bytes.Equal(bytes.TrimSpace(e), parts[i].Raw) || (err == nil) != (parts[i].Err == nil) ||
				m != nil && parts[i].Msg.ID != m.ID {
				t.Fatalf("element %d %q: part %q, %v", i, e, parts[i].Raw, parts[i].Err)
			}
		}
	})
}
