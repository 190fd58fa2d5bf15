package cli

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// TestParseInterleaved: flags before and after the positional arguments
// are read alike, -h is help (no error to report), and a bad flag is a
// usage error.
func TestParseInterleaved(t *testing.T) {
	var stderr bytes.Buffer
	fs := NewFlagSet("call", &stderr, "Usage: elicit call TOOL\n")
	args := fs.String("args", "{}", "")
	pos, err := ParseInterleaved(fs, []string{"deploy", "--args", `{"a":1}`, "more"})
	if err != nil || strings.Join(pos, " ") != "deploy more" || *args != `{"a":1}` {
		t.Errorf("pos %q, --args %q, %v", pos, *args, err)
	}
	if _, err := ParseInterleaved(NewFlagSet("call", &stderr, "Usage: elicit call TOOL\n"), []string{"-h"}); !errors.Is(err, exit.ErrHelp) {
		t.Errorf("-h: %v, want ErrHelp", err)
	}
	if !strings.Contains(stderr.String(), "Usage: elicit call TOOL") || !strings.Contains(stderr.String(), "Flags:") {
		t.Errorf("-h printed %q", stderr.String())
	}
	if _, err := ParseInterleaved(NewFlagSet("call", &stderr, ""), []string{"--nope"}); exit.CodeOf(err) != exit.Usage {
		t.Errorf("a bad flag: %v, want a usage error", err)
	}
	before, after := SplitDashDash([]string{"tools", "--demo", "--", "srv", "--", "x"})
	if strings.Join(before, " ") != "tools --demo" || strings.Join(after, " ") != "srv -- x" {
		t.Errorf("split %q %q", before, after)
	}
}

// TestSpecChecksTheSessionFlags: every session flag is checked before
// the server is named, each error a usage error saying which flag, and
// the one-server rule first of all.
func TestSpecChecksTheSessionFlags(t *testing.T) {
	ok := func() Flags {
		var f Flags
		f.Register(flag.NewFlagSet("t", flag.ContinueOnError))
		return f
	}
	for name, tc := range map[string]struct {
		set  func(*Flags)
		want string
	}{
		"two servers": {func(f *Flags) { f.Demo, f.URL = true, "http://h/mcp"; f.Protocol = "1999" }, "give one server"},
		"protocol":    {func(f *Flags) { f.Protocol = "1999" }, "unknown --protocol"},
		"elicit":      {func(f *Flags) { f.Elicit = "all" }, "bad --elicit"},
		"sample":      {func(f *Flags) { f.Sample = "/no/such.json" }, "--sample /no/such.json"},
		"url-wait":    {func(f *Flags) { f.URLWait = 0 }, "--url-wait must be positive"},
		"prompt":      {func(f *Flags) { f.PromptTimeout = -time.Second }, "--prompt-timeout must not be negative"},
		"connect":     {func(f *Flags) { f.ConnectTimeout = 0 }, "--connect-timeout must be positive"},
		"request":     {func(f *Flags) { f.RequestTimeout = 0 }, "--request-timeout must be positive"},
	} {
		f := ok()
		tc.set(&f)
		if _, err := f.Spec(true); exit.CodeOf(err) != exit.Usage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a usage error saying %q", name, err, tc.want)
		}
	}
	f := ok()
	s, err := f.Spec(true)
	if err != nil || !s.Demo || s.Name != "demo" {
		t.Errorf("no server given: %+v, %v; want the demo", s, err)
	}
	if m, err := ParseElicit(""); err != nil || m != client.ElicitBoth {
		t.Errorf("--elicit \"\": %v, %v", m, err)
	}
}
