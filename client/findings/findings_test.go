package findings

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

func TestSecret(t *testing.T) {
	for _, c := range []struct {
		name, title, desc, format string
		want                      bool
	}{
		{"password", "", "", "", true},
		{"apiKey", "", "", "", true},
		{"github_token", "", "", "", true},
		{"token", "", "", "", true},
		{"x", "Your API key", "", "", true},
		{"x", "", "Paste the access token from the settings page", "", true},
		{"x", "", "", "password", true},
		{"cardNumber", "", "", "", true},
		{"clientSecret", "", "", "", true},
		{"maxTokens", "", "", "", false},
		{"x", "", "How many tokens to generate", "", false},
		{"secretary", "", "", "", false},
		{"name", "Your name", "Who you are", "", false},
		{"email", "", "", "email", false},
		{"keyboard", "", "", "", false},
	} {
		why, got := Secret(c.name, c.title, c.desc, c.format)
		if got != c.want {
			t.Errorf("Secret(%q, %q, %q, %q) = %v (%s), want %v", c.name, c.title, c.desc, c.format, got, why, c.want)
		}
	}
}

func TestSecretFields(t *testing.T) {
	got := SecretFields([]byte(`{"type":"object","properties":{"user":{"type":"string"},"pw":{"type":"string","title":"Password"},"apiKey":{"type":"string"}}}`))
	if len(got) != 2 || got[0][0] != "apiKey" || got[1][0] != "pw" {
		t.Fatalf("SecretFields = %v, want apiKey and pw", got)
	}
	if SecretFields([]byte(`[1]`)) != nil {
		t.Fatal("a schema that is no object has no secret fields")
	}
}

// TestCatalogue: every id has one rule, with a section, a title, a fix and
// a version, and ids are unique.
func TestCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		if seen[r.ID] {
			t.Errorf("rule %s twice", r.ID)
		}
		seen[r.ID] = true
		if r.Section == "" || r.Title == "" || r.Fix == "" || len(r.Versions) == 0 {
			t.Errorf("rule %s lacks a section, title, fix or version: %+v", r.ID, r)
		}
		if got, ok := Lookup(r.ID); !ok || got.ID != r.ID {
			t.Errorf("Lookup(%s) = %v, %v", r.ID, got, ok)
		}
	}
	if _, ok := Lookup("no-such-rule"); ok {
		t.Error("Lookup found a rule that does not exist")
	}
}

func TestRecorder(t *testing.T) {
	var calls atomic.Int64
	r := NewRecorder(func() { calls.Add(1) })
	at := time.Unix(100, 0)
	if !r.Report("s", "2025-11-25", UnknownResponseID, FrameRef{In: true, ID: "7", Time: at}, "id %d", 7) {
		t.Fatal("the first report is new")
	}
	if r.Report("s", "2025-11-25", UnknownResponseID, FrameRef{In: true, ID: "7"}, "id %d", 7) {
		t.Fatal("the same report again is not new")
	}
	r.Report("s", "", LoggingUndeclared, FrameRef{}, "log")
	all := r.All()
	if len(all) != 2 || all[0].Count != 2 || all[0].Frame.Time != at || all[0].Severity != Error || all[0].Fix == "" {
		t.Fatalf("All = %+v", all)
	}
	if all[1].Version != "2025-11-25" {
		t.Errorf("a finding with no version takes the rule's first, got %q", all[1].Version)
	}
	if calls.Load() != 3 || r.Version() != 3 {
		t.Errorf("changed called %d times, version %d; want 3, 3", calls.Load(), r.Version())
	}
	b, err := json.Marshal(all[0])
	if err != nil || !strings.Contains(string(b), `"severity":"error"`) || !strings.Contains(string(b), `"rule":"jsonrpc-unknown-response-id"`) {
		t.Fatalf("JSON %s, %v", b, err)
	}
	var back Finding
	if err := json.Unmarshal(b, &back); err != nil || back.Severity != Error {
		t.Fatalf("round trip: %+v %v", back, err)
	}
	if e, w := Counts(all); e != 2 || w != 0 {
		t.Errorf("Counts = %d, %d", e, w)
	}
	var nilRec *Recorder
	if nilRec.Report("s", "", JSONRPCShape, FrameRef{}, "x") || nilRec.All() != nil {
		t.Error("a nil recorder records nothing")
	}
}

func TestRecorderBound(t *testing.T) {
	r := NewRecorder(nil)
	for i := range maxFindings + 5 {
		r.Report("s", "", JSONRPCShape, FrameRef{}, "frame %d", i)
	}
	if len(r.All()) != maxFindings || r.Dropped() != 5 {
		t.Fatalf("kept %d, dropped %d", len(r.All()), r.Dropped())
	}
}

func TestFrame(t *testing.T) {
	r := NewRecorder(nil)
	_, err := jsonrpc.Decode([]byte(`{"jsonrpc":"1.0","id":3,"result":{}}`))
	if err == nil {
		t.Fatal("a jsonrpc 1.0 frame decoded")
	}
	r.Frame("s", "2025-11-25", false, err, time.Now()) // ours: not the server's
	r.Frame("s", "2025-11-25", true, fmt.Errorf("connection refused"), time.Now())
	r.Frame("s", "2025-11-25", true, err, time.Now())
	all := r.All()
	if len(all) != 1 || all[0].Rule != JSONRPCShape || all[0].Frame.ID != "3" || !strings.Contains(all[0].Detail, "jsonrpc") {
		t.Fatalf("All = %+v", all)
	}
}

// TestDocsListEveryRule: docs/findings.md, the catalogue people read,
// names every rule.
func TestDocsListEveryRule(t *testing.T) {
	doc, err := os.ReadFile("../../docs/findings.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules() {
		if !strings.Contains(string(doc), "| `"+r.ID+"` | "+r.Severity.String()+" |") {
			t.Errorf("docs/findings.md does not list %s as %s", r.ID, r.Severity)
		}
	}
}
