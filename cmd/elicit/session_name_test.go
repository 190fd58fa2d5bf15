package main

import (
	"bytes"
	"testing"
)

// TestSessionNameRefused: a session's name is a word scripts and people
// type and see in every listing, so one that carries control bytes,
// spaces or slashes, or is too long, is refused before any hub starts
// (exit 2), for session start and for proxy --session alike.
func TestSessionNameRefused(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	for _, name := range []string{"a\x1b[31mb", "two words", "a/b", "..", "-x", string(bytes.Repeat([]byte("n"), 65))} {
		for _, args := range [][]string{
			{"session", "start", name, "--demo"},
			{"proxy", "--session", name, "--demo"},
		} {
			code, out, errs := h.run(args...)
			if code != 2 || !bytes.Contains(errs, []byte("session name")) && !bytes.Contains(errs, []byte("NAME")) {
				t.Errorf("%q: exit %d, want 2 saying what a session name may be\nstdout %s\nstderr %s", args, code, out, errs)
			}
			if bytes.ContainsRune(errs, 0x1b) || bytes.ContainsRune(out, 0x1b) {
				t.Errorf("%q: an escape byte reached the output", args)
			}
		}
	}
	if code, out, _ := h.run("session", "list"); code != 0 || !bytes.Equal(bytes.TrimSpace(out), []byte("[]")) {
		t.Errorf("session list after the refusals: exit %d, %s; want [] (nothing started)", code, out)
	}
	h.start("ok.name_1-2")
}
