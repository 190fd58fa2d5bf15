package ui

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
)

// hostile carries an OSC 52 clipboard write, a CSI colour and screen
// clear, an OSC 8 link and a title change.
const hostile = "pay\x1b]52;c;ZXZpbA==\x07 now\x1b[31m\x1b[2J \x1b]8;;http://evil\x1b\\x\x1b]8;;\x1b\\ \x1b]0;title\x07"

func assertNoHostile(t *testing.T, view string) {
	t.Helper()
	for _, bad := range []string{"\x1b]52", "\x1b[2J", "\x1b]8;;http://evil", "\x1b]0;", "ZXZpbA==\x07"} {
		if strings.Contains(view, bad) {
			t.Errorf("view contains raw %q from the server", bad)
		}
	}
}

func TestServerTextNeverReachesViewRaw(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		// Form prompt: message, server name, titles and request id are hostile.
		p := formPrompt(t, "demo"+hostile, 1, hostile,
			`{"type":"object","properties":{"a":{"type":"string","title":"T\u001b]52;c;eA==\u0007","description":"D\u001b[2J"}}}`)
		p.Origin.Name = hostile
		d.open(p)
		assertNoHostile(t, d.m.View().Content)

		// URL prompt with a hostile message and URL.
		u := &question.Question{Key: reqKey("demo", 2), Server: "demo", Mode: question.ModeURL, Message: hostile,
			URL: "https://ex.com/\x1b]52;c;eA==\x07", Arrived: time.Now()}
		d.open(u)
		d.keys(keyF2)
		assertNoHostile(t, d.m.View().Content)

		// Withdrawal reason, traffic, logs, tools and results.
		d.send(eventMsg{e: client.PromptResolved{Key: u.Key, Entry: question.JournalEntry{Kind: question.Withdrawn, Reason: hostile}}})
		assertNoHostile(t, d.m.View().Content)
		d.m.bridge.Stderr("demo", hostile)
		d.m.bridge.Frame("demo", client.Frame{Time: time.Now(), Dir: client.In,
			Raw: []byte(`{"jsonrpc":"2.0","id":"` + strings.ReplaceAll(hostile, "\x1b", `\u001b`) + `","method":"x\u001b]52;c;eA==\u0007"}`)})
		d.waitInbox() // one coalesced streamsChangedMsg for both writes
		d.send(keyF6)
		assertNoHostile(t, d.m.View().Content)
		d.keys(keyEnter) // frame detail, pretty-printed
		assertNoHostile(t, d.m.View().Content)
		d.send(keyF8)
		assertNoHostile(t, d.m.View().Content)
		d.send(eventMsg{e: client.ServerStateChanged{Server: "demo", State: client.StateFailed, Err: errString(hostile)}})
		assertNoHostile(t, d.m.View().Content)
		res := &wire.CallToolResult{IsError: true, Content: []wire.ContentBlock{{Type: "text", Text: hostile},
			wire.NewBlock("resource_link", wire.BlockDetails{URI: hostile, Name: hostile})}, StructuredContent: []byte(`{"k":"\u001b]52;c;eA==\u0007"}`)}
		assertNoHostile(t, renderResult(d.m.st, res, 80))
	})
}

type errString string

func (e errString) Error() string { return string(e) }
