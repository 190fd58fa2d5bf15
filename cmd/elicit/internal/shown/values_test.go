package shown

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/redact"
	"github.com/elicit-dev/elicit/ui"
)

// echoAPIKey is a secret of the run that a server or agent echoes.
const echoAPIKey = "api-key-value-abcdef"

// noneOf fails for each secret found in any of the texts.
func noneOf(t *testing.T, secrets []string, texts map[string]string) {
	t.Helper()
	for name, text := range texts {
		var found []string
		for _, s := range secrets {
			if strings.Contains(text, s) && !slices.Contains(found, s) {
				found = append(found, s)
			}
		}
		if len(found) > 0 {
			t.Errorf("%s holds the secrets %q:\n%s", name, found, text)
		}
	}
}

// A question whose message echoes a secret reaches the person masked;
// the engine's question is left as it came.
func TestShownPrompterMasksTheMessage(t *testing.T) {
	sec := redact.NewSecrets()
	sec.Add(echoAPIKey)
	q := &question.Question{Key: question.Key{Server: "s"}, Message: "confirm key " + echoAPIKey + "?"}
	var seen *question.Question
	p := Prompter{Secrets: sec, Next: question.PrompterFunc(func(_ context.Context, q *question.Question) question.Outcome {
		seen = q
		return question.Outcome{Kind: question.Decline}
	})}
	if o := p.Prompt(t.Context(), q); o.Kind != question.Decline {
		t.Errorf("outcome %v", o)
	}
	if seen.Message != "confirm key [redacted]?" || seen.Key != q.Key {
		t.Errorf("shown %+v", seen)
	}
	if !strings.Contains(q.Message, echoAPIKey) {
		t.Errorf("the engine's question was changed: %q", q.Message)
	}
}

// An agent's update that prints a secret reaches the TUI masked, in each
// part the agent view shows.
func TestShownUpdateMasks(t *testing.T) {
	sec := redact.NewSecrets()
	sec.Add(echoAPIKey)
	u := Update(sec, ui.AgentUpdate{Text: "key " + echoAPIKey, Raw: []byte(`{"k":"` + echoAPIKey + `"}`),
		Tool: &ui.AgentToolCall{Title: "env " + echoAPIKey, RawOutput: []byte(echoAPIKey)},
		Plan: []ui.AgentPlanEntry{{Content: "use " + echoAPIKey}}})
	text := fmt.Sprintf("%s %s %s %s %s", u.Text, u.Raw, u.Tool.Title, u.Tool.RawOutput, u.Plan[0].Content)
	noneOf(t, []string{echoAPIKey}, map[string]string{"the update": text})
	if !strings.Contains(text, "[redacted]") {
		t.Errorf("nothing masked: %s", text)
	}
}
