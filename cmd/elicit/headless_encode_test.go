package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestEncodeCallSameBytes: a call's output with its result indented apart
// (encodeCall) is byte for byte what encoding/json's indenting encoder
// writes, for results of every shape, including server text that looks
// like the slot it is put in.
func TestEncodeCallSameBytes(t *testing.T) {
	results := []string{
		`{"content":[{"type":"text","text":"x"}]}`,
		`{"content":[],"structuredContent":{"a":[1,2,{"b":null}],"c":"<&>"},"isError":false}`,
		`{"content":[{"type":"text","text":"line\n  \"result\": 0\n"}],"_meta":{"result":0}}`,
		`{ "content" : [ { "type" : "text" , "text" : "spaced" } ] }`,
		`[]`, `"just a string"`, `0`, `{}`,
	}
	for _, r := range results {
		o := &callOutput{Server: "s\n  \"result\": 0", Protocol: "2025-11-25", Era: "e", Tool: `"result": 0`,
			Result: json.RawMessage(r), Prompts: []promptOutput{{Key: "k", Outcome: "accept", Content: map[string]any{"result": 0}}},
			Error: "\n  \"result\": 0", ElapsedMS: 3}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(o); err != nil {
			t.Fatal(err)
		}
		got, err := encodeJSON(o)
		if err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("result %s:\ngot  %q\nwant %q", r, got, want.Bytes())
		}
		if string(o.Result) != r {
			t.Errorf("the output's result was left as %s", o.Result)
		}
	}
}

// BenchmarkEncodeHugeCall encodes the output of a call whose result is one
// 16 MiB text block: what elicit call allocates to write it.
func BenchmarkEncodeHugeCall(b *testing.B) {
	text := strings.Repeat("the quick brown fox jumps over the lazy dog, 0123456789 ABCDEF\n", 16<<20/64)
	raw, err := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
	if err != nil {
		b.Fatal(err)
	}
	o := &callOutput{Server: "s", Tool: "huge", Result: raw, Prompts: []promptOutput{}}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := encodeJSON(o); err != nil {
			b.Fatal(err)
		}
	}
}
