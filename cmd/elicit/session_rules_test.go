package main

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/hub"
)

// byMessage is the question asking message.
func byMessage(qs []hub.QuestionInfo, message string) (hub.QuestionInfo, bool) {
	i := slices.IndexFunc(qs, func(q hub.QuestionInfo) bool { return q.Message == message })
	if i < 0 {
		return hub.QuestionInfo{}, false
	}
	return qs[i], true
}

// callOut is what a test reads of elicit call's JSON.
type callOut struct {
	Result struct {
		Content []struct{ Text string } `json:"content"`
	} `json:"result"`
	Prompts []headless.PromptOutput `json:"prompts"`
	Failure *exit.Failure           `json:"failure"`
}

func decodeCall(t *testing.T, out []byte) callOut {
	t.Helper()
	var c callOut
	if err := json.Unmarshal(out, &c); err != nil {
		t.Fatalf("call printed %s: %v", out, err)
	}
	return c
}

// TestSessionAnswersAcrossProcesses: two calls from two processes wait
// on one session; the second question (asked while both calls were in
// flight, over stdio: its call cannot be told) says its origin is
// ambiguous and names both; they are answered in reverse order from two
// other processes; content failing the schema exits 2 naming the field
// and sends nothing; --accept is merged over the defaults; a second
// answer exits 5 saying the question was answered; each call exits as
// elicit call does (5 for the declined one) and lists only the questions
// known to be its.
func TestSessionAnswersAcrossProcesses(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	h.start("s")
	first := h.background("call", "ask", "--session", "s", "--args", `{"message":"first"}`)
	q1, _ := byMessage(h.questions("s", func(qs []hub.QuestionInfo) bool { _, ok := byMessage(qs, "first"); return ok }), "first")
	if q1.Call == "" || q1.Mode != "form" || q1.RequestedSchema == nil || q1.Server == "" || q1.Since.IsZero() {
		t.Errorf("the first question: %+v", q1)
	}
	second := h.background("call", "ask", "--session", "s", "--args", `{"message":"second"}`)
	q2, _ := byMessage(h.questions("s", func(qs []hub.QuestionInfo) bool { return len(qs) == 2 }), "second")
	if q2.Call != "" || q2.Origin != "ambiguous" || len(q2.Maybe) != 2 {
		t.Errorf("the second question, asked while two calls were in flight: %+v", q2)
	}
	if code, list, _ := h.run("session", "list"); !strings.Contains(string(list), `"questions": 2`) || !strings.Contains(string(list), `"calls": 2`) || code != 0 {
		t.Errorf("session list with two calls waiting: %s", list)
	}

	code, out, _ := h.run("answer", q2.Key, "--session", "s", "--accept", `{"name":"x"}`)
	if code != exit.Usage || !strings.Contains(string(out), `field \"name\"`) {
		t.Errorf("content failing minLength: exit %d, %s", code, out)
	}
	if code, out, _ := h.run("answer", q2.Key, "--session", "s", "--accept", `{"nmae":"Bo"}`); code != exit.Usage || !strings.Contains(string(out), "nmae") {
		t.Errorf("a field the form lacks: exit %d, %s", code, out)
	}
	if code, out, _ := h.run("answer", q2.Key, "--session", "s", "--accept", `{}`, "--decline"); code != exit.Usage {
		t.Errorf("two answers at once: exit %d, %s", code, out)
	}
	code, out, errs := h.run("answer", q2.Key, "--session", "s", "--accept", `{"name":"Bo"}`)
	var a hub.AnswerResult
	if code != 0 || json.Unmarshal(out, &a) != nil || a.Outcome != "accept" || a.Sent != "accept" || a.Content["name"] != "Bo" || a.Content["count"] != 1.0 {
		t.Fatalf("answer the second: exit %d\n%s\n%s", code, out, errs)
	}
	if code := second.wait(t); code != 0 {
		t.Errorf("the second call: exit %d\n%s\n%s", code, second.out, second.errs)
	}
	if c := decodeCall(t, second.out.Bytes()); len(c.Result.Content) == 0 || !strings.Contains(c.Result.Content[0].Text, `"Bo"`) {
		t.Errorf("the second call's result: %s", second.out)
	}
	if code, out, _ := h.run("answer", q1.Key, "--session", "s", "--decline"); code != 0 || !strings.Contains(string(out), `"decline"`) {
		t.Fatalf("answer the first: exit %d, %s", code, out)
	}
	if code := first.wait(t); code != exit.NotAccepted {
		t.Errorf("the first call, declined: exit %d\n%s", code, first.out)
	}
	if c := decodeCall(t, first.out.Bytes()); len(c.Prompts) != 1 || c.Prompts[0].Key != q1.Key || c.Prompts[0].Outcome != "decline" {
		t.Errorf("the first call's prompts: %+v", c.Prompts)
	}
	code, out, _ = h.run("answer", q1.Key, "--session", "s", "--accept-defaults")
	if code != exit.NotAccepted || !strings.Contains(string(out), "answered") {
		t.Errorf("a late second answer: exit %d, %s", code, out)
	}
}

// TestSessionNoWaitAndResult: call --no-wait answers at once with the
// call's id; result waits for the call and exits as call would have.
func TestSessionNoWaitAndResult(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	h.start("n")
	code, out, errs := h.run("call", "ask", "--session", "n", "--no-wait", "--args", `{"message":"later"}`)
	var started struct {
		Call      string             `json:"call"`
		Questions []hub.QuestionInfo `json:"questions"`
	}
	if code != 0 || json.Unmarshal(out, &started) != nil || started.Call == "" || started.Questions == nil {
		t.Fatalf("call --no-wait: exit %d\n%s\n%s", code, out, errs)
	}
	q, _ := byMessage(h.questions("n", func(qs []hub.QuestionInfo) bool { return len(qs) == 1 }), "later")
	if q.Call != started.Call {
		t.Errorf("the question's call is %q, want %q", q.Call, started.Call)
	}
	if code, out, _ := h.run("answer", q.Key, "--session", "n", "--accept", `{"name":"Cy"}`); code != 0 {
		t.Fatalf("answer: exit %d, %s", code, out)
	}
	code, out, errs = h.run("result", started.Call, "--session", "n")
	if c := decodeCall(t, out); code != 0 || len(c.Prompts) != 1 || c.Prompts[0].Outcome != "accept" {
		t.Errorf("result: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, _ := h.run("result", "99", "--session", "n"); code != exit.Usage {
		t.Errorf("result of an unknown call: exit %d", code)
	}
	if code, _, _ := h.run("call", "ask", "--no-wait"); code != exit.Usage {
		t.Errorf("--no-wait without --session: exit %d", code)
	}
}

// TestSessionWithdrawnQuestion: a question the server withdraws is gone
// from questions, and its answer exits 5 saying withdrawn.
func TestSessionWithdrawnQuestion(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	h.start("w")
	if code, out, _ := h.run("call", "withdraw", "--session", "w", "--no-wait"); code != 0 {
		t.Fatalf("call withdraw: exit %d, %s", code, out)
	}
	q, _ := byMessage(h.questions("w", func(qs []hub.QuestionInfo) bool { return len(qs) == 1 }), "withdrawn soon")
	if code, out, _ := h.run("call", "pull", "--session", "w"); code != 0 {
		t.Fatalf("call pull: exit %d, %s", code, out)
	}
	h.questions("w", func(qs []hub.QuestionInfo) bool { return len(qs) == 0 })
	code, out, _ := h.run("answer", q.Key, "--session", "w", "--accept", `{"name":"Di"}`)
	if code != exit.NotAccepted || !strings.Contains(string(out), "withdrawn") {
		t.Errorf("answering a withdrawn question: exit %d, %s", code, out)
	}
}

// TestSessionKilledCaller: SIGTERM to elicit call --session cancels its
// call (the server gets notifications/cancelled) and its question ends
// abandoned (its answer exits 5 saying so).
func TestSessionKilledCaller(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	h.start("k")
	caller := h.background("call", "ask", "--session", "k", "--args", `{"message":"doomed"}`)
	q, _ := byMessage(h.questions("k", func(qs []hub.QuestionInfo) bool { return len(qs) == 1 }), "doomed")
	if q.Call == "" {
		t.Fatalf("the question is not tied to its call: %+v", q)
	}
	if err := caller.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	caller.wait(t)
	h.questions("k", func(qs []hub.QuestionInfo) bool { return len(qs) == 0 })
	code, out, _ := h.run("answer", q.Key, "--session", "k", "--decline")
	if code != exit.NotAccepted || !strings.Contains(string(out), "abandoned") {
		t.Errorf("answering the killed call's question: exit %d, %s", code, out)
	}
	// The engine sends the cancel beside abandoning the question: ask the
	// server what it saw until it says (its answer is the state).
	deadline := time.Now().Add(waitBound)
	for {
		code, out, errs := h.run("call", "log", "--session", "k", "--answer", "cancel")
		c := decodeCall(t, out)
		if code != 0 || len(c.Result.Content) == 0 {
			t.Fatalf("call log: exit %d\n%s\n%s", code, out, errs)
		}
		if c.Result.Content[0].Text != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server saw no notifications/cancelled within %s", waitBound)
		}
	}
}

// TestSessionKilledHub: a hub killed outright takes its servers with it
// (no orphan); the call waiting on it and the next command on its
// session exit 3 saying "disconnected"; the next session start replaces
// it.
func TestSessionKilledHub(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	// A server that does not end when its stdin closes: only the kernel's
	// parent-death signal stops it when the hub is killed.
	server := serverArgs(t)
	server = append([]string{server[0], server[1], hubStubbornEnv + "=1"}, server[2:]...)
	r := h.startOn("d", server)
	waiting := h.background("call", "ask", "--session", "d", "--args", `{"message":"pending"}`)
	h.questions("d", func(qs []hub.QuestionInfo) bool { return len(qs) == 1 })
	if err := syscall.Kill(r.HubPid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if code := waiting.wait(t); code != exit.Connect || !strings.Contains(waiting.out.String(), "disconnected") {
		t.Errorf("the call waiting on the killed hub: exit %d\n%s\n%s", code, waiting.out, waiting.errs)
	}
	for _, pid := range []int{r.HubPid, r.Pid} {
		if !pidGone(pid, waitBound) {
			t.Fatalf("process %d outlived the killed hub", pid)
		}
	}
	code, out, errs := h.run("tools", "--session", "d")
	if code != exit.Connect || !strings.Contains(string(out)+string(errs), "disconnected") {
		t.Errorf("tools on the dead hub's session: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, _ := h.run("questions", "--session", "d"); code != exit.Connect || !strings.Contains(string(out), "disconnected") {
		t.Errorf("questions on the dead hub's session: exit %d, %s", code, out)
	}
	if r2 := h.start("d2"); r2.HubPid == r.HubPid {
		t.Errorf("no new hub after the killed one")
	}
}

// TestSessionOtherUserRefused: a process of another uid that reaches the
// socket anyway (a hard link to it in a folder it may enter; the real
// folder is 0700) is refused by the hub (SO_PEERCRED) before any
// request is read. Needs root to make such a process.
func TestSessionOtherUserRefused(t *testing.T) {
	t.Parallel()
	if os.Getuid() != 0 {
		t.Skip("only root can run a process as another user here")
	}
	h := newHubEnv(t)
	h.start("u")
	open, err := os.MkdirTemp("", "elicit-peer-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(open) })
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin, link := filepath.Join(open, "dialer"), filepath.Join(open, "hub.sock")
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(h.paths().Socket, link); err != nil {
		t.Fatal(err)
	}
	for path, mode := range map[string]os.FileMode{open: 0o755, link: 0o666} {
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	for _, target := range []string{link, h.paths().Socket} {
		cmd := exec.Command(bin)
		cmd.Env = []string{hubDialEnv + "=" + target}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the dialer as uid 65534: %v\n%s", err, out)
		}
		got := string(out)
		switch target {
		case link: // reached the socket: the hub closes without a word
			if !strings.Contains(got, `read ""`) || strings.Contains(got, "result") {
				t.Errorf("uid 65534 through the link: %s", got)
			}
		default: // the folder keeps it out
			if !strings.Contains(got, "permission denied") {
				t.Errorf("uid 65534 at the socket's own path: %s", got)
			}
		}
	}
	log, _ := os.ReadFile(h.paths().Log)
	if !strings.Contains(string(log), "refused a connection from uid 65534") {
		t.Errorf("the hub's log does not say it refused uid 65534:\n%s", log)
	}
}

// TestSessionRecordAndFindings: --record on session start records the
// whole session (the calls on it included); a call on a session reports
// findings as a one-shot call does; a relative --answer FILE is read
// from the caller's folder.
func TestSessionRecordAndFindings(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	h.dir = t.TempDir()
	if err := os.WriteFile(filepath.Join(h.dir, "answers.json"), []byte(`{"name":"Ed"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	h.start("r", "--record", "session.jsonl")
	code, out, errs := h.run("call", "ask", "--session", "r", "--answer", "answers.json", "--args", `{"message":"file"}`)
	if c := decodeCall(t, out); code != 0 || len(c.Prompts) != 1 || c.Prompts[0].Outcome != "accept" || !strings.Contains(string(out), `"findings": [`) {
		t.Fatalf("call --answer FILE on a session: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, _ := h.run("session", "stop", "r"); code != 0 {
		t.Fatalf("stop: exit %d, %s", code, out)
	}
	rec, err := os.ReadFile(filepath.Join(h.dir, "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tools/call", "elicitation/create", `\"Ed\"`} {
		if !strings.Contains(string(rec), want) {
			t.Errorf("the recording lacks %s", want)
		}
	}
}

// TestSessionHTTP: a session over Streamable HTTP keeps its connection
// between commands; there the stream that carries a question ties it to
// its call, so two calls' questions are each their call's (not
// ambiguous); the session's header secret is masked in what commands on
// it print and in the hub's log.
func TestSessionHTTP(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(demo.HTTPHandler(nil))
	t.Cleanup(srv.Close)
	h := newHubEnv(t)
	code, out, errs := h.run("session", "start", "web", "--url", srv.URL+"/?token=SEKRIT1", "--header", "Authorization: Bearer SEKRIT2x9y8z7", "--protocol", "2025-11-25")
	if code != 0 {
		t.Fatalf("session start --url: exit %d\n%s\n%s", code, out, errs)
	}
	var r hub.StartResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	h.pids = append(h.pids, r.HubPid)
	var ids []string
	for range 2 {
		code, out, _ := h.run("call", "deploy", "--session", "web", "--no-wait")
		var started struct{ Call string }
		if code != 0 || json.Unmarshal(out, &started) != nil {
			t.Fatalf("call deploy --no-wait: exit %d, %s", code, out)
		}
		ids = append(ids, started.Call)
	}
	qs := h.questions("web", func(qs []hub.QuestionInfo) bool { return len(qs) == 2 })
	for _, q := range qs {
		if q.Call == "" || q.Origin != "" || !slices.Contains(ids, q.Call) {
			t.Errorf("a question over HTTP is not tied to its call: %+v", q)
		}
		if code, out, _ := h.run("answer", q.Key, "--session", "web", "--accept", `{"confirm":true}`); code != 0 {
			t.Errorf("answer %s: exit %d, %s", q.Key, code, out)
		}
	}
	for _, id := range ids {
		code, out, errs := h.run("result", id, "--session", "web")
		if c := decodeCall(t, out); code != 0 || len(c.Prompts) != 1 || c.Prompts[0].Outcome != "accept" {
			t.Errorf("result %s: exit %d\n%s\n%s", id, code, out, errs)
		}
		if strings.Contains(string(out)+string(errs), "SEKRIT") {
			t.Errorf("a secret reached what result printed: %s", out)
		}
	}
	if _, out, _ := h.run("tools", "--session", "web"); strings.Contains(string(out), "SEKRIT") || !strings.Contains(string(out), "deploy") {
		t.Errorf("tools on the session: %s", out)
	}
	h.run("session", "stop", "web")
	if log, _ := os.ReadFile(h.paths().Log); strings.Contains(string(log), "SEKRIT") {
		t.Errorf("a secret reached the hub's log:\n%s", log)
	}
}

// TestSessionURLQuestion: a URL-mode question shows its url and no
// schema; its accept is consent only (content refused, exit 2), given
// with --accept-defaults.
func TestSessionURLQuestion(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	h.startOn("u", []string{"--demo"}, "--protocol", "2025-11-25")
	code, out, _ := h.run("call", "consent", "--session", "u", "--no-wait")
	var started struct{ Call string }
	if code != 0 || json.Unmarshal(out, &started) != nil {
		t.Fatalf("call consent --no-wait: exit %d, %s", code, out)
	}
	q := h.questions("u", func(qs []hub.QuestionInfo) bool { return len(qs) == 1 })[0]
	if q.Mode != "url" || !strings.HasPrefix(q.URL, "https://") || q.RequestedSchema != nil || q.Call != started.Call {
		t.Errorf("the URL-mode question: %+v", q)
	}
	if code, out, _ := h.run("answer", q.Key, "--session", "u", "--accept", `{"x":1}`); code != exit.Usage {
		t.Errorf("content for a URL-mode question: exit %d, %s", code, out)
	}
	if code, out, _ := h.run("answer", q.Key, "--session", "u", "--accept-defaults"); code != 0 || !strings.Contains(string(out), `"accept"`) {
		t.Errorf("consent: exit %d, %s", code, out)
	}
	if code, out, errs := h.run("result", started.Call, "--session", "u"); code != 0 {
		t.Errorf("result: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestSessionHostileQuestion: a question's message with terminal
// controls reaches elicit questions' output inert.
func TestSessionHostileQuestion(t *testing.T) {
	t.Parallel()
	h := newHubEnv(t)
	h.start("x")
	msg := "red \x1b[31mALERT\x1b[0m \x07 \u202eevil"
	args, _ := json.Marshal(map[string]string{"message": msg})
	if code, out, _ := h.run("call", "ask", "--session", "x", "--no-wait", "--args", string(args)); code != 0 {
		t.Fatalf("call --no-wait: exit %d, %s", code, out)
	}
	h.questions("x", func(qs []hub.QuestionInfo) bool { return len(qs) == 1 })
	code, out, errs := h.run("questions", "--session", "x")
	if code != 0 {
		t.Fatalf("questions: exit %d, %s", code, errs)
	}
	assertInertBytes(t, "questions' stdout", out)
	assertInertBytes(t, "questions' stderr", errs)
	var qs []hub.QuestionInfo
	if err := json.Unmarshal(out, &qs); err != nil || len(qs) != 1 || !strings.Contains(qs[0].Message, "ALERT") {
		t.Errorf("the message is lost: %s (%v)", out, err)
	}
}
