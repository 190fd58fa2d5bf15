package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The exact-name decoding as it was before it walked documents in place
// (it rebuilt every object through a map), kept as the oracle the fuzz
// target below holds the new one to.

func oldDecodeExact(raw []byte, v any) error {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer {
		return json.Unmarshal(raw, v)
	}
	if out, changed := oldStripVariants(raw, t.Elem(), 0); changed {
		raw = out
	}
	return json.Unmarshal(raw, v)
}

func oldStripVariants(raw []byte, t reflect.Type, depth int) ([]byte, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if depth > exactDepth || !hasFields(t, depth) {
		return raw, false
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 {
		return raw, false
	}
	switch t.Kind() {
	case reflect.Struct:
		if trimmed[0] != '{' {
			return raw, false
		}
		m, err := ExactMembers(trimmed)
		if err != nil {
			return raw, false
		}
		fields := map[string]reflect.Type{}
		fieldTypes(t, fields)
		changed := false
		kept := make(map[string]json.RawMessage, len(m))
		for k, val := range m {
			ft, exact := fields[k]
			if !exact {
				if oldCaseVariantOf(k, fields) {
					changed = true // "IsError" is not isError
					continue
				}
				kept[k] = json.RawMessage(val)
				continue
			}
			out, c := oldStripVariants(val, ft, depth+1)
			changed = changed || c
			kept[k] = out
		}
		if !changed {
			return raw, false
		}
		return Object(kept), true
	case reflect.Slice, reflect.Array:
		if trimmed[0] != '[' || t.Elem().Kind() == reflect.Uint8 {
			return raw, false
		}
		var items []RawRef
		if json.Unmarshal(trimmed, &items) != nil {
			return raw, false
		}
		changed := false
		out := make([]json.RawMessage, len(items))
		for i, it := range items {
			o, c := oldStripVariants(it, t.Elem(), depth+1)
			changed = changed || c
			out[i] = o
		}
		if !changed {
			return raw, false
		}
		b, err := json.Marshal(out)
		if err != nil {
			return raw, false
		}
		return b, true
	case reflect.Map:
		if trimmed[0] != '{' || t.Key().Kind() != reflect.String {
			return raw, false
		}
		m, err := ExactMembers(trimmed)
		if err != nil {
			return raw, false
		}
		changed := false
		kept := make(map[string]json.RawMessage, len(m))
		for k, val := range m {
			o, c := oldStripVariants(val, t.Elem(), depth+1)
			changed = changed || c
			kept[k] = o
		}
		if !changed {
			return raw, false
		}
		return Object(kept), true
	}
	return raw, false
}

func oldCaseVariantOf(k string, fields map[string]reflect.Type) bool {
	for n := range fields {
		if strings.EqualFold(k, n) {
			return true
		}
	}
	return false
}

// oldBlock is ContentBlock as it was: every field decoded, Raw copied.
type oldBlock struct {
	Type        string            `json:"type"`
	Text        string            `json:"text,omitempty"`
	Data        string            `json:"data,omitempty"`
	MimeType    string            `json:"mimeType,omitempty"`
	URI         string            `json:"uri,omitempty"`
	Name        string            `json:"name,omitempty"`
	Title       string            `json:"title,omitempty"`
	Description string            `json:"description,omitempty"`
	Size        *int64            `json:"size,omitempty"`
	Resource    *ResourceContents `json:"resource,omitempty"`
	Annotations json.RawMessage   `json:"annotations,omitempty"`
	Raw         json.RawMessage   `json:"-"`
}

func (b *oldBlock) UnmarshalJSON(data []byte) error {
	type plain oldBlock
	var p plain
	if err := oldDecodeExact(data, &p); err != nil {
		var t struct {
			Type string `json:"type"`
		}
		if oldDecodeExact(data, &t) != nil {
			return fmt.Errorf("content block: %w", err)
		}
		p = plain{Type: t.Type}
	}
	*b = oldBlock(p)
	b.Raw = append(json.RawMessage(nil), data...)
	return nil
}

type oldToolResult struct {
	Content           []oldBlock      `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
}

// hasDuplicateKeys reports whether some object in data names a member
// twice: the old decoding kept only the last of them when it rebuilt an
// object, and all of them (as encoding/json does) when it did not, so
// there it is no oracle.
func hasDuplicateKeys(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		keys   map[string]bool
		object bool
		key    bool // the next string token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		isKey := top != nil && top.object && top.key
		switch tok := tok.(type) {
		case json.Delim:
			switch tok {
			case '{', '[':
				if top != nil && top.object {
					top.key = true
				}
				stack = append(stack, &frame{keys: map[string]bool{}, object: tok == '{', key: tok == '{'})
				continue
			default:
				stack = stack[:len(stack)-1]
				continue
			}
		case string:
			if isKey {
				if top.keys[tok] {
					return true
				}
				top.keys[tok] = true
				top.key = false
				continue
			}
		}
		if top != nil && top.object {
			top.key = true
		}
	}
}

// hasVariant reports whether a member name in data is a case variant of
// a field name of the types decoded into.
func hasVariant(data []byte) bool {
	names := map[string]reflect.Type{}
	seen := map[reflect.Type]bool{}
	var collect func(t reflect.Type)
	collect = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		fields := map[string]reflect.Type{}
		fieldTypes(t, fields)
		for n, ft := range fields {
			names[n] = ft
			collect(ft)
		}
	}
	for _, target := range exactTargets() {
		collect(reflect.TypeOf(target()))
	}
	collect(reflect.TypeFor[blockFields]())
	collect(reflect.TypeFor[oldToolResult]())
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if k, ok := tok.(string); ok {
			if _, exact := names[k]; !exact && oldCaseVariantOf(k, names) {
				return true
			}
		}
	}
}

// exactTargets are the types the fuzz target decodes into.
func exactTargets() []func() any {
	return []func() any{
		func() any { return new(exactProbe) },
		func() any { return new(exactOuter) },
		func() any { return new(exactNode) },
		func() any { return new(map[string]exactInner) },
		func() any { return new([]*exactInner) },
		func() any { return new(ResourceContents) },
	}
}

var oracleSeeds = []string{
	`{"isError":true,"content":["a"],"Plain":"p","depth":2,"raw":{"x":1}}`,
	`{"IsError":true,"CONTENT":["a"],"plain":"p","Depth":2}`,
	` { "isError" : false , "IsError" : true , "content" : [ "a" ] , "Content" : [ "b" ] } `,
	`{"items":[{"isError":false,"IsError":true,"content":["a"]}],"byName":{"a":{"depth":1,"Depth":3}},"ptr":{"depth":5,"DEPTH":4},"any":{"Kept":1}}`,
	`{"\u0049sError":true,"is\u0045rror":true,"ſkipped":1,"KIND":2}`,
	`{"content":[{"type":"text","text":"x"},{"type":"image","data":"AAAA","mimeType":"image/png","MimeType":"x"},null,{"type":"text","text":7},{"type":"future","what":1},{"type":"resource","resource":{"uri":"u","TEXT":5,"text":"t"}}],"structuredContent":{"ok":true},"isError":true,"IsError":false}`,
	`{"content":[{"type":"resource_link","uri":"file:///x","name":"x","size":12,"Size":"big"},{"type":"text","text":"a","size":1.5}]}`,
	`{"content":[{"type":5}]}`,
	`{"content":{}}`,
	`{"content":null,"isError":null}`,
	`{"content":[],"structuredContent":null}`,
	`null`,
	`[]`,
	`{"kids":[{"kids":[{"name":"a","Name":"b"}]}],"NAME":"c"}`,
	`{"content":[{"type":"text","text":"\u00e9\ud83d\ude00","Text":"decoy"}]}`,
	`{"a":1,}`,
	`{"content":[{"type":"text","text":"a"}],"content":[{"type":"text","text":"b","text":null}],"isError":true,"isError":null}`,
	`{"content":[{"type":"resource","resource":{"uri":"a"},"resource":{"text":"t"}},{"type":"x","size":1,"size":null}]}`,
}

// FuzzDecodeExactMatchesOld: DecodeExact, ContentBlock and
// DecodeToolResult decode every document as the map-rebuilding decoding
// did (where that is defined: no repeated names), error or not.
//
//	go test -run '^$' -fuzz FuzzDecodeExactMatchesOld -fuzztime 2m ./client/wire
func FuzzDecodeExactMatchesOld(f *testing.F) {
	for _, s := range oracleSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// With a repeated name the old decoding is an oracle only where it
		// rebuilt nothing: where no name is a case variant.
		if hasDuplicateKeys(data) && hasVariant(data) {
			return
		}
		for _, target := range exactTargets() {
			got, want := target(), target()
			gerr, werr := DecodeExact(data, got), oldDecodeExact(data, want)
			if (gerr == nil) != (werr == nil) {
				t.Fatalf("%T: error %v, the old decoding %v", got, gerr, werr)
			}
			if gerr == nil && !cmp.Equal(got, want, cmp.AllowUnexported(exactProbe{})) {
				t.Fatalf("%T:\n%s", got, cmp.Diff(want, got, cmp.AllowUnexported(exactProbe{})))
			}
		}
		got, gerr := DecodeToolResult(data)
		var want oldToolResult
		werr := oldDecodeExact(data, &want)
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("tool result: error %v, the old decoding %v", gerr, werr)
		}
		if gerr != nil {
			return
		}
		if !bytes.Equal(got.Raw, data) || got.IsError != want.IsError || !bytes.Equal(got.StructuredContent, want.StructuredContent) ||
			len(got.Content) != len(want.Content) || (got.Content == nil) != (want.Content == nil) {
			t.Fatalf("tool result %+v, the old decoding %+v", got, want)
		}
		for i, b := range got.Content {
			w := want.Content[i]
			d := b.Details()
			old := BlockDetails{Data: w.Data, MimeType: w.MimeType, URI: w.URI, Name: w.Name, Title: w.Title,
				Description: w.Description, Size: w.Size, Resource: w.Resource, Annotations: w.Annotations}
			if b.Type != w.Type || b.Text != w.Text || !bytes.Equal(b.Raw, w.Raw) || !cmp.Equal(d, old) {
				t.Fatalf("block %d: %+v %+v, the old decoding %+v", i, b, d, w)
			}
			var one ContentBlock
			if err := json.Unmarshal(b.Raw, &one); err != nil || one.Type != b.Type || one.Text != b.Text {
				t.Fatalf("block %d alone: %+v, %v", i, one, err)
			}
		}
	})
}

// TestHasDuplicateKeys: the oracle's guard sees a repeated name at any
// depth, and only within one object.
func TestHasDuplicateKeys(t *testing.T) {
	t.Parallel()
	for doc, want := range map[string]bool{
		`{"a":1,"a":2}`:             true,
		`{"x":[{"b":1,"b":{}}]}`:    true,
		`{"a":"\u0061","\u0061":1}`: true,
		`{"a":{"a":1},"b":{"a":1}}`: false,
		`[{"a":1},{"a":1}]`:         false,
		`{"a":["a","a"]}`:           false,
	} {
		if got := hasDuplicateKeys([]byte(doc)); got != want {
			t.Errorf("hasDuplicateKeys(%s) = %v", doc, got)
		}
	}
	for _, s := range oracleSeeds {
		if hasDuplicateKeys([]byte(s)) && hasVariant([]byte(s)) {
			t.Errorf("a seed repeats a name beside a case variant, so it checks nothing: %s", s)
		}
	}
}
