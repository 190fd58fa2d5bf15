package ui

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/elicit-dev/elicit/client"
)

func TestLogLevelPickerSendsSetLevel(t *testing.T) {
	t.Parallel()
	d := newDriver(t, Options{}, twoServers)
	d.keys(keyF8, key1('l'))
	if d.logs().picking || !strings.Contains(d.m.notice, "pick a server first") {
		t.Fatalf("l with all servers shown: picking %v, notice %q", d.logs().picking, d.m.notice)
	}
	d.keys(key1('s'), key1('s'), key1('l')) // server two
	mustShow(t, d, "log level for two", "› debug", "emergency")

	// Esc closes the picker without sending anything.
	d.keys(keyEsc)
	if d.logs().picking || len(d.eng.levels) != 0 {
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
}

func TestLogViewShowsMessagesAndStderrPerServer(t *testing.T) {
	t.Parallel()
	d := newDriver(t, Options{}, twoServers)
	br := d.m.bridge
	br.Event(client.LogMessage{Server: "demo", Level: "error", Logger: "db", Data: json.RawMessage(`"disk full"`), Time: time.Now()})
	br.Stderr("two", "panic: "+hostile)
	d.waitInbox()
	d.keys(keyF8)
	mustShow(t, d, "Logs: 2 lines (all servers)", "demo error", "disk full", "two stderr", "panic: pay")
	assertNoHostile(t, d.m.View().Content)
	if strings.Contains(d.screen(), `"disk full"`) {
		t.Error("a JSON string message is shown quoted")
	}
	d.keys(key1('s'))
	mustShow(t, d, "Logs: 1 lines (demo)")
	if strings.Contains(d.screen(), "panic") {
		t.Error("server filter demo shows two's stderr")
	}
}
