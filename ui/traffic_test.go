package ui

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/elicit-dev/elicit/client"
)

var t0 = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

// sampleTraffic records frames of two servers, including a pretty-printed
// one (several lines on the wire), one with hostile text and one that
// could not be decoded.
func sampleTraffic(br *Bridge) {
	msg, _ := json.Marshal(hostile)
	frames := []struct {
		server string
		dir    client.Direction
		raw    string
		err    error
	}{
		{"demo", client.Out, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`, nil},
		{"demo", client.In, "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {\"content\": []}\n}", nil},
		{"two", client.In, `{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":` +
			string(msg) + `}}`, nil},
		{"two", client.Out, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil},
		{"two", client.In, "not json \x1b[2J", errors.New("invalid character 'o'")},
	}
	for i, f := range frames {
		br.Frame(f.server, client.Frame{Time: t0.Add(time.Duration(i) * time.Millisecond), Dir: f.dir, Raw: []byte(f.raw), Err: f.err})
	}
}

// exportLine is one line of an export file.
type exportLine struct {
	Time   time.Time       `json:"time"`
	Server string          `json:"server"`
	Dir    string          `json:"dir"`
	Frame  json.RawMessage `json:"frame"`
	Raw    string          `json:"raw"`
	Err    string          `json:"error"`
	HTTP   *exportHTTP     `json:"http"`
}

func readExport(t *testing.T, path string) []exportLine {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []exportLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if !json.Valid(sc.Bytes()) {
			t.Fatalf("line %d is not JSON: %q", len(out)+1, sc.Text())
		}
		var l exportLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

func trafficDriver(t *testing.T) (*driver, string) {
	t.Helper()
	dir := t.TempDir()
	d := newDriver(t, Options{ExportDir: dir, Now: func() time.Time { return t0 }}, twoServers)
	sampleTraffic(d.m.bridge)
	d.waitInbox() // the coalesced streamsChangedMsg
	d.keys(keyF6)
	return d, dir
}

func TestTrafficExport(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d, dir := trafficDriver(t)
		d.keys(key1('e'))
		path := filepath.Join(dir, "elicit-traffic-20260102-150405.jsonl")
		if !strings.Contains(d.m.notice, "exported 5 frames to "+path) {
			t.Fatalf("notice = %q", d.m.notice)
		}
		lines := readExport(t, path)
		if len(lines) != 5 {
			t.Fatalf("%d lines, want one per frame (5)", len(lines))
		}
		first := lines[0]
		if first.Server != "demo" || first.Dir != "out" || !first.Time.Equal(t0) ||
			string(first.Frame) != `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}` {
			t.Errorf("first line = %+v", first)
		}
		if lines[1].Dir != "in" || !bytes.Contains(lines[1].Frame, []byte(`"result"`)) {
			t.Errorf("the multi-line frame is not one line: %+v", lines[1])
		}
		if last := lines[4]; last.Frame != nil || last.Raw != "not json \x1b[2J" || last.Err == "" {
			t.Errorf("undecodable frame exported as %+v, want raw text and error", last)
		}

		// Another export in the same second gets its own file.
		d.keys(key1('s'), key1('s')) // server filter: demo, then two
		d.keys(key1('e'))
		path2 := filepath.Join(dir, "elicit-traffic-20260102-150405-2.jsonl")
		if !strings.Contains(d.m.notice, "exported 3 frames to "+path2) {
			t.Fatalf("notice = %q", d.m.notice)
		}
		for _, l := range readExport(t, path2) {
			if l.Server != "two" {
				t.Errorf("filtered export has a frame of %q", l.Server)
			}
		}
		if n := len(readExport(t, path)); n != 5 {
			t.Errorf("the first export changed: %d lines", n)
		}
	})
}

func TestTrafficFilters(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d, _ := trafficDriver(t)
		mustShow(t, d, "Traffic: 5 frames (all servers, following)", "tools/call", "elicitation/create", "invalid")

		d.keys(key1('s'))
		mustShow(t, d, "Traffic: 2 frames (demo · 2025-11-25 stateful,") // the server's era
		if strings.Contains(d.screen(), "elicitation/create") {
			t.Error("server filter demo still shows two's frames")
		}
		d.keys(key1('s'))
		mustShow(t, d, "Traffic: 3 frames (two · protocol 2025-06-18,", "elicitation/create")
		d.keys(key1('s'))
		mustShow(t, d, "Traffic: 5 frames (all servers")

		d.keys(keySlash)
		d.typeText("ELICIT") // case-insensitive substring
		mustShow(t, d, "Traffic: 1 frames (all servers, method ~ ELICIT▏")
		d.keys(keyEnter)
		s := d.screen()
		if strings.Contains(s, "tools/call") || !strings.Contains(s, "⚑ elicitation/create") {
			t.Fatalf("method filter:\n%s", s)
		}
		// Backspace widens it again, while editing.
		d.keys(keySlash)
		for range len("ELICIT") {
			d.keys(keyBackspace)
		}
		d.typeText("notif")
		d.keys(keyEnter)
		mustShow(t, d, "Traffic: 1 frames", "notifications/initialized")
	})
}

func TestTrafficDetailPrettyAndSanitized(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d, _ := trafficDriver(t)
		d.keys(keySlash)
		d.typeText("elicitation")
		d.keys(keyEnter, keyEnter) // close the filter, then open the only row
		s := d.screen()
		for _, want := range []string{`"method": "elicitation/create",`, `  "params": {`, `"id": "e1",`} {
			if !strings.Contains(s, want) {
				t.Errorf("detail lacks %q:\n%s", want, s)
			}
		}
		assertNoHostile(t, d.m.View().Content)
		d.keys(keyEsc)
		if d.m.readers[d.m.view] != nil {
			t.Fatal("Esc did not close the detail")
		}

		// The undecodable frame says so, sanitized.
		d.keys(keySlash)
		for range len("elicitation") {
			d.keys(keyBackspace)
		}
		d.keys(keyEnter, keyEnter) // the newest row is the invalid one
		mustShow(t, d, "undecodable: invalid character", "not json")
		if strings.Contains(d.m.View().Content, "\x1b[2J") {
			t.Error("raw frame text reached the screen unsanitized")
		}
	})
}

func TestRingWrapsAndWindows(t *testing.T) {
	t.Parallel()
	br := NewBridge(BridgeOptions{TrafficSize: 3})
	defer br.Close()
	for i := range 5 {
		br.Frame("s", client.Frame{Raw: []byte(`{"jsonrpc":"2.0","method":"m","id":` + itoa(i) + `}`)})
	}
	ids := func(rows []TrafficEntry) string {
		var out []string
		for _, r := range rows {
			out = append(out, r.ID)
		}
		return strings.Join(out, ",")
	}
	if rows, total := br.streams.trafficWindow(TrafficFilter{}, 0, 10); ids(rows) != "2,3,4" || total != 3 {
		t.Fatalf("window = %s (total %d), want 2,3,4 of 3", ids(rows), total)
	}
	if rows, _ := br.streams.trafficWindow(TrafficFilter{}, 1, 1); ids(rows) != "3" {
		t.Fatalf("skip 1 keep 1 = %s, want 3", ids(rows))
	}
	if got := ids(br.streams.trafficAll(TrafficFilter{})); got != "2,3,4" {
		t.Fatalf("all = %s", got)
	}
}

// TestTrafficMarksTheEraProbe: our server/discover and the error a
// pre-2026 server answers it with are marked as the era probe, not shown
// as a bare failure; other errors are not marked.
func TestTrafficMarksTheEraProbe(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{Now: func() time.Time { return t0 }})
		br := d.m.bridge
		br.Frame("demo", client.Frame{Time: t0, Dir: client.Out, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`)})
		br.Frame("demo", client.Frame{Time: t0, Dir: client.In, Raw: []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`)})
		br.Frame("demo", client.Frame{Time: t0, Dir: client.Out, Raw: []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}`)})
		br.Frame("demo", client.Frame{Time: t0, Dir: client.In, Raw: []byte(`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad"}}`)})
		d.waitInbox()
		d.keys(keyF6)
		s := d.screen()
		if !strings.Contains(s, "server/discover #1  era probe") || !strings.Contains(s, "#1  era probe: not a 2026-07-28 server, initialize follows") {
			t.Errorf("the probe is not marked:\n%s", s)
		}
		if strings.Count(s, "era probe") != 2 {
			t.Errorf("want exactly the probe's two rows marked:\n%s", s)
		}
	})
}
