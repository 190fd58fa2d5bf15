package client

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type exactInner struct {
	Depth int `json:"depth"`
}

type exactProbe struct {
	exactInner
	IsError bool            `json:"isError,omitempty"`
	Content []string        `json:"content"`
	Plain   string          // named by its Go name
	Skipped string          `json:"-"`
	Raw     json.RawMessage `json:"raw"`
}

// TestDecodeExact: members whose names match a field only without regard
// to case are left out; exact ones, embedded fields' and untagged fields'
// names included, decode as encoding/json would.
func TestDecodeExact(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, raw string
		want      exactProbe
	}{
		{"exact names", `{"isError":true,"content":["a"],"Plain":"p","depth":2,"raw":{"x":1}}`,
			exactProbe{exactInner{2}, true, []string{"a"}, "p", "", json.RawMessage(`{"x":1}`)}},
		{"a case variant is not the member", `{"IsError":true,"CONTENT":["a"],"plain":"p","Depth":2}`, exactProbe{}},
		{"the real member wins over a variant after it", `{"isError":false,"IsError":true,"content":["a"],"Content":["b"]}`,
			exactProbe{Content: []string{"a"}}},
		{"unknown members are ignored as before", `{"other":1,"Skipped":"s","-":"x"}`, exactProbe{}},
	} {
		var got exactProbe
		if err := wire.DecodeExact([]byte(tc.raw), &got); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var lenient exactProbe
		_ = json.Unmarshal([]byte(tc.raw), &lenient)
		if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(exactProbe{})); diff != "" {
			t.Errorf("%s (-want +got):\n%s\nencoding/json alone gives %+v", tc.name, diff, lenient)
		}
	}
	// Errors read as encoding/json's, and non-structs pass straight through.
	var p exactProbe
	if err, want := wire.DecodeExact([]byte(`[1]`), &p), json.Unmarshal([]byte(`[1]`), &p); err == nil || err.Error() != want.Error() {
		t.Errorf("array into a struct: %v, want %v", err, want)
	}
	var m map[string]int
	if err := wire.DecodeExact([]byte(`{"A":1,"a":2}`), &m); err != nil || m["A"] != 1 || m["a"] != 2 {
		t.Errorf("map: %v %v", m, err)
	}
}

type exactOuter struct {
	Items  []exactProbe          `json:"items"`
	ByName map[string]exactInner `json:"byName"`
	Ptr    *exactInner           `json:"ptr"`
	Any    any                   `json:"any"`
}

type exactNode struct {
	Kids []exactNode `json:"kids"`
	Name string      `json:"name"`
}

// TestDecodeExactNested: the rule holds inside slices, maps and pointers
// of structs, leaves untyped values alone, and stops at exactDepth.
func TestDecodeExactNested(t *testing.T) {
	t.Parallel()
	raw := `{"items":[{"isError":false,"IsError":true,"content":["a"]}],"byName":{"a":{"depth":1,"Depth":3}},` +
		`"ptr":{"depth":5,"DEPTH":4},"any":{"Kept":1}}`
	var got exactOuter
	if err := wire.DecodeExact([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	want := exactOuter{Items: []exactProbe{{Content: []string{"a"}}}, ByName: map[string]exactInner{"a": {1}},
		Ptr: &exactInner{5}, Any: map[string]any{"Kept": float64(1)}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(exactProbe{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// 1,000 levels: followed to exactDepth, decoded in full by encoding/json.
	deep := strings.Repeat(`{"kids":[`, 1000) + `{"name":"leaf"}` + strings.Repeat(`]}`, 1000)
	var n exactNode
	if err := wire.DecodeExact([]byte(deep), &n); err != nil {
		t.Fatalf("deep: %v", err)
	}
	for range 1000 {
		n = n.Kids[0]
	}
	if n.Name != "leaf" {
		t.Errorf("deep leaf %q", n.Name)
	}
}
