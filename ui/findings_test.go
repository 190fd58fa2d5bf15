package ui

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
)

var keyAltI = tea.KeyPressMsg{Code: 'i', Mod: tea.ModAlt}

// findingsDriver has the sample traffic, then frames of "demo" after it,
// and a Recorder the test reports into.
func findingsDriver(t *testing.T) (*driver, *findings.Recorder) {
	t.Helper()
	rec := findings.NewRecorder(nil)
	d := newDriver(t, Options{Now: func() time.Time { return t0 }}, twoServers, func(e *fakeEngine) { e.findings = rec })
	sampleTraffic(d.m.bridge)
	for i := range 30 {
		d.m.bridge.Frame("demo", client.Frame{Time: t0.Add(time.Second + time.Duration(i)*time.Millisecond), Dir: client.In,
			Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`)})
	}
	d.waitInbox()
	return d, rec
}

// TestFindingsView: a finding shows on the tab bar before its tab is
// shown, the view lists it with its fix and spec section, server text
// inert, and Enter shows its frame selected in the traffic view, with
// the traffic filter that hid it cleared.
func TestFindingsView(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d, rec := findingsDriver(t)
		if strings.Contains(d.screen(), "Findings") || strings.Contains(d.screen(), "Fnd") {
			t.Fatalf("a findings tab with nothing to count:\n%s", d.screen())
		}
		rec.Report("two", "2025-11-25", findings.ElicitFormSecret,
			findings.FrameRef{In: true, ID: "e1", Method: "elicitation/create", Time: t0.Add(2 * time.Millisecond)},
			"two#e1: field %q asks for a secret", "pass\x1b[2Jword")
		d.send(streamsChangedMsg{findings: true})
		if bar := strings.SplitN(d.screen(), "\n", 2)[0]; !strings.Contains(bar, "alt+i F") || !strings.Contains(bar, "(1)") {
			t.Fatalf("tab bar %q: want the findings tab with its count", bar)
		}

		d.keys(keyF6)
		d.traffic().filter.Server = "demo" // hides the finding's frame
		d.keys(keyAltI)
		s := d.screen()
		for _, want := range []string{"Findings: 1 errors, 0 warnings", "elicitation-form-secret", "fix: Ask for credentials through URL mode",
			"spec: 2025-11-25 client/elicitation#safe-url-mode-elicitation-requests", "frame: 15:04:05.002 ← elicitation/create #e1"} {
			if !strings.Contains(s, want) {
				t.Errorf("findings view lacks %q:\n%s", want, s)
			}
		}
		if strings.Contains(d.m.View().Content, "\x1b[2J") {
			t.Error("the server's escape reached the screen")
		}

		d.keys(keyEnter)
		tv := d.traffic()
		if d.m.shown != tv {
			t.Fatalf("Enter did not show the traffic view:\n%s", d.screen())
		}
		if tv.follow || tv.filter.Server != "" || tv.cursor >= len(tv.rows) {
			t.Fatalf("traffic: follow %v, filter %+v, cursor %d of %d", tv.follow, tv.filter, tv.cursor, len(tv.rows))
		}
		if row := tv.rows[tv.cursor]; row.Server != "two" || row.ID != "e1" || row.Method != "elicitation/create" {
			t.Errorf("selected %+v, want two's elicitation/create #e1", row)
		}
		if !strings.Contains(d.screen(), "› 15:04:05.002") || !strings.Contains(d.screen(), "#e1  ⚠ elicitation-form-secret") {
			t.Errorf("the selected row is not on screen, marked with its finding:\n%s", d.screen())
		}
	})
}

// TestFindingsFrameGone: a finding whose frame the traffic log no longer
// holds says so and stays put.
func TestFindingsFrameGone(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d, rec := findingsDriver(t)
		rec.Report("demo", "", findings.UnknownResponseID, findings.FrameRef{In: true, ID: "999", Time: t0}, "id 999")
		rec.Report("demo", "", findings.LoggingUndeclared, findings.FrameRef{In: true, Method: "notifications/message", Time: t0.Add(time.Second + 5*time.Millisecond)}, "log")
		d.keys(keyAltI)
		if !strings.Contains(d.screen(), "Findings: 2 errors") {
			t.Fatalf("screen:\n%s", d.screen())
		}
		d.keys(keyEnter)
		if _, ok := d.m.shown.(*findingsView); !ok || !strings.Contains(d.m.notice, "no longer in the traffic log") {
			t.Fatalf("notice %q, shown %T", d.m.notice, d.m.shown)
		}
		// The second names a notification by method and time: the sixth of
		// its kind, not the newest.
		d.keys(keyDown, keyEnter)
		tv := d.traffic()
		if row := tv.rows[tv.cursor]; !row.Time.Equal(t0.Add(time.Second+5*time.Millisecond)) || row.Method != "notifications/message" {
			t.Errorf("selected %+v", row)
		}
		// That one notification carries the mark, not the other 29.
		marked := 0
		for _, l := range strings.Split(d.screen(), "\n") {
			if strings.Contains(l, "⚠ capability-logging") {
				marked++
				if !strings.Contains(l, "15:04:06.005") {
					t.Errorf("marked row %q, want the one at 15:04:06.005", l)
				}
			}
		}
		if marked != 1 {
			t.Errorf("%d rows marked capability-logging, want 1:\n%s", marked, d.screen())
		}
	})
}

// TestFindingsMarkOneFrame: a finding names one frame, though others share
// its id (a duplicate response has the id of the first): only that frame
// carries the mark, and Enter selects it.
func TestFindingsMarkOneFrame(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d, rec := findingsDriver(t)
		resp := []byte(`{"jsonrpc":"2.0","id":7,"result":{}}`)
		first, second := t0.Add(3*time.Second), t0.Add(4*time.Second)
		d.m.bridge.Frame("demo", client.Frame{Time: first, Dir: client.In, Raw: resp})
		d.m.bridge.Frame("demo", client.Frame{Time: second, Dir: client.In, Raw: resp})
		d.waitInbox()
		rec.Report("demo", "2025-11-25", findings.DuplicateResponse, findings.FrameRef{In: true, ID: "7", Time: second},
			"a second response to tools/list #7")
		d.send(streamsChangedMsg{findings: true})
		d.keys(keyAltI, keyEnter)
		tv := d.traffic()
		if d.m.shown != tv || tv.cursor >= len(tv.rows) {
			t.Fatalf("Enter did not show the traffic view on a row:\n%s", d.screen())
		}
		if row := tv.rows[tv.cursor]; !row.Time.Equal(second) || row.ID != "7" {
			t.Errorf("selected %+v, want the second response #7", row)
		}
		var rows int
		for _, l := range strings.Split(d.screen(), "\n") {
			if !strings.Contains(l, "#7") {
				continue
			}
			rows++
			marked := strings.Contains(l, "⚠ jsonrpc-duplicate-response")
			if strings.Contains(l, "15:04:08.000") == marked {
				t.Errorf("row %q: want the first response (15:04:08) unmarked and the second (15:04:09) marked", l)
			}
		}
		if rows != 2 {
			t.Errorf("%d rows of #7 on screen, want both responses:\n%s", rows, d.screen())
		}
	})
}
