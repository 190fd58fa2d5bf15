package agents

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/transport/redact"
	"github.com/elicit-dev/elicit/ui"
)

// What an agent says of itself (its agentInfo) reaches the agent view
// with the run's secrets masked: the demo agent's name stands in for a
// secret it echoes.
func TestAgentStatusMasked(t *testing.T) {
	br := ui.NewBridge(ui.BridgeOptions{})
	changed := make(chan struct{}, 1)
	br.Attach(func(tea.Msg) { // lane 2 waits for a UI to take its messages
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	defer br.Close()
	tap := newAgentTap(t)
	sec := redact.NewSecrets()
	sec.Add("elicit-demo-agent")
	h, err := NewHub(br, question.NewJournal(0), []serverspec.Agent{tap.spec(t, "demo")}, HubOptions{Secrets: sec})
	if err != nil {
		t.Fatal(err)
	}
	h.Start(t.Context())
	defer h.Close()
	timeout := time.After(20 * time.Second)
	for h.Agents()[0].SessionID == "" { // the session is up: agentInfo came
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("no session: %+v", h.Agents()[0])
		}
	}
	if a := h.Agents()[0]; a.Info.Name != "[redacted]" {
		t.Errorf("the agent's info is shown as %+v", a.Info)
	}
}
