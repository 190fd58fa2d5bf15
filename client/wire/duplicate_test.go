package wire

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFindDuplicate(t *testing.T) {
	always := func(_ []string, name string) string { return FoldName(name) }
	notEnv := func(p []string, name string) string {
		if len(p) > 0 && p[len(p)-1] == "env" {
			return name
		}
		return FoldName(name)
	}
	for _, tc := range []struct {
		name, doc string
		key       func([]string, string) string
		want      *Duplicate // offsets checked apart
	}{
		{"none", `{"a": 1, "b": {"a": [1, {"a": 2}]}}`, always, nil},
		{"top", `{"a": 1, "a": 2}`, nil, &Duplicate{First: "a", Second: "a"}},
		{"nested in an array", `{"s": [{"x": 1}, {"y": 1, "y": 2}]}`, nil, &Duplicate{Path: []string{"s", "1"}, First: "y", Second: "y"}},
		{"the first in document order", `{"a": {"b": 1, "b": 2}, "a": 3}`, nil, &Duplicate{Path: []string{"a"}, First: "b", Second: "b"}},
		{"case, folded", `{"command": 1, "COMMAND": 2}`, always, &Duplicate{First: "command", Second: "COMMAND"}},
		{"case, not folded", `{"command": 1, "COMMAND": 2}`, nil, nil},
		{"Kelvin sign folds to k", "{\"kind\": 1, \"\u212aind\": 2}", always, &Duplicate{First: "kind", Second: "\u212aind"}},
		{"long s folds to s", "{\"sse\": 1, \"\u017fse\": 2}", always, &Duplicate{First: "sse", Second: "\u017fse"}},
		{"a map of exact names", `{"env": {"PATH": 1, "path": 2}}`, notEnv, nil},
		{"a map, exact repeat", `{"env": {"PATH": 1, "PATH": 2}}`, notEnv, &Duplicate{Path: []string{"env"}, First: "PATH", Second: "PATH"}},
		{"escaped spelling", `{"url": 1, "\u0075rl": 2}`, nil, &Duplicate{First: "url", Second: "url"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FindDuplicate([]byte(tc.doc), tc.key)
			if err != nil {
				t.Fatal(err)
			}
			if got != nil {
				if got.FirstEnd <= 0 || got.SecondEnd <= got.FirstEnd || got.SecondEnd > int64(len(tc.doc)) {
					t.Errorf("offsets %d, %d in %d bytes", got.FirstEnd, got.SecondEnd, len(tc.doc))
				}
				got.FirstEnd, got.SecondEnd = 0, 0
			}
			if !cmp.Equal(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	for _, bad := range []string{`{"a": 1`, `{"a" 1}`, `{"a": 1} {}`, ``} {
		if d, err := FindDuplicate([]byte(bad), nil); err == nil {
			t.Errorf("%q: no error (%+v)", bad, d)
		}
	}
}

// TestFindDuplicateOffsets: each offset ends its name, so the line of a
// name is the newlines before it, plus one.
func TestFindDuplicateOffsets(t *testing.T) {
	doc := "{\n  \"a\": 1,\n  \"b\": {},\n  \"a\": 2\n}"
	d, err := FindDuplicate([]byte(doc), nil)
	if err != nil || d == nil {
		t.Fatal(d, err)
	}
	if l1, l2 := strings.Count(doc[:d.FirstEnd], "\n")+1, strings.Count(doc[:d.SecondEnd], "\n")+1; l1 != 2 || l2 != 4 {
		t.Errorf("lines %d and %d, want 2 and 4", l1, l2)
	}
	if p := (&Duplicate{Path: []string{"mcpServers", "a/b~c"}}).Pointer(); p != "/mcpServers/a~1b~0c" {
		t.Errorf("pointer %q", p)
	}
}

// FuzzFoldName: two names are one member to FindDuplicate's folding
// exactly when encoding/json would take them for one field (EqualFold).
func FuzzFoldName(f *testing.F) {
	f.Add("kind", "\u212aIND")
	f.Add("sse", "\u017fSE")
	f.Add("command", "Command")
	f.Fuzz(func(t *testing.T, a, b string) {
		if (FoldName(a) == FoldName(b)) != strings.EqualFold(a, b) {
			t.Errorf("FoldName(%q) = %q, FoldName(%q) = %q; EqualFold %v", a, FoldName(a), b, FoldName(b), strings.EqualFold(a, b))
		}
	})
}

// TestFoldNameIsHowEncodingJSONMatches: encoding/json fills the field of
// a struct from each folded spelling FindDuplicate takes for its name.
func TestFoldNameIsHowEncodingJSONMatches(t *testing.T) {
	for _, spelling := range []string{"kind", "KIND", "\u212aind", "kInD"} {
		var v struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal([]byte(`{"`+spelling+`": "x"}`), &v); err != nil || v.Kind != "x" {
			t.Errorf("%q: encoding/json did not fill kind (%v)", spelling, err)
		}
		if FoldName(spelling) != FoldName("kind") {
			t.Errorf("%q does not fold to kind", spelling)
		}
	}
}
