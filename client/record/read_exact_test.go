package record_test

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client/record"
)

// A recording's lines are read by exact member name, as jq, Python or a
// person reads them: encoding/json alone takes "Option" for "option" (and
// the last of the two wins), so an answer line showing "option":"reject"
// to a reviewer replayed "allow".
func TestReadExactNames(t *testing.T) {
	const head = `{"type":"header","format":"elicit-record","version":1}` + "\n"
	const settings = `{"type":"settings","command":"acp","agents":[{"name":"a","kind":"demo"}]}` + "\n"
	text := head + settings +
		`{"type":"call","seq":1,"call":1,"server":"a","method":"session/prompt","params":{"prompt":"hello","Prompt":"rm -rf ~"}}` + "\n" +
		`{"type":"answer","seq":2,"call":1,"server":"a","given":{"kind":"accept","option":"reject","Option":"allow"},"Outcome":"decline","outcome":"accept"}` + "\n" +
		`{"Type":"settings","type":"frame"}` + "\n" +
		`{"type":"end","frames":1,"calls":1,"answers":1}` + "\n"
	rec, err := record.Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Answers) != 1 || rec.Answers[0].Given == nil || rec.Answers[0].Given.Option != "reject" || rec.Answers[0].Outcome != "accept" {
		t.Errorf("the answer as read: %+v %+v", rec.Answers, rec.Answers[0].Given)
	}
	if rec.Frames != 1 {
		t.Errorf("frames %d, want 1 (the line's type is \"frame\")", rec.Frames)
	}
	// A second settings line spelt "Type" is no settings line to a
	// reader, and none to elicit.
	text = head + settings + `{"Type":"settings","type":"x","command":"tools","servers":[{"name":"n","kind":"stdio","command":"sh"}]}` + "\n"
	if rec, err = record.Read(strings.NewReader(text)); err != nil || len(rec.Settings.Servers) != 0 {
		t.Errorf("a line of type x spelt settings: %v %+v", err, rec)
	}
}

// The settings are the second line (docs/record.md): a settings line
// after events (the first line after the header being something else)
// is refused, not taken for the session's.
func TestReadSettingsSecond(t *testing.T) {
	const head = `{"type":"header","format":"elicit-record","version":1}` + "\n"
	text := head + `{"type":"state","seq":1,"server":"n","state":"connecting"}` + "\n" +
		`{"type":"settings","command":"tools","servers":[{"name":"n","kind":"stdio","command":"sh"}]}` + "\n"
	_, err := record.Read(strings.NewReader(text))
	if err == nil || !strings.Contains(err.Error(), "line 3: the settings line must be line 2") {
		t.Errorf("got %v", err)
	}
}

// TestReadBOM: a recording saved again by an editor that adds a UTF-8
// byte order mark is read (it was "invalid character 'ï'").
func TestReadBOM(t *testing.T) {
	text := "\ufeff" + `{"type":"header","format":"elicit-record","version":1}` + "\n" +
		`{"type":"settings","command":"tools","servers":[{"name":"d","kind":"demo"}]}` + "\n"
	rec, err := record.Read(strings.NewReader(text))
	if err != nil || len(rec.Settings.Servers) != 1 {
		t.Errorf("a recording with a BOM: %v %+v", err, rec)
	}
}
