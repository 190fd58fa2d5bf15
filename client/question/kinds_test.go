package question

import (
	"encoding/json"
	"testing"
)

// TestKindsRegistered: every kind has a whole descriptor, a name of its
// own, and an MCP method that finds it again; a kind added without one
// fails here rather than falling back to elicitation's.
func TestKindsRegistered(t *testing.T) {
	t.Parallel()
	names := map[string]Kind{}
	for _, k := range Kinds() {
		s := kindSpecs[k]
		if s.name == "" || s.declared == nil || s.parse == nil || s.judge == nil || s.reply == nil {
			t.Errorf("kind %d: descriptor incomplete: %+v", k, s)
			continue
		}
		if o, dup := names[s.name]; dup {
			t.Errorf("kinds %d and %d are both %q", o, k, s.name)
		}
		names[s.name] = k
		if s.unrouted.Kind != Cancel && s.unrouted.Kind != Decline || s.unrouted.Reason == "" {
			t.Errorf("%s: a Route without its policy answers %+v, want a cancel or decline saying why", k, s.unrouted)
		}
		if s.method == "" {
			continue
		}
		if got, ok := KindFor(s.method); !ok || got != k {
			t.Errorf("%s: KindFor(%q) = %v, %v", k, s.method, got, ok)
		}
	}
	if _, ok := KindFor("roots/list"); ok {
		t.Error("roots/list, which no person answers, has a kind")
	}
}

// TestParseAsSetsKind: each kind's parse reads its own params and keeps
// the kind, even when it refuses them.
func TestParseAsSetsKind(t *testing.T) {
	t.Parallel()
	env := Env{Modes: Modes{Form: true}, Sampling: SamplingModes{On: true}, Schemas: &SchemaCache{}}
	for _, tc := range []struct {
		kind   Kind
		params string
	}{
		{KindElicitation, `{"message":"m","requestedSchema":{"type":"object","properties":{}}}`},
		{KindSampling, `{"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],"maxTokens":5}`},
		{KindPermission, `{"sessionId":"s","toolCall":{"toolCallId":"t"},"options":[{"optionId":"a","name":"A","kind":"allow_once"}]}`},
	} {
		q := &Question{Kind: tc.kind}
		if perr := ParseAs(q, json.RawMessage(tc.params), env); perr != nil || q.Kind != tc.kind {
			t.Errorf("%s: %v, kind now %s", tc.kind, perr, q.Kind)
		}
		q = &Question{Kind: tc.kind}
		if perr := ParseAs(q, json.RawMessage(`[]`), env); perr == nil || q.Kind != tc.kind {
			t.Errorf("%s: [] accepted (%v), kind now %s", tc.kind, perr, q.Kind)
		}
	}
}
