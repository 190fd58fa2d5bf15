package replay

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestNormalizeMasksVolatile: two results of the same work in two runs
// compare equal; one that differs in substance does not.
func TestNormalizeMasksVolatile(t *testing.T) {
	run1 := `{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"7F3A2B9C"}},
		"content":[{"type":"text","text":"task 7F3A2B9C done at 2026-12-01T15:04:05.123Z, see https://x.test/c?session=AAAA&lang=en (elicitation EL1D1234)"}],
		"structuredContent":{"taskId":"7F3A2B9C","createdAt":"2026-12-01T15:04:05Z","count":3}}`
	run2 := `{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"QQ99ZZ11"}},
		"content":[{"type":"text","text":"task QQ99ZZ11 done at 2026-12-02T09:00:00.5+01:00, see https://x.test/c?session=BBBB&lang=en (elicitation EL2D5678)"}],
		"structuredContent":{"taskId":"QQ99ZZ11","createdAt":"2026-12-02T09:00:00Z","count":3}}`
	var out []Difference
	diffJSON("", normalize(json.RawMessage(run1), "EL1D1234"), normalize(json.RawMessage(run2), "EL2D5678"), &out, "result")
	if len(out) != 0 {
		t.Errorf("volatile parts counted as differences: %+v", out)
	}
	// The language of the URL and the count are not volatile.
	run3 := strings.NewReplacer("lang=en", "lang=fr", `"count":3`, `"count":4`).Replace(run2)
	out = nil
	diffJSON("", normalize(json.RawMessage(run1), "EL1D1234"), normalize(json.RawMessage(run3), "EL2D5678"), &out, "result")
	var paths []string
	for _, d := range out {
		paths = append(paths, d.Path)
	}
	if strings.Join(paths, " ") != "/content/0/text /structuredContent/count" {
		t.Errorf("differences at %q, want the text and the count: %+v", paths, out)
	}
}

// TestDiffNamedLists: lists of named items (tools) are compared by name.
func TestDiffNamedLists(t *testing.T) {
	a := `[{"name":"add","description":"a"},{"name":"deploy","description":"d"}]`
	b := `[{"name":"add","description":"a"},{"name":"consent","description":"c"},{"name":"deploy","description":"D"}]`
	var out []Difference
	diffJSON("", normalize(json.RawMessage(a)), normalize(json.RawMessage(b)), &out, "result")
	var got []string
	for _, d := range out {
		got = append(got, d.Path+" "+d.Text)
	}
	if strings.Join(got, "; ") != "[name=deploy]/description changed; [name=consent] added" {
		t.Errorf("got %q", got)
	}
}
