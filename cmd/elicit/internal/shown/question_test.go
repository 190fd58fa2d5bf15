package shown

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/transport/redact"
)

// A question is shown with the secrets masked in every part a form shows
// (title, description, a name without a title, option labels, a
// default, the URL, a sampling request), and the answer goes back with
// the server's own values: an option's value as sent, a default left as
// shown as the server sent it, what the person typed as typed.
func TestShownQuestionMasksWhatIsShownOnly(t *testing.T) {
	k := echoAPIKey
	sec := redact.NewSecrets()
	sec.Add(k)
	raw := []byte(`{"type":"object","properties":{
		"note":{"type":"string","title":"Note ` + k + `","description":"was ` + k + `","default":"` + k + `"},
		"typed":{"type":"string","default":"` + k + `"},
		"pick":{"type":"string","enum":["` + k + `","other"],"default":"` + k + `"},
		"` + k + `":{"type":"string","default":"x"}}}`)
	sch, err := schema.Parse(raw, schema.Subset2025_11_25)
	if err != nil {
		t.Fatal(err)
	}
	q := &question.Question{Key: question.Key{Server: "s"}, Message: "m " + k, URL: "https://h/x?k=" + k, Schema: sch, RawSchema: raw,
		Sampling:   &question.Sampling{Params: wire.CreateMessageParams{SystemPrompt: "sys " + k}, Raw: []byte(`{"k":"` + k + `"}`)},
		Permission: &question.Permission{ToolCall: []byte(`{"title":"` + k + `"}`), Options: []question.PermissionOption{{ID: "o-" + k, Name: "allow " + k}}}}
	var seen *question.Question
	p := Prompter{Secrets: sec, Next: question.PrompterFunc(func(_ context.Context, q *question.Question) question.Outcome {
		seen = q
		content := q.Schema.Defaults() // the person leaves the defaults…
		content["typed"] = "[redacted] by hand"
		return question.Outcome{Kind: question.Accept, Content: content}
	})}
	o := p.Prompt(t.Context(), q)

	var parts []string
	for _, prop := range seen.Schema.Properties {
		parts = append(parts, prop.Title, prop.Description, string(prop.Raw))
		if len(prop.Options) == 0 { // a choice's default selects an option, shown by its label
			parts = append(parts, fmt.Sprint(prop.Default))
		}
		for _, opt := range prop.Options {
			parts = append(parts, opt.Label)
		}
	}
	parts = append(parts, seen.Message, seen.URL, string(seen.RawSchema), seen.Sampling.Params.SystemPrompt, string(seen.Sampling.Raw),
		string(seen.Permission.ToolCall), seen.Permission.Options[0].Name)
	if seen.Permission.Options[0].ID != "o-"+k {
		t.Errorf("a permission option's id was changed: %+v", seen.Permission.Options[0])
	}
	noneOf(t, []string{k}, map[string]string{"the shown question": strings.Join(parts, "\n")})
	if got := seen.Schema.Property(k); got == nil || got.Title != "[redacted]" {
		t.Errorf("the field named by a secret: %+v", got)
	}
	if got := seen.Schema.Property("pick").Options[0]; got.Value != k || got.Label != "[redacted]" {
		t.Errorf("an option is shown as %+v: its value must stay the server's, its label masked", got)
	}
	want := map[string]any{"note": k, "pick": k, "typed": "[redacted] by hand", k: "x"}
	if fmt.Sprint(o.Content) != fmt.Sprint(want) {
		t.Errorf("the answer sent back is %v, want %v", o.Content, want)
	}
	if q.Message != "m "+k || q.Schema != sch || q.Schema.Property("note").Title != "Note "+k {
		t.Errorf("the engine's question was changed: %+v", q)
	}
}
