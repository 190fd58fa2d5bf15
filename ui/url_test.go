package ui

import (
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
)

func TestInspectURLWarnings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url, serverHost string
		want            []string // substrings of warnings, in any order
		ok              bool
	}{
		{"https://auth.example.com/x", "example.com", nil, true},
		{"http://example.com/", "example.com", []string{"not https"}, true},
		{"https://xn--pple-43d.com/login", "example.com", []string{"punycode", "differs"}, true},
		{"https://example.com@evil.com/", "evil.com", []string{"user name"}, true},
		{"https://other.org/", "", []string{"runs locally"}, true},
		{"not a url", "", []string{"not a valid"}, false},
	} {
		info := inspectURL(tc.url, tc.serverHost)
		if info.ok != tc.ok {
			t.Errorf("%s: ok = %v", tc.url, info.ok)
		}
		all := strings.Join(info.warnings, "|")
		for _, w := range tc.want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: warnings %q lack %q", tc.url, all, w)
			}
		}
		if tc.want == nil && len(info.warnings) > 0 {
			t.Errorf("%s: unexpected warnings %q", tc.url, all)
		}
		if tc.ok && info.before+info.host+info.after != tc.url {
			t.Errorf("%s: split %q|%q|%q does not rebuild the URL", tc.url, info.before, info.host, info.after)
		}
	}
}

func TestURLPromptOpensOnlyOnKeyAndAcceptIsConsent(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var opened []string
		d := newDriver(t, Options{OpenURL: func(u string) error {
			mu.Lock()
			defer mu.Unlock()
			opened = append(opened, u)
			return nil
		}})
		p := &question.Question{Key: reqKey("demo", 5), Server: "demo", Mode: question.ModeURL,
			Message: "Sign in", URL: "http://xn--e1afmkfd.example/login?x=1", Arrived: time.Now()}
		d.open(p)
		s := d.screen()
		for _, want := range []string{"Sign in", "http://xn--e1afmkfd.example/login?x=1", "not https", "punycode", "o open", "c copy"} {
			if !strings.Contains(s, want) {
				t.Errorf("URL pane lacks %q:\n%s", want, s)
			}
		}
		mu.Lock()
		if len(opened) != 0 {
			t.Fatalf("opened %v before any key", opened)
		}
		mu.Unlock()
		d.keys(key1('c'))
		if !strings.Contains(d.screen(), "copied") {
			t.Error("c did not copy")
		}
		d.keys(key1('o'))
		mu.Lock()
		if len(opened) != 1 || opened[0] != p.URL {
			t.Fatalf("opened %v, want the URL once", opened)
		}
		mu.Unlock()
		d.noReply(p.Key)
		d.keys(keyEnter)
		if got := d.reply(p.Key); got.Kind != question.Accept || got.Content != nil {
			t.Fatalf("reply %+v, want accept without content", got)
		}
	})
}

func TestBridgePromptLifecycle(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		br := d.m.bridge
		p := formPrompt(t, "demo", 3, "q", nameSchema)
		ctx, cancel := contextWithCause()
		done := make(chan question.Outcome, 1)
		go func() { done <- br.Prompt(ctx, p) }()
		d.waitInbox() // promptOpenedMsg
		if len(d.m.prompts.panes) != 1 {
			t.Fatalf("panes = %d, want 1", len(d.m.prompts.panes))
		}
		cancel(question.ErrWithdrawn)
		<-done
		d.waitInbox() // promptClosedMsg
		if s := d.screen(); !strings.Contains(s, "withdrawn by demo") {
			t.Fatalf("no withdrawal notice:\n%s", s)
		}
	})
}

// TestBridgeCoalescesStreams runs in a synctest bubble: the coalescing
// timer and the wait for more messages after the first run on the
// bubble's clock, so what a burst brings is all in when the count is
// taken.
func TestBridgeCoalescesStreams(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testBridgeCoalescesStreams)
}

func testBridgeCoalescesStreams(t *testing.T) {
	br := NewBridge(BridgeOptions{TrafficSize: 100, Coalesce: 20 * time.Millisecond})
	defer br.Close()
	got := make(chan tea.Msg, 100)
	br.Attach(func(m tea.Msg) { got <- m })
	for i := range 1000 {
		br.Frame("s", client.Frame{Time: time.Now(), Raw: []byte(`{"jsonrpc":"2.0","method":"m","id":` + itoa(i) + `}`)})
	}
	select {
	case m := <-got:
		if _, ok := m.(streamsChangedMsg); !ok {
			t.Fatalf("got %T, want streamsChangedMsg", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no streamsChangedMsg")
	}
	// 1000 writes within one period give far fewer than 1000 messages:
	// none in the next two periods.
	time.Sleep(50 * time.Millisecond) // the bubble's clock: a window in which no more may come
	synctest.Wait()
	if n := len(got); n > 10 {
		t.Errorf("%d extra messages for one burst", n)
	}
	rows, total := br.streams.trafficWindow(TrafficFilter{}, 0, 5)
	if total != 100 || len(rows) != 5 || rows[4].ID != "999" || rows[0].ID != "995" || rows[4].Kind != "request" {
		t.Fatalf("window = %d rows (total %d), last %+v", len(rows), total, rows[len(rows)-1])
	}
}

// A URL question from an ACP agent says an agent asks, not a server.
func TestURLPaneNamesWhoAsks(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		for _, tc := range []struct {
			delivery question.Delivery
			want     string
		}{
			{question.ServerRequest, "This server asks you to open a page"},
			{question.AgentRequest, "This agent asks you to open a page"},
		} {
			d := newDriver(t, Options{})
			key := question.Key{Server: "peer", Delivery: tc.delivery, RequestID: reqKey("peer", 3).RequestID}
			d.open(&question.Question{Key: key, Server: "peer", Mode: question.ModeURL,
				Message: "Sign in", URL: "https://example.com/login", Arrived: time.Now()})
			if s := d.screen(); !strings.Contains(s, tc.want) {
				t.Errorf("delivery %v: the pane lacks %q:\n%s", tc.delivery, tc.want, s)
			}
		}
	})
}
