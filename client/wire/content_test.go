package wire

import (
	"encoding/json"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// TestDecodeToolResultSlicesRaw: what a decoded result holds beside its
// Raw is the block headers: each block's Raw is a slice of the result's
// (capped, so an append cannot write into its neighbour), the type a
// constant, and the slice exactly as long as the content.
func TestDecodeToolResultSlicesRaw(t *testing.T) {
	t.Parallel()
	raw := json.RawMessage(`{"content":[{"type":"text","text":"a"}, {"type":"image","data":"AAAA","mimeType":"image/png"}],"structuredContent":{"k":1}}`)
	res, err := DecodeToolResult(raw)
	if err != nil {
		t.Fatal(err)
	}
	inside := func(b []byte) bool {
		p, lo := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
		return p >= lo && p+uintptr(len(b)) <= lo+uintptr(len(raw))
	}
	if len(res.Content) != 2 || cap(res.Content) != 2 {
		t.Fatalf("content len %d cap %d", len(res.Content), cap(res.Content))
	}
	for i, b := range res.Content {
		if !inside(b.Raw) || cap(b.Raw) != len(b.Raw) {
			t.Errorf("block %d: Raw %q is not a capped slice of the result", i, b.Raw)
		}
	}
	if !inside(res.StructuredContent) || string(res.StructuredContent) != `{"k":1}` {
		t.Errorf("structuredContent %q", res.StructuredContent)
	}
	if got := res.Content[1].Details(); got.MimeType != "image/png" || got.Data != "AAAA" {
		t.Errorf("details %+v", got)
	}
	if unsafe.Sizeof(ContentBlock{}) > 56 {
		t.Errorf("a block is %d bytes: a million of them are the result's weight", unsafe.Sizeof(ContentBlock{}))
	}
}

// TestContentBlockFields: a block decodes by exact names wherever it is
// read (a result, a prompt message through encoding/json), a block whose
// fields have the wrong types keeps only its type, and one whose type is
// not a string fails.
func TestContentBlockFields(t *testing.T) {
	t.Parallel()
	size := int64(12)
	for _, tc := range []struct {
		raw     string
		want    ContentBlock
		details BlockDetails
		fails   bool
	}{
		{raw: `{"type":"text","text":"real","Text":"decoy"}`, want: ContentBlock{Type: "text", Text: "real"}},
		{raw: `{"type":"text","text":"caf\u00e9 \"q\""}`, want: ContentBlock{Type: "text", Text: `café "q"`}},
		{raw: `{"TYPE":"text","text":"t"}`, want: ContentBlock{Text: "t"}},
		{raw: `{"type":"text","text":7}`, want: ContentBlock{Type: "text"}},
		{raw: `{"type":"text","text":"t","size":1.5}`, want: ContentBlock{Type: "text"}},
		{raw: `{"type":"text","text":"t","Size":1.5}`, want: ContentBlock{Type: "text", Text: "t"}},
		{raw: `{"type":"resource_link","uri":"file:///x","name":"x","size":12,"URI":"no"}`, want: ContentBlock{Type: "resource_link"},
			details: BlockDetails{URI: "file:///x", Name: "x", Size: &size}},
		{raw: `{"type":"resource","resource":{"uri":"u","text":"t","TEXT":"no"}}`, want: ContentBlock{Type: "resource"},
			details: BlockDetails{Resource: &ResourceContents{URI: "u", Text: "t"}}},
		{raw: `{"type":"resource","resource":{"uri":5}}`, want: ContentBlock{Type: "resource"}},
		{raw: `{"type":"future","what":1}`, want: ContentBlock{Type: "future"}},
		{raw: `null`, want: ContentBlock{}},
		{raw: `{"type":5}`, fails: true},
		{raw: `[1]`, fails: true},
	} {
		var got ContentBlock
		err := json.Unmarshal([]byte(tc.raw), &got)
		if (err != nil) != tc.fails {
			t.Errorf("%s: error %v", tc.raw, err)
			continue
		}
		if tc.fails {
			if !strings.HasPrefix(err.Error(), "content block: ") {
				t.Errorf("%s: error %q does not say what failed", tc.raw, err)
			}
			continue
		}
		tc.want.Raw = json.RawMessage(tc.raw)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.raw, diff)
		}
		if diff := cmp.Diff(tc.details, got.Details()); diff != "" {
			t.Errorf("%s details (-want +got):\n%s", tc.raw, diff)
		}
	}
}

// TestNewBlock: a block built by hand carries its fields in Raw, and
// marshals as it would have been sent.
func TestNewBlock(t *testing.T) {
	t.Parallel()
	b := NewBlock("image", BlockDetails{MimeType: "image/png", Data: "AAAA"})
	if b.Type != "image" || b.Details().MimeType != "image/png" || b.Details().Data != "AAAA" {
		t.Fatalf("%+v %+v", b, b.Details())
	}
	out, err := json.Marshal(CallToolResult{Content: []ContentBlock{b, {Type: "text", Text: "hi"}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":"hi"}]}`; string(out) != want {
		t.Errorf("marshalled %s, want %s", out, want)
	}
	var back CallToolResult
	if err := json.Unmarshal(out, &back); err != nil || len(back.Content) != 2 || back.Content[1].Text != "hi" || string(back.Raw) != string(out) {
		t.Errorf("unmarshalled %+v, %v", back, err)
	}
}

// TestDecodeToolResultRefuses: what is not a tool result fails, as
// json.Unmarshal would have, and null is an empty result.
func TestDecodeToolResultRefuses(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{`[]`, `"x"`, `{"content":{}}`, `{"content":[1]}`, `{"isError":"yes"}`, `{"content":[`, ``} {
		if res, err := DecodeToolResult(json.RawMessage(raw)); err == nil {
			t.Errorf("%q decoded: %+v", raw, res)
		}
	}
	if res, err := DecodeToolResult(json.RawMessage(` null `)); err != nil || res.Content != nil || string(res.Raw) != " null " {
		t.Errorf("null: %+v, %v", res, err)
	}
}

// TestEachMember: members come in order with names unescaped and values
// as slices of the object; what is not one object says so.
func TestEachMember(t *testing.T) {
	t.Parallel()
	var got []string
	ok := EachMember([]byte(` {"a":1, "\u0062" : {"c":[1,"]"]},"a":"x"} `), func(name, v []byte) bool {
		got = append(got, string(name)+"="+string(v))
		return true
	})
	if want := []string{"a=1", `b={"c":[1,"]"]}`, `a="x"`}; !ok || !cmp.Equal(got, want) {
		t.Errorf("%v %v, want %v", ok, got, want)
	}
	for _, bad := range []string{``, `[]`, `{"a":1`, `{"a" 1}`, `{"a":1} x`, `{"a":1,}`} {
		if EachMember([]byte(bad), func(_, _ []byte) bool { return true }) {
			t.Errorf("%q read as an object", bad)
		}
	}
	n := 0
	EachMember([]byte(`{"a":1,"b":2}`), func(_, _ []byte) bool { n++; return false })
	if n != 1 {
		t.Errorf("yield false did not stop: %d calls", n)
	}
}
