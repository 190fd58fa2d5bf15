package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
)

// sumSchema's const is hostile: the validator's message quotes it.
const sumSchema = `{"type":"object","properties":{"sum":{"type":"number"},"k":{"const":"ok\u001b]0;pwn\u0007"}},"required":["sum"],"additionalProperties":false}`

// TestToolOutputSchema: a result's structuredContent is checked against
// its tool's outputSchema; a mismatch is shown above the result in the
// error style with the validator's reasons, a match discreetly.
func TestToolOutputSchema(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		out := json.RawMessage(sumSchema)
		text := func(s string) []wire.ContentBlock { return []wire.ContentBlock{{Type: "text", Text: s}} }
		results := map[string]*wire.CallToolResult{
			"good":   {Content: text("5"), StructuredContent: json.RawMessage(`{"sum": 5}`)},
			"bad":    {Content: text("five"), StructuredContent: json.RawMessage(`{"sum": "five", "k": "no", "extra": 1}`)},
			"none":   {Content: text("no structure")},
			"err":    {IsError: true, Content: text("it broke")},
			"broken": {Content: text("x"), StructuredContent: json.RawMessage(`{"sum": 1}`)},
			"plain":  {Content: text("y"), StructuredContent: json.RawMessage(`{"sum": "anything"}`)},
		}
		tools := []wire.Tool{
			{Name: "good", OutputSchema: out},
			{Name: "bad", OutputSchema: out},
			{Name: "none", OutputSchema: out},
			{Name: "err", OutputSchema: out},
			{Name: "broken", OutputSchema: json.RawMessage(`{"type": 12}`)},
			{Name: "plain"},
		}
		d := newDriver(t, Options{}, withTools(tools...), func(e *fakeEngine) {
			e.callFn = func(_ context.Context, tool string, _ map[string]any, _ func(client.CallProgress)) (*wire.CallToolResult, error) {
				return results[tool], nil
			}
		})
		d.keys(keyF5, keyEnter) // good
		callsDone(d)
		mustShow(t, d, "✓ demo/good", "structuredContent  ✓ matches outputSchema")
		if s := d.screen(); strings.Contains(s, "does not match") {
			t.Fatalf("a match shown as a mismatch:\n%s", s)
		}
		first := d.tools().outputs[[2]string{"demo", "good"}]
		d.keys(key1('a'))
		callsDone(d)
		if o := d.tools().outputs[[2]string{"demo", "good"}]; o != first || o.doc == nil {
			t.Fatalf("the outputSchema was not kept compiled for the tool's next call (%p, %p)", first, o)
		}

		d.keys(keyDown, keyEnter) // bad
		callsDone(d)
		mustShow(t, d, "✗ demo/bad  outputSchema mismatch",
			"✗ structuredContent does not match the tool's outputSchema:",
			"at /k: value must be",
			"at /sum: got string, want number",
			"at the root: additional properties 'extra' not allowed",
			"five") // the result itself is still shown, under the verdict
		s := d.screen()
		if strings.Index(s, "does not match") > strings.Index(s, "five\n") {
			t.Errorf("the mismatch is not above the result:\n%s", s)
		}
		if strings.Contains(s, "✓ matches") {
			t.Errorf("a mismatch also says it matches:\n%s", s)
		}
		st := d.m.st
		if raw := d.m.View().Content; !strings.Contains(raw, st.Error.Render("  at /sum: got string, want number")) {
			t.Errorf("the mismatch is not in the error style:\n%q", raw)
		}
		assertNoHostile(t, d.m.View().Content)

		d.keys(keyDown, keyEnter) // none
		callsDone(d)
		mustShow(t, d, "✗ demo/none  outputSchema mismatch", "✗ no structuredContent, though the tool declares an outputSchema")

		d.keys(keyDown, keyEnter) // err: an isError result need not conform
		callsDone(d)
		s = d.screen()
		if i := strings.Index(s, "the tool reported an error (isError)"); i < 0 || strings.Contains(s[i:], "structuredContent") {
			t.Fatalf("isError result judged against the outputSchema:\n%s", s)
		}

		d.keys(keyDown, keyEnter) // broken schema
		callsDone(d)
		mustShow(t, d, "✓ demo/broken", "⚠ outputSchema cannot be compiled, so structuredContent is not checked")

		d.keys(keyDown, keyEnter) // no outputSchema: nothing said
		callsDone(d)
		if s := d.screen(); strings.Contains(s, "matches outputSchema") || strings.Contains(s, "not match") ||
			!strings.Contains(s, "✓ demo/plain") || !strings.Contains(s, `"sum": "anything"`) {
			t.Fatalf("a tool without outputSchema was judged:\n%s", s)
		}

		// The reader shows the verdict with the result.
		d.keys(keyTab, keyUp, keyUp, keyUp, keyUp, keyEnter)
		mustShow(t, d, "Result of demo/bad", "at /sum: got string, want number")
	})
}
