package ui

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/elicit-dev/elicit/client"
)

func TestLogLevelPickerSendsSetLevel(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, twoServers, allLog)
		d.keys(keyF8, key1('l'))
		if d.logs().picking != "" || !strings.Contains(d.m.notice, "pick a server first") {
			t.Fatalf("l with all servers shown: picking %v, notice %q", d.logs().picking, d.m.notice)
		}
		d.keys(key1('s'), key1('s'), key1('l')) // server two
		mustShow(t, d, "log level for two", "› debug", "emergency")

		// Esc closes the picker without sending anything.
		d.keys(keyEsc)
		if d.logs().picking != "" || len(d.eng.levels) != 0 {
			t.Fatalf("Esc: picking %v, levels %v", d.logs().picking, d.eng.levels)
		}

		d.keys(key1('l'), keyDown, keyDown, key1('j'), keyEnter) // debug → info → notice → warning
		if want := []string{"two=warning"}; !cmp.Equal(d.eng.levels, want) {
			t.Fatalf("SetLogLevel calls = %v, want %v", d.eng.levels, want)
		}
		if d.m.notice != "two log level set to warning" {
			t.Fatalf("notice = %q", d.m.notice)
		}

		// A refusal is reported.
		d.eng.mu.Lock()
		d.eng.levelErr = errors.New("method not found")
		d.eng.mu.Unlock()
		d.keys(key1('l'), keyEnter)
		if !strings.Contains(d.m.notice, "logging/setLevel warning on two: method not found") {
			t.Fatalf("notice = %q", d.m.notice)
		}
	})
}

func TestLogViewShowsMessagesAndStderrPerServer(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, twoServers)
		br := d.m.bridge
		br.Event(client.LogMessage{Server: "demo", Level: "error", Logger: "db", Data: json.RawMessage(`"disk full"`), Time: time.Now()})
		br.Stderr("two", "panic: "+hostile)
		d.waitInbox()
		d.keys(keyF8)
		mustShow(t, d, "Logs: 2 lines (all servers)", "demo   error", "db: disk full", "two    stderr", "panic: pay")
		assertNoHostile(t, d.m.View().Content)
		if strings.Contains(d.screen(), `"disk full"`) {
			t.Error("a JSON string message is shown quoted")
		}
		d.keys(key1('s'))
		mustShow(t, d, "Logs: 1 line (demo)")
		if strings.Contains(d.screen(), "panic") {
			t.Error("server filter demo shows two's stderr")
		}
	})
}

// TestLogViewSaysWhoseLineEachIs: elicit's own notes are elicit's, never
// the server's, even when the server names its logger "elicit"; the
// reader says the same.
func TestLogViewSaysWhoseLineEachIs(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, twoServers)
		br := d.m.bridge
		br.Event(client.LogMessage{Server: "demo", Level: "notice", Logger: "elicit", Data: json.RawMessage(`"spoofed note"`), Time: time.Now()})
		d.waitInbox()
		d.send(eventMsg{e: client.Notice{Server: "demo", Text: "dropped a late response to server/discover #1", Time: time.Now()}})
		d.keys(keyF8)
		rowOf := func(s, text string) string {
			for l := range strings.SplitSeq(s, "\n") {
				if strings.Contains(l, text) {
					return l
				}
			}
			t.Fatalf("no row with %q:\n%s", text, s)
			return ""
		}
		for _, s := range []string{d.screen(), func() string { d.keys(keyEnter); return d.screen() }()} {
			ours, theirs := strings.Fields(rowOf(s, "dropped a late")), strings.Fields(rowOf(s, "spoofed note"))
			if ours[1] != "elicit" || !strings.Contains(rowOf(s, "dropped a late"), "demo: dropped") {
				t.Errorf("elicit's note is not shown as elicit's, about demo: %q", rowOf(s, "dropped a late"))
			}
			if theirs[1] != "demo" {
				t.Errorf("the server's line is not shown as the server's: %q", rowOf(s, "spoofed note"))
			}
		}
	})
}

// TestLogColumnsAlign: every level (emergency is the longest) and every
// server name keeps the columns where the others are.
func TestLogColumnsAlign(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, twoServers)
		br := d.m.bridge
		for _, lv := range logLevels() {
			br.Event(client.LogMessage{Server: "demo", Level: lv, Data: json.RawMessage(`"text of ` + lv + `"`), Time: time.Now()})
		}
		br.Stderr("two", "text of stderr")
		d.waitInbox()
		d.send(eventMsg{e: client.Notice{Server: "two", Text: "text of ours", Time: time.Now()}})
		d.keys(keyF8)
		col := -1
		n := 0
		for l := range strings.SplitSeq(d.screen(), "\n") {
			i := strings.Index(l, "text of")
			if i < 0 {
				continue
			}
			if j := strings.Index(l, "two: text of"); j >= 0 {
				i = j // elicit's note says which server it is about
			}
			n++
			if col < 0 {
				col = i
			}
			if i != col {
				t.Errorf("text at column %d, want %d: %q", i, col, l)
			}
		}
		if n != len(logLevels())+2 {
			t.Fatalf("%d rows, want %d:\n%s", n, len(logLevels())+2, d.screen())
		}
	})
}

// allLog makes every server of the fake declare logging.
func allLog(e *fakeEngine) {
	for i := range e.servers {
		e.servers[i].Caps.Logging = true
	}
}

// withLogging makes the fake's demo server declare logging.
func withLogging(e *fakeEngine) { e.servers[0].Caps.Logging = true }

// TestLogLevelOneServer: with one server, l sets that server's level (no
// "pick a server first"), and until a level is set the view says that many
// servers log nothing before one is.
func TestLogLevelOneServer(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withLogging)
		d.keys(keyF8)
		mustShow(t, d, "demo: no log level set; many servers log nothing until one is (l)")
		d.keys(key1('l'))
		if d.logs().picking == "" {
			t.Fatalf("l with the one server: not picking; notice %q\n%s", d.m.notice, d.screen())
		}
		mustShow(t, d, "log level for demo")
		d.keys(keyDown, keyEnter)
		if want := []string{"demo=info"}; !cmp.Equal(d.eng.levels, want) {
			t.Fatalf("SetLogLevel calls = %v, want %v", d.eng.levels, want)
		}
		mustShow(t, d, "demo sends log messages from info up (l changes it)")
		if strings.Contains(d.screen(), "no log level set") {
			t.Errorf("the hint stays once a level is set:\n%s", d.screen())
		}
	})
}

// TestLogLevelNoLogging: a server that does not declare logging is said
// to, and is sent no logging/setLevel.
func TestLogLevelNoLogging(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{})
		d.keys(keyF8)
		mustShow(t, d, "demo does not declare logging")
		d.keys(key1('l'))
		if d.logs().picking != "" || !strings.Contains(d.m.notice, "demo does not declare logging") {
			t.Fatalf("l: picking %v, notice %q", d.logs().picking, d.m.notice)
		}
	})
}

// TestLogLevelTheOneThatLogs: with several servers shown, l picks the one
// server that declares logging.
func TestLogLevelTheOneThatLogs(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, twoServers, withLogging)
		d.keys(keyF8, key1('l'))
		mustShow(t, d, "log level for demo")
		d.keys(keyEnter)
		if want := []string{"demo=debug"}; !cmp.Equal(d.eng.levels, want) {
			t.Fatalf("SetLogLevel calls = %v, want %v", d.eng.levels, want)
		}
	})
}
