package headless

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/themes/untrusted"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
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
		o := &CallOutput{Server: "s\n  \"result\": 0", Protocol: "2025-11-25", Era: "e", Tool: `"result": 0`,
			Result: json.RawMessage(r), Prompts: []PromptOutput{{Key: "k", Outcome: "accept", Content: map[string]any{"result": 0}}},
			Error: "\n  \"result\": 0", ElapsedMS: 3}
		sameAsEncoder(t, "result "+r, o)
		if string(o.Result) != r {
			t.Errorf("the output's result was left as %s", o.Result)
		}
	}
}

// TestEncodeCallEveryMember: encodeCall writes what the indenting encoder
// writes with every member set, lists nil, empty and full (server text
// with HTML characters, invalid UTF-8 and U+2028 included), and the
// optional members present and absent.
func TestEncodeCallEveryMember(t *testing.T) {
	tm := time.Date(2026, 12, 1, 18, 0, 0, 5, time.UTC)
	full := &CallOutput{Server: "s<&>", Protocol: "2025-11-25", Era: "e\u2028", Tool: "t\xff",
		Roots:  []client.Root{{URI: "file:///a&b", Name: "<a>"}, {URI: "file:///c"}},
		Result: json.RawMessage(`{"content":[]}`), IsError: true, Error: "err <x>",
		Prompts: []PromptOutput{{Key: "k", Outcome: "accept", Sent: "accept", Content: map[string]any{"b": 1.5, "a": []any{"<", nil}}, Reason: "r", LatencyMS: 2}},
		Sampling: []SamplingOutput{{Key: "s", Outcome: "decline", Sent: "error -1", Request: json.RawMessage(`{"m" : 1}`),
			Error: &jsonrpc.Error{Code: -1, Message: "no <"}, LatencyMS: 1}},
		URLRetries: []URLRetryOutput{{Elicitations: []string{"e"}, Completed: nil, Retried: true, Why: "w&"}},
		ElapsedMS:  7,
		Findings: []findings.Finding{{Rule: "r", Severity: findings.Error, Server: "s", Detail: "d<", Time: tm, Count: 2,
			Frame: findings.FrameRef{In: true, ID: "3", Time: tm}}},
		Failure:  &exit.Failure{Exit: 4, Kind: "tool", Message: "m&"},
		Repaired: "r",
	}
	empty := &CallOutput{Result: json.RawMessage(`0`), Roots: []client.Root{}, Prompts: []PromptOutput{}, Sampling: []SamplingOutput{},
		URLRetries: []URLRetryOutput{}, Findings: []findings.Finding{}}
	nils := &CallOutput{Result: json.RawMessage(`{}`)}
	for name, o := range map[string]*CallOutput{"full": full, "empty": empty, "nil": nils} {
		sameAsEncoder(t, name, o)
	}
}

// sameAsEncoder checks that encodeJSON writes o byte for byte as
// encoding/json's indenting encoder (HTML not escaped) does; what names
// the case in a failure.
func sameAsEncoder(t *testing.T, what string, o *CallOutput) {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(o); err != nil {
		t.Fatal(err)
	}
	got, err := encodeJSON(o)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("%s:\ngot  %q\nwant %q", what, got, want.Bytes())
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
	o := &CallOutput{Server: "s", Tool: "huge", Result: raw, Prompts: []PromptOutput{}}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := encodeJSON(o); err != nil {
			b.Fatal(err)
		}
	}
}

// indentSamples are JSON values of every shape for the indenting tests.
var indentSamples = []string{
	`{}`, `[]`, `{ }`, `[ ]`, `0`, `-1.5e+10`, `true`, `null`, `""`, `"x"`,
	`{"a":1}`, `[1,2,3]`, `{"a":{},"b":[],"c":[{}],"d":[[]]}`,
	` { "a" : [ 1 , { "b" : null } ] , "c" : "d" } `,
	`"esc \" \\ \\\" \n \u00e9 \ud83d\ude00 / \/"`,
	`{"k\"ey":"va\\\\lue\\","n":-0.0,"t":true,"f":false}`,
	"[\"caf\u00e9 \u2028\u2029\", \"\u202e bidi\", \"\x7f\"]",
	`[1 ,2	,3
,4]`, `"trailing"   `, `{"a":[1,[2,[3,[4]]]]}` + "\n",
}

// TestIndentJSONSameAsIndent: indentJSON writes what json.Indent does.
func TestIndentJSONSameAsIndent(t *testing.T) {
	for _, s := range indentSamples {
		checkIndent(t, []byte(s))
	}
}

func FuzzIndentJSON(f *testing.F) {
	for _, s := range indentSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if json.Valid(b) {
			checkIndent(t, b)
		}
	})
}

func checkIndent(t *testing.T, src []byte) {
	t.Helper()
	for _, pi := range [][2]string{{"", "  "}, {"  ", "  "}, {">", "\t"}} {
		var want bytes.Buffer
		if err := json.Indent(&want, src, pi[0], pi[1]); err != nil {
			t.Fatalf("json.Indent(%q): %v", src, err)
		}
		var got bytes.Buffer
		w := bufio.NewWriterSize(&got, 16) // small: runs cross the buffer
		indentJSON(w, src, pi[0], pi[1])
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("indentJSON(%q, %q, %q):\ngot  %q\nwant %q", src, pi[0], pi[1], got.Bytes(), want.Bytes())
		}
	}
}

// TestWriteCallSameAsWhole: writing a call's output as it is indented
// gives the bytes of encoding it whole and passing that through
// untrusted.JSON (the repaired note included), for server text that needs
// repair in the result, in the rest of the output, in both or in neither.
func TestWriteCallSameAsWhole(t *testing.T) {
	bad := "bad \xff byte \u202e bidi \x7f"
	for _, tc := range []struct{ result, server string }{
		{`{"content":[{"type":"text","text":"ok"}]}`, "s"},
		{`{"content":[{"type":"text","text":"` + bad + `"}]}`, "s"},
		{`{"content":[]}`, bad},
		{`["` + bad + `"]`, bad},
	} {
		o := &CallOutput{Server: tc.server, Tool: "t", Result: json.RawMessage(tc.result), Prompts: []PromptOutput{}}
		var want []byte
		{
			c := *o
			b, err := encodeIndented(&c)
			if err != nil {
				t.Fatal(err)
			}
			safe, repaired := untrusted.JSON(b)
			if repaired {
				c.Repaired = RepairedNote
				b, _ = encodeIndented(&c)
				safe, _ = untrusted.JSON(b)
			}
			want = safe
		}
		var got bytes.Buffer
		if err := WriteJSON(&got, o); err != nil {
			t.Fatalf("%s: %v", tc.result, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("result %q, server %q:\ngot  %q\nwant %q", tc.result, tc.server, got.Bytes(), want)
		}
	}
}

// TestWriteCallInvalidResult: a result that is not JSON fails the write,
// with nothing written, as encoding it did.
func TestWriteCallInvalidResult(t *testing.T) {
	var got bytes.Buffer
	err := WriteJSON(&got, &CallOutput{Tool: "t", Result: json.RawMessage(`{"content":`), Prompts: []PromptOutput{}})
	if err == nil || got.Len() != 0 {
		t.Fatalf("WriteJSON of a broken result: err %v, wrote %q; want an error and nothing", err, got.Bytes())
	}
}

// TestJSONListSameBytes: a jsonList field is written byte for byte as the
// plain slice would be (nil, empty, and elements with the text encoding/json
// treats specially: HTML characters, U+2028, invalid UTF-8, maps, times),
// as a member and with omitempty, in the indented output.
func TestJSONListSameBytes(t *testing.T) {
	when := time.Date(2026, 12, 1, 18, 0, 0, 123456789, time.UTC)
	text := "<a href='x'>&</a> \u2028\u2029 \xff\xfe \"q\" \\ \x01 é 🙂"
	finds := []findings.Finding{{Rule: "r", Severity: findings.Error, Server: text, Detail: text, Frame: findings.FrameRef{In: true, ID: "7", Method: "tools/call", Time: when}, Time: when, Count: 2}, {}}
	prompts := []PromptOutput{{Key: "k", Outcome: "accepted", Sent: "accept", Content: map[string]any{"z": 1.5, "a": []any{text, nil, true}, "m": map[string]any{"<": ">"}}, LatencyMS: 3}}
	sampling := []SamplingOutput{{Key: "s", Request: json.RawMessage(`{ "x" : [1, 2] }`), Error: &jsonrpc.Error{Code: -32603, Message: text}}}
	retries := []URLRetryOutput{{Elicitations: []string{"a"}, Completed: nil, Retried: true, Why: text}}

	check := func(name string, list, plain any) {
		t.Helper()
		got, err := encodeIndented(list)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := encodeIndented(plain)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
	check("findings", struct {
		A jsonList[findings.Finding] `json:"a"`
		B jsonList[findings.Finding] `json:"b"`
		C jsonList[findings.Finding] `json:"c"`
		D jsonList[findings.Finding] `json:"d,omitempty"`
		E jsonList[findings.Finding] `json:"e,omitempty"`
	}{nil, jsonList[findings.Finding]{}, finds, nil, finds}, struct {
		A []findings.Finding `json:"a"`
		B []findings.Finding `json:"b"`
		C []findings.Finding `json:"c"`
		D []findings.Finding `json:"d,omitempty"`
		E []findings.Finding `json:"e,omitempty"`
	}{nil, []findings.Finding{}, finds, nil, finds})
	check("prompts", struct {
		P jsonList[PromptOutput] `json:"p"`
	}{prompts}, struct {
		P []PromptOutput `json:"p"`
	}{prompts})
	check("sampling", struct {
		S jsonList[SamplingOutput] `json:"s"`
	}{sampling}, struct {
		S []SamplingOutput `json:"s"`
	}{sampling})
	check("retries", struct {
		R jsonList[URLRetryOutput] `json:"r,omitempty"`
		E jsonList[URLRetryOutput] `json:"e,omitempty"`
	}{retries, jsonList[URLRetryOutput]{}}, struct {
		R []URLRetryOutput `json:"r,omitempty"`
		E []URLRetryOutput `json:"e,omitempty"`
	}{retries, []URLRetryOutput{}})
	// And a whole call's output, through the path a run takes.
	o := &CallOutput{Server: text, Tool: "t", Result: json.RawMessage(`{"content":[]}`), Prompts: prompts, Sampling: sampling, URLRetries: retries, Findings: finds}
	got, err := encodeJSON(o)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, got)
	}
	for _, k := range []string{"prompts", "sampling", "urlRetries", "findings"} {
		if l, ok := back[k].([]any); !ok || len(l) == 0 {
			t.Errorf("%s: %v, want the list", k, back[k])
		}
	}
}
