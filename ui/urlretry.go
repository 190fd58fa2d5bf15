package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client/question"
)

// The "done, retry" of a URL elicitation required (-32042): the person
// accepted, went to the page, and says when they are done; the engine
// then sends the refused request again (client.Session.CompleteElicitation).
// Servers such as server-everything never send
// notifications/elicitation/complete, so without this key the request
// would wait until the call is cancelled.

// urlDoneMsg reports the engine's answer to the person's "done".
type urlDoneMsg struct {
	id  int
	err error
}

func (urlDoneMsg) screenMsg() {}

var _ updater = (*promptsView)(nil)

// awaitsURLDone says whether pn is an accepted -32042 elicitation whose
// completion the engine still waits for.
func awaitsURLDone(pn *pane) bool {
	return pn.state == paneAnswered && pn.p.Key.Delivery == question.URLRequired &&
		pn.sent == question.Accept && !pn.doneSaid
}

// urlWaitText is the answered pane's notice while the engine waits.
const urlWaitText = "accepted. Finish in the browser, then press r: the request is sent again (nothing is sent before)."

// urlDoneKey handles a key of an answered pane; it reports whether it
// took it.
func urlDoneKey(c *viewCtx, pn *pane, k tea.KeyPressMsg) (tea.Cmd, bool) {
	if !awaitsURLDone(pn) || !key.Matches(k, c.keys.URLDone) {
		return nil, false
	}
	pn.doneSaid = true
	pn.notice = "done: sending the request again…"
	eng, id, qk := c.engine, pn.id, pn.p.Key
	return func() tea.Msg { return urlDoneMsg{id: id, err: eng.CompleteElicitation(qk)} }, true
}

// update takes the answer to a "done"; the verdict itself comes as the
// prompt's PromptResolved once the retry went out.
func (p *promptsView) update(_ *viewCtx, msg tea.Msg) tea.Cmd {
	m, ok := msg.(urlDoneMsg)
	if !ok {
		return nil
	}
	pn := p.byID[m.id]
	if pn == nil || pn.state != paneAnswered || m.err == nil {
		return nil
	}
	// The wait may have ended meanwhile (the call cancelled, the server's
	// own completion notice): the engine's verdict follows.
	pn.notice = "could not say done: " + errText(m.err)
	return nil
}
