package question_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/google/go-cmp/cmp"
)

func formPrompt(t *testing.T, message, tool, raw string) *question.Question {
	t.Helper()
	s, err := schema.Parse(json.RawMessage(raw), schema.Subset2025_11_25)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	p := &question.Question{Mode: question.ModeForm, Message: message, Schema: s, RawSchema: json.RawMessage(raw)}
	if tool != "" {
		p.Origin = question.Origin{Kind: question.OriginToolCall, Name: tool}
	}
	return p
}

const deploySchema = `{"type":"object","properties":{
	"env":{"type":"string","default":"staging"},
	"replicas":{"type":"integer","default":2},
	"priority":{"type":"string","enum":["low","high"]}},
	"required":["env"]}`

func TestPolicies(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := formPrompt(t, "Deploy?", "deploy", deploySchema)
	got := question.AcceptDefaults.Prompt(ctx, p)
	if want := (question.Outcome{Kind: question.Accept, Content: map[string]any{"env": "staging", "replicas": int64(2)}}); !cmp.Equal(got, want) {
		t.Errorf("AcceptDefaults = %+v, want %+v", got, want)
	}
	req := formPrompt(t, "Name?", "", `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)
	if got := question.AcceptDefaults.Prompt(ctx, req); got.Kind != question.Accept || got.Content["name"] != "x" ||
		got.Reason != "required without default, placeholder sent: name" {
		t.Errorf("AcceptDefaults on a required field = %+v", got)
	}
	// Every kind of required field without a default gets a value that
	// passes the schema, or the form is declined.
	all := formPrompt(t, "All?", "", `{"type":"object","properties":{
		"s":{"type":"string","minLength":3},"e":{"type":"string","format":"email"},"u":{"type":"string","format":"uri"},
		"d":{"type":"string","format":"date"},"dt":{"type":"string","format":"date-time"},
		"i":{"type":"integer","minimum":3,"maximum":9},"n":{"type":"number","maximum":-1},"b":{"type":"boolean"},
		"one":{"type":"string","enum":["a","b"]},"many":{"type":"array","minItems":2,"items":{"type":"string","enum":["a","b","c"]}}},
		"required":["s","e","u","d","dt","i","n","b","one","many"]}`)
	got = question.AcceptDefaults.Prompt(ctx, all)
	if got.Kind != question.Accept {
		t.Fatalf("AcceptDefaults on every kind = %+v", got)
	}
	if err := all.Schema.Validate(got.Content); err != nil {
		t.Errorf("placeholders do not validate: %v (%v)", err, got.Content)
	}
	pat := formPrompt(t, "Code?", "", `{"type":"object","properties":{"code":{"type":"string","pattern":"^[0-9]{4}$"}},"required":["code"]}`)
	if got := question.AcceptDefaults.Prompt(ctx, pat); got.Kind != question.Decline || !strings.Contains(got.Reason, "code") {
		t.Errorf("AcceptDefaults with an unsatisfiable placeholder = %+v", got)
	}
	url := &question.Question{Mode: question.ModeURL, URL: "https://example.com"}
	if got := question.AcceptDefaults.Prompt(ctx, url); got.Kind != question.Cancel || got.Reason != "URL mode needs a person" {
		t.Errorf("AcceptDefaults on URL mode = %+v", got)
	}
	if got := question.DeclineAll.Prompt(ctx, p); got.Kind != question.Decline {
		t.Errorf("DeclineAll = %+v", got)
	}
	if got := question.CancelAll.Prompt(ctx, p); got.Kind != question.Cancel {
		t.Errorf("CancelAll = %+v", got)
	}
	if question.AcceptDefaults.String() != "accept-defaults" {
		t.Errorf("String %q", question.AcceptDefaults.String())
	}
}

func writeFile(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestAnswerFile(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	for _, tc := range []struct {
		name, file, message, tool string
		want                      map[string]any
	}{
		{"flat over defaults", `{"replicas":5,"unrelated":true}`, "Deploy?", "deploy",
			map[string]any{"env": "staging", "replicas": 5.0}},
		{"per tool", `{"fields":{"env":"prod"},"tools":{"deploy":{"replicas":3},"other":{"replicas":9}}}`, "Deploy?", "deploy",
			map[string]any{"env": "prod", "replicas": 3.0}},
		{"tool entry skipped for another tool", `{"tools":{"other":{"replicas":9}}}`, "Deploy?", "deploy",
			map[string]any{"env": "staging", "replicas": int64(2)}},
		{"per message substring", `{"tools":{"deploy":{"priority":"low"}},"messages":{"Priority":{"priority":"high"},"nothing":{"env":"x"}}}`, "Pick a Priority", "deploy",
			map[string]any{"env": "staging", "replicas": int64(2), "priority": "high"}},
		{"a field named tools is flat", `{"tools":"hammer","env":"prod"}`, "Deploy?", "",
			map[string]any{"env": "prod", "replicas": int64(2)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, err := question.AnswerFile(writeFile(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			got := a.Prompt(ctx, formPrompt(t, tc.message, tc.tool, deploySchema))
			if got.Kind != question.Accept || !cmp.Equal(got.Content, tc.want) {
				t.Errorf("got %+v, want accept %v", got, tc.want)
			}
			p := formPrompt(t, tc.message, tc.tool, deploySchema)
			if err := p.Schema.Validate(got.Content); err != nil {
				t.Errorf("answer does not validate: %v", err)
			}
		})
	}
	t.Run("required without answer gets a placeholder", func(t *testing.T) {
		t.Parallel()
		a, err := question.ParseAnswers([]byte(`{"other":1}`))
		if err != nil {
			t.Fatal(err)
		}
		got := a.Prompt(ctx, formPrompt(t, "Name?", "", `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`))
		if got.Kind != question.Accept || got.Content["name"] != "x" || !strings.Contains(got.Reason, "name") {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("bad files", func(t *testing.T) {
		t.Parallel()
		if _, err := question.AnswerFile(filepath.Join(t.TempDir(), "missing.json")); err == nil {
			t.Error("missing file accepted")
		}
		for _, body := range []string{``, `[1]`, `{"a":`, `"x"`, `{"tools":{"deploy":3}}`, `{"fields":{"a":1},"messages":{"m":[1]}}`} {
			if _, err := question.AnswerFile(writeFile(t, body)); err == nil {
				t.Errorf("accepted %q", body)
			}
		}
	})
}

// TestAnswersUnused: entries of an answer file that filled no field of any
// question are named as a person finds them in the file, flat or
// structured.
func TestAnswersUnused(t *testing.T) {
	t.Parallel()
	var cache question.SchemaCache
	q := &question.Question{Message: "Priority for ticket 'x'?", Origin: question.Origin{Kind: question.OriginToolCall, Name: "create_ticket"}}
	perr := question.Parse(q, []byte(`{"message":"m","requestedSchema":{"type":"object","properties":{"priority":{"type":"string","enum":["P1","P2","P3"]}}}}`),
		question.Modes{Form: true}, schema.Subset2025_11_25, &cache)
	if perr != nil {
		t.Fatal(perr)
	}
	q.Message = "Priority for ticket 'x'?"
	for _, tc := range []struct {
		file string
		want []string
	}{
		{`{"priorty":"P1","priority":"P2"}`, []string{"priorty"}},
		{`{"fields":{"priority":"P1"},"tools":{"create_ticket":{"prio":"P1"},"deploy":{"env":"x"}},"messages":{"Priority":{"priority":"P2"},"Branch":{"branch":"main"}}}`,
			[]string{`messages["Branch"].branch`, "tools.create_ticket.prio", "tools.deploy.env"}},
	} {
		a, err := question.ParseAnswers([]byte(tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if got := a.Prompt(t.Context(), q); got.Kind != question.Accept {
			t.Fatalf("%s: %+v", tc.file, got)
		}
		if got := a.Unused(); !cmp.Equal(got, tc.want) {
			t.Errorf("%s: unused %q, want %q", tc.file, got, tc.want)
		}
	}
}

// TestMerge: field values overlay the schema's defaults; names that are
// no field of the form are left out and reported.
func TestMerge(t *testing.T) {
	q := formPrompt(t, "deploy", "", deploySchema)
	got, unknown := question.Merge(q, map[string]any{"replicas": 5, "colour": "red", "Env": "x"})
	want := map[string]any{"env": "staging", "replicas": 5}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Env", "colour"}, unknown); diff != "" {
		t.Errorf("unknown (-want +got):\n%s", diff)
	}
}
