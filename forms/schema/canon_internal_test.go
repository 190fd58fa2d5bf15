package schema

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestCanonicalForm(t *testing.T) {
	cases := []struct {
		name, in, want string
		stripped       bool
	}{
		{"annotations go, order and space do not matter",
			`{ "type":"object", "title":"T", "description":"D", "$comment":"c", "properties": {"b": {"type":"integer","default":3,"examples":[1],"deprecated":true}, "a":{"type":"string","readOnly":false,"writeOnly":true}} }`,
			`{"properties":{"a":{"type":"string"},"b":{"type":"integer"}},"type":"object"}`, true},
		{"a property named like an annotation stays",
			`{"properties":{"title":{"type":"string","title":"x"},"default":{"type":"string"}},"required":["title"]}`,
			`{"properties":{"default":{"type":"string"},"title":{"type":"string"}},"required":["title"]}`, true},
		{"titles of select options go, consts stay",
			`{"oneOf":[{"const":"a","title":"A"}],"items":{"anyOf":[{"const":"b","title":"B"}]},"enumNames":["x"]}`,
			`{"items":{"anyOf":[{"const":"b"}]},"oneOf":[{"const":"a"}]}`, true},
		{"data is data: enum, const and unknown keywords keep their members",
			`{"const":{"title":"t","default":1},"enum":[{"title":"u"}],"x-ui":{"title":"v"}}`,
			`{"const":{"default":1,"title":"t"},"enum":[{"title":"u"}],"x-ui":{"title":"v"}}`, true},
		{"annotations of the wrong type stay",
			`{"title":5,"description":null,"deprecated":"yes","examples":{},"$comment":[],"readOnly":0}`,
			`{"$comment":[],"deprecated":"yes","description":null,"examples":{},"readOnly":0,"title":5}`, true},
		{"every schema position is stripped",
			`{"$defs":{"d":{"title":"x"}},"definitions":{"e":{"title":"x"}},"not":{"title":"x"},"if":{"title":"x"},"then":{"title":"x"},"else":{"title":"x"},"allOf":[{"title":"x"}],"prefixItems":[{"title":"x"}],"patternProperties":{"^a":{"title":"x"}},"additionalProperties":{"title":"x"},"dependentSchemas":{"a":{"title":"x"}},"contains":{"title":"x"},"propertyNames":{"title":"x"},"unevaluatedProperties":{"title":"x"},"items":[{"title":"x"}]}`,
			`{"$defs":{"d":{}},"additionalProperties":{},"allOf":[{}],"contains":{},"definitions":{"e":{}},"dependentSchemas":{"a":{}},"else":{},"if":{},"items":[{}],"not":{},"patternProperties":{"^a":{}},"prefixItems":[{}],"propertyNames":{},"then":{},"unevaluatedProperties":{}}`, true},
		{"a reference anywhere keeps everything",
			`{"title":"T","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"title":"X"}}}`,
			`{"$defs":{"x":{"title":"X"}},"properties":{"a":{"$ref":"#/$defs/x"}},"title":"T"}`, false},
		{"an escaped name keeps everything, and its object's order",
			`{"title":"T","b":1,"\u0074itle":"U"}`,
			`{"title":"T","b":1,"\u0074itle":"U"}`, false},
		{"a repeated name keeps everything, in order",
			`{"title":"T","a":1,"title":5}`,
			`{"a":1,"title":"T","title":5}`, false},
	}
	for _, c := range cases {
		text, stripped, ok := canonicalForm([]byte(c.in))
		if !ok || string(text) != c.want || stripped != c.stripped {
			t.Errorf("%s:\n got %s (stripped %v, ok %v)\nwant %s (stripped %v)", c.name, text, stripped, ok, c.want, c.stripped)
		}
	}
	for _, bad := range []string{``, `{`, `{"a":}`, `[1,]`, `{"a":1}x`, strings.Repeat("[", maxCanonDepth+1) + strings.Repeat("]", maxCanonDepth+1)} {
		if _, _, ok := canonicalForm([]byte(bad)); ok {
			t.Errorf("canonicalForm(%q) ok", bad)
		}
	}
}

// referenceStrip is annotations.go's rules applied to a decoded document,
// the slow way: the oracle FuzzCanonicalForm checks the scanner against.
func referenceStrip(v any, pos position) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			first := firstByte(e)
			if pos == posSchema && strippable(k, first) {
				continue
			}
			child := posData
			switch pos {
			case posSchema:
				child = keywordPos(k, first)
			case posSchemaMap:
				child = posSchema
			}
			out[k] = referenceStrip(e, child)
		}
		return out
	case []any:
		elem := posData
		if pos == posSchemaList {
			elem = posSchema
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = referenceStrip(e, elem)
		}
		return out
	}
	return v
}

// firstByte is the first byte of v written as JSON.
func firstByte(v any) byte {
	switch x := v.(type) {
	case map[string]any:
		return '{'
	case []any:
		return '['
	case string:
		return '"'
	case bool:
		if x {
			return 't'
		}
		return 'f'
	case nil:
		return 'n'
	}
	return '0'
}

func decodeForTest(t *testing.T, raw []byte) (any, bool) {
	t.Helper()
	// json.Valid first: decodeJSONText lets a stray closing bracket
	// after the value pass ("0}").
	var v any
	if !json.Valid(raw) || decodeJSONText(raw, &v) != nil {
		return nil, false
	}
	return v, true
}

// FuzzCanonicalForm: the canonical text decodes to exactly what the
// compiler would decode from the document, less the annotations the rules
// strip; so equal texts (equal cache keys) mean equally validating
// documents. Also: never a panic, and the text is stable.
func FuzzCanonicalForm(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, name := range files {
		raw, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte(`{"title":"T","properties":{"title":{"title":"x","type":"string"}},"oneOf":[{"const":"a","title":"A"}]}`))
	f.Add([]byte(`{"a":1,"\u0061":2,"a\u00e9":3,"title":5,"title":"x"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		text, stripped, ok := canonicalForm(raw)
		doc, valid := decodeForTest(t, raw)
		if !ok {
			// Only nesting deeper than the scanner follows may turn valid
			// JSON away.
			if valid && depth(doc) <= maxCanonDepth {
				t.Fatalf("valid JSON not keyed: %q", raw)
			}
			return
		}
		if !valid {
			t.Fatalf("invalid JSON keyed: %q", raw)
		}
		got, gotOK := decodeForTest(t, text)
		if !gotOK {
			t.Fatalf("canonical text is not JSON: %q from %q", text, raw)
		}
		want := doc
		if stripped {
			want = referenceStrip(doc, posSchema)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("canonical text of %q decodes to %#v, want %#v", raw, got, want)
		}
		again, _, _ := canonicalForm(raw)
		if sha256.Sum256(again) != sha256.Sum256(text) {
			t.Fatalf("unstable text for %q", raw)
		}
	})
}

func depth(v any) int {
	d := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			d = max(d, depth(e))
		}
		return d + 1
	case []any:
		for _, e := range x {
			d = max(d, depth(e))
		}
		return d + 1
	}
	return 0
}

// FuzzDecodeObject: the decoder-free fast path of decodeObject reads
// exactly what json.Unmarshal reads.
func FuzzDecodeObject(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":{"c":[1,2]},"a":"x"}`))
	f.Add([]byte(` {"\u0061":1, "a" : 2 } `))
	f.Add([]byte(`{"é":true,"t":"q\"uote"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := decodeObject(raw)
		var want object
		wantErr := json.Unmarshal(bytes.TrimSpace(raw), &want)
		trimmed := bytes.TrimSpace(raw)
		if len(trimmed) == 0 || trimmed[0] != '{' {
			if ok {
				t.Fatalf("decodeObject(%q) ok for a non-object", raw)
			}
			return
		}
		if ok != (wantErr == nil) {
			t.Fatalf("decodeObject(%q) ok=%v, json.Unmarshal err %v", raw, ok, wantErr)
		}
		if !ok {
			return
		}
		if len(got) != len(want) {
			t.Fatalf("decodeObject(%q) = %v, want %v", raw, got, want)
		}
		for k, v := range want {
			if !bytes.Equal(got[k], v) {
				t.Fatalf("decodeObject(%q)[%q] = %s, want %s", raw, k, got[k], v)
			}
		}
		ms, dup, hasDup, mok := orderedMembers(raw)
		if mok && len(ms) > 0 && !hasDup && len(ms) != len(want) {
			t.Fatalf("orderedMembers(%q): %d members, %d names (dup %q)", raw, len(ms), len(want), dup)
		}
	})
}

// TestCacheEvictsLeastRecentlyUsed: within the entry bound the least
// recently used shape goes first; past the byte bound too; a document
// larger than the whole budget is compiled but not kept.
func TestCacheEvictsLeastRecentlyUsed(t *testing.T) {
	doc := func(n int) json.RawMessage {
		return json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","maxLength":` + strings.Repeat("1", n) + `}}}`)
	}
	has := func(c *Cache, raw json.RawMessage) bool {
		text, _, _ := canonicalForm(raw)
		c.mu.Lock()
		defer c.mu.Unlock()
		_, ok := c.byKey[sha256.Sum256(text)]
		return ok
	}
	c := NewCache(3)
	for n := 1; n <= 3; n++ {
		if _, err := c.compile(doc(n)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.compile(doc(1)); err != nil { // 1 is now the most recent
		t.Fatal(err)
	}
	if _, err := c.compile(doc(4)); err != nil {
		t.Fatal(err)
	}
	if !has(c, doc(1)) || has(c, doc(2)) || !has(c, doc(3)) || !has(c, doc(4)) {
		t.Errorf("after touching 1 and adding 4, want 1, 3, 4 kept and 2 evicted")
	}

	small := NewCache(100)
	small.maxBytes = 3 * len(doc(1))
	for n := 1; n <= 5; n++ {
		if _, err := small.compile(doc(n)); err != nil {
			t.Fatal(err)
		}
	}
	if small.bytes > small.maxBytes || small.Len() < 1 {
		t.Errorf("byte bound: %d bytes kept in %d entries, budget %d", small.bytes, small.Len(), small.maxBytes)
	}
	big := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","pattern":"` + strings.Repeat("a", small.maxBytes) + `"}}}`)
	before := small.Len()
	if sch, err := small.compile(big); err != nil || sch == nil {
		t.Fatalf("oversized document: %v", err)
	}
	if small.Len() != before || has(small, big) {
		t.Errorf("an oversized document was kept")
	}
}
