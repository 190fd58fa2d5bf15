package ui

import (
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/forms"
)

// The TUI's side of a question kind: the pane it opens and how a form's
// content answers it. The engine's side is the kind's descriptor in
// client/question (kinds.go); a new kind adds its form and one line to
// paneKinds.

// paneKind is how the TUI asks a question of one kind.
type paneKind struct {
	// open fills pn for its question: a form (pn.form), a URL card
	// (pn.url) or a choice of options (pn.perm).
	open func(m *Model, pn *pane)
	// accept is the Accept a submitted form sends.
	accept func(q *question.Question, content map[string]any) question.Outcome
	// media: the pane shows media the save key writes to files
	// (sampling_save.go).
	media bool
	// tag marks the kind's entries in the journal's list ("" for none:
	// elicitation is the default); byBucket shows their bucket there too
	// (journal_acp.go).
	tag      string
	byBucket bool
}

// paneKinds is the TUI's registry, indexed by question.Kind: one line per
// kind. It is built from literals and never written.
var paneKinds = [...]paneKind{
	question.KindElicitation: {open: openElicitation, accept: acceptContent},
	question.KindSampling:    {open: openSampling, accept: acceptSample, media: true, tag: "sampling"},
	question.KindPermission:  {open: openPermission, accept: acceptContent, tag: "permission", byBucket: true},
}

// paneKindOf is k's entry; an unknown kind is shown as an elicitation.
func paneKindOf(k question.Kind) *paneKind {
	if k >= 0 && int(k) < len(paneKinds) {
		return &paneKinds[k]
	}
	return &paneKinds[question.KindElicitation]
}

// openElicitation opens a URL card in URL mode, else the form, which
// shows the server's message above its fields, sanitized.
func openElicitation(m *Model, pn *pane) {
	p := pn.p
	if p.Mode == question.ModeURL {
		pn.url = inspectURL(p.URL, m.serverHost(p.Server))
		return
	}
	pn.form = forms.New(p.Schema, forms.Options{Message: p.Message, Theme: m.theme.Form})
}

// openPermission opens the choice of the request's options (with the
// agent's tool call, when seen); a request without options (which the
// engine refuses before it comes here) gets an empty form.
func openPermission(m *Model, pn *pane) {
	p := pn.p
	if p.Permission != nil && len(p.Permission.Options) > 0 {
		pn.perm = newPermChoice(p, m.agentLogs.tool(p.Server, p.Origin.ToolCallID))
		return
	}
	pn.form = forms.New(p.Schema, forms.Options{Message: p.Message, Theme: m.theme.Form})
}

// openSampling opens the request read-only above the reply's fields
// (sampling.go).
func openSampling(m *Model, pn *pane) {
	pn.form = samplingForm(pn.p, m.keys.SaveMedia.Help().Key, m.theme.Form)
}

// acceptContent is a form's content as the Accept.
func acceptContent(_ *question.Question, content map[string]any) question.Outcome {
	return question.Outcome{Kind: question.Accept, Content: content}
}
