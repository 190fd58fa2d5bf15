package ui

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// urlRequiredPrompt is one URL elicitation of a -32042 answer to call 7.
func urlRequiredPrompt(server, id string) *question.Question {
	return &question.Question{
		Key:    question.Key{Server: server, Delivery: question.URLRequired, CallID: jsonrpc.IntID(7), Input: id},
		Server: server, Mode: question.ModeURL, Message: "Authorize first",
		URL: "https://example.com/auth", Arrived: time.Now(),
	}
}

func TestURLRequiredDoneKeyCompletesTheElicitation(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		p := urlRequiredPrompt("demo", "e-1")
		d.open(p)
		d.keys(key1('r')) // not yet accepted: r is nothing
		if got := d.eng.completedKeys(); len(got) != 0 {
			t.Fatalf("r before accepting completed %v", got)
		}
		d.keys(keyEnter)
		if got := d.reply(p.Key); got.Kind != question.Accept {
			t.Fatalf("reply %v, want accept", got.Kind)
		}
		s := d.screen()
		if !strings.Contains(s, "press r") || !strings.Contains(s, "r done, send it again") {
			t.Fatalf("an accepted -32042 pane does not say its key:\n%s", s)
		}
		d.keys(key1('r'))
		if got := d.eng.completedKeys(); len(got) != 1 || got[0] != p.Key {
			t.Fatalf("completed %v, want [%v]", got, p.Key)
		}
		if s := d.screen(); !strings.Contains(s, "sending the request again") || strings.Contains(s, "r done, send it again") {
			t.Fatalf("after r the pane should say it is retrying, without the key:\n%s", s)
		}
		d.keys(key1('r')) // said once
		if got := d.eng.completedKeys(); len(got) != 1 {
			t.Fatalf("a second r completed again: %v", got)
		}
		e := question.JournalEntry{Key: p.Key, Server: "demo", Kind: question.Accept, Sent: "retry"}
		d.send(eventMsg{e: client.PromptResolved{Key: p.Key, Entry: e, Sent: "retry"}})
		if s := d.screen(); !strings.Contains(s, "accept (sent retry)") {
			t.Fatalf("the verdict is not shown:\n%s", s)
		}
	})
}

func TestURLRequiredDoneKeyOnlyForAcceptedURLRequired(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		// Declined: nothing will be retried, so r says nothing.
		p := urlRequiredPrompt("demo", "e-2")
		d.open(p)
		d.keys(keyCtrlX)
		d.reply(p.Key)
		d.keys(key1('r'))
		// A plain URL elicitation (a server request) has no retry to start.
		q := &question.Question{Key: reqKey("demo", 9), Server: "demo", Mode: question.ModeURL,
			Message: "Sign in", URL: "https://example.com/", Arrived: time.Now()}
		d.open(q)
		d.keys(keyEnter)
		d.reply(q.Key)
		if s := d.screen(); strings.Contains(s, "r done") {
			t.Fatalf("a plain URL elicitation offers the -32042 retry:\n%s", s)
		}
		d.keys(key1('r'))
		if got := d.eng.completedKeys(); len(got) != 0 {
			t.Fatalf("completed %v, want none", got)
		}
	})
}

func TestURLRequiredDoneKeyShowsTheEngineError(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, func(f *fakeEngine) { f.completeErr = errors.New("no URL elicitation awaits completion") })
		p := urlRequiredPrompt("demo", "e-3")
		d.open(p)
		d.keys(keyEnter)
		d.reply(p.Key)
		d.keys(key1('r'))
		if s := d.screen(); !strings.Contains(s, "could not say done: no URL elicitation awaits") {
			t.Fatalf("the engine's refusal is not shown:\n%s", s)
		}
	})
}
