package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startApp runs elicit app TOOL --no-open on the apps server and returns
// the page's URL; the command is ended by SIGTERM with the test, and must
// end cleanly (exit 0).
func startApp(t *testing.T, recordTo string, args ...string) (*url.URL, func()) {
	t.Helper()
	full := append([]string{"app"}, args...)
	full = append(full, "--no-open", "--record", recordTo, "--")
	cmd := exec.Command(binPath, append(full, appsServer(t)...)...)
	cmd.Env = append(os.Environ(), "BROWSER=")
	return serveApp(t, cmd)
}

// serveApp starts cmd, an elicit app --no-open, and returns the URL it
// prints; the command is ended by SIGTERM with the test (or stop), and
// must end cleanly (exit 0).
func serveApp(t *testing.T, cmd *exec.Cmd) (*url.URL, func()) {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errs strings.Builder
	cmd.Stderr = &errs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		_, _ = io.Copy(io.Discard, out)
		ended <- cmd.Wait()
	}()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		_ = cmd.Process.Signal(syscall.SIGTERM)
		if err := <-ended; err != nil {
			t.Errorf("elicit app after SIGTERM: %v\n%s", err, errs.String())
		}
	}
	t.Cleanup(stop)
	var line string
	select {
	case line = <-lines:
	case <-t.Context().Done():
	}
	if line == "" {
		stop()
		t.Fatalf("elicit app printed no URL:\n%s", errs.String())
	}
	u, err := url.Parse(line)
	if err != nil {
		t.Fatalf("URL %q: %v", line, err)
	}
	return u, stop
}

// TestAppHostRefusesWithoutToken: the page listens on 127.0.0.1 only,
// its token is at least 16 URL-safe characters in the path, and no token
// or a wrong one gets 403 with a fixed body that echoes nothing.
func TestAppHostRefusesWithoutToken(t *testing.T) {
	t.Parallel()
	u, _ := startApp(t, filepath.Join(t.TempDir(), "rec.jsonl"), "counter")
	if u.Scheme != "http" || u.Hostname() != "127.0.0.1" || u.Port() == "" || u.RawQuery != "" || u.Fragment != "" {
		t.Fatalf("URL %s: want http://127.0.0.1:PORT/TOKEN/", u)
	}
	tok := strings.Trim(u.Path, "/")
	if len(tok) < 16 || strings.Trim(tok, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
		t.Fatalf("token %q: want 16 or more URL-safe characters", tok)
	}
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get("http://" + u.Host + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get(u.Path); code != http.StatusOK {
		t.Fatalf("the page with its token: %d", code)
	}
	// The app's document comes with the CSP its resource declares (none:
	// the strictest) and no Referer that would carry the token.
	resp, err := http.Get(u.String() + "app")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'none'; script-src 'unsafe-inline';") ||
		!strings.Contains(csp, "connect-src 'none'") || resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("the app's document: CSP %q, Referrer-Policy %q", csp, resp.Header.Get("Referrer-Policy"))
	}
	wrong := []byte(tok)
	wrong[0] ^= 1
	for _, p := range []string{"/", "/app", "/rpc", "/" + string(wrong) + "/", "/" + string(wrong) + "/app", "/" + tok[:len(tok)-1] + "/", "/" + tok + "x/app", "/echo-this-back/app"} {
		code, body := get(p)
		if code != http.StatusForbidden || body != "forbidden\n" {
			t.Errorf("GET %s: %d %q, want 403 \"forbidden\\n\"", p, code, body)
		}
	}
	// Only 127.0.0.1 listens: the same port on ::1 refuses.
	if c, err := net.DialTimeout("tcp", net.JoinHostPort("::1", u.Port()), 2*time.Second); err == nil {
		c.Close()
		t.Errorf("[::1]:%s accepted a connection: the host listens beyond 127.0.0.1", u.Port())
	}
}

// TestAppRendersAndCallsThroughElicit is issue 30's proof: an app built
// with @modelcontextprotocol/ext-apps (testdata/apps-server.mjs), opened
// by elicit app in headless chromium, renders, gets the tool's result
// from elicit, and its button calls the app-only tool increment through
// elicit and shows the result — read inside the sandboxed iframe over the
// DevTools protocol. The recording holds the app's messages, tagged as
// the app's.
func TestAppRendersAndCallsThroughElicit(t *testing.T) {
	t.Parallel()
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	u, stop := startApp(t, rec, "counter")
	driveCounterApp(t, u)

	// End elicit app (SIGTERM: it must exit 0) and read the recording's
	// app frames.
	stop()
	checkAppFrames(t, rec, "apps-server (app)")
}

// TestDemoAppRendersAndCallsThroughElicit: the embedded demo's palette
// app (a page that speaks the app side of ext-apps by hand, no ext-apps
// bundle) renders under elicit app --demo, gets the tool's input and
// result from elicit, and a button calls the app-only pick_colour through
// elicit and shows its result.
func TestDemoAppRendersAndCallsThroughElicit(t *testing.T) {
	t.Parallel()
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	cmd := exec.Command(binPath, "app", "palette", "--demo", "--no-open", "--record", rec)
	cmd.Env = append(os.Environ(), "BROWSER=")
	u, stop := serveApp(t, cmd)
	app := openApp(t, u)
	if got := app.text("result", "result "); got != "result colours: red, teal, amber" {
		t.Errorf("the app shows %q, want the tool's result \"result colours: red, teal, amber\"", got)
	}
	if got := app.text("input", "input "); got != "input {}" {
		t.Errorf("the app shows %q, want its input \"input {}\"", got)
	}
	app.click("pick-teal")
	if got := app.text("out", "you picked"); got != "you picked teal" {
		t.Errorf("after the click the app shows %q, want \"you picked teal\"", got)
	}
	stop()
	checkAppFrames(t, rec, "demo (app)")
}

// driveCounterApp opens the host page u in headless chromium, finds the
// counter app's execution context inside the sandboxed iframe, checks
// the tool's input and result the host handed it, clicks its button (the
// app-only increment, called through elicit) and reads "count is 2".
func driveCounterApp(t *testing.T, u *url.URL) {
	t.Helper()
	app := openApp(t, u)
	// The host called the tool and handed the app its input and result.
	if got := app.text("result", "result "); got != "result counter at 0" {
		t.Errorf("the app shows %q, want the tool's result \"result counter at 0\"", got)
	}
	if got := app.text("input", "input "); got != "input {}" {
		t.Errorf("the app shows %q, want its input \"input {}\"", got)
	}
	// The button calls increment (app-only) through elicit.
	app.click("inc")
	if got := app.text("out", "count is"); got != "count is 2" {
		t.Errorf("after the click the app shows %q, want \"count is 2\"", got)
	}
	// The app cannot read the host page (an opaque origin).
	if v, err := app.c.eval(app.ctx, app.session, app.context, `(() => { try { return String(window.parent.document.title); } catch (e) { return "blocked"; } })()`); err != nil || string(v) != `"blocked"` {
		t.Errorf("the app reached its parent's document: %s %v", v, err)
	}
}

// appFrame is an app rendered by elicit's host page in headless
// chromium: the DevTools session and execution context of its document,
// inside the sandboxed iframe.
type appFrame struct {
	t       *testing.T
	c       *cdp
	ctx     context.Context
	session string
	context int
}

// openApp opens the host page u in headless chromium and returns the
// app's frame once the app marked itself connected to the host
// (#title's data-connected="yes", set after ui/initialize).
func openApp(t *testing.T, u *url.URL) *appFrame {
	t.Helper()
	c := startChromium(t)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	t.Cleanup(cancel)

	res, err := c.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	var target struct{ TargetID string }
	_ = json.Unmarshal(res, &target)
	res, err = c.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true})
	if err != nil {
		t.Fatal(err)
	}
	var att struct{ SessionID string }
	_ = json.Unmarshal(res, &att)
	page := att.SessionID
	// A sandboxed frame may run in a process of its own (a target of its
	// own): attach to those too, flat.
	for _, m := range []string{"Runtime.enable", "Target.setAutoAttach"} {
		params := map[string]any{}
		if m == "Target.setAutoAttach" {
			params = map[string]any{"autoAttach": true, "waitForDebuggerOnStart": false, "flatten": true}
		}
		if _, err := c.call(ctx, page, m, params); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.call(ctx, page, "Page.navigate", map[string]any{"url": u.String()}); err != nil {
		t.Fatal(err)
	}

	// The app's context is the one whose document has the app's title,
	// once the app is connected to the host.
	const connected = `new Promise((res) => { const t0 = Date.now(); (function check() {
		const el = document.getElementById("title");
		if (el && el.dataset.connected === "yes") return res(true);
		if ((!el && document.readyState === "complete" && location.href !== "about:blank" && location.href !== "about:srcdoc") || Date.now() - t0 > 20000) return res(false);
		setTimeout(check, 20); })(); })`
	for {
		var ev cdpMsg
		select {
		case ev = <-c.events:
		case <-ctx.Done():
			t.Fatal("the app never rendered and connected in any frame")
		}
		switch ev.Method {
		case "Target.attachedToTarget":
			var a struct{ SessionID string }
			_ = json.Unmarshal(ev.Params, &a)
			go func() { _, _ = c.call(ctx, a.SessionID, "Runtime.enable", map[string]any{}) }()
		case "Runtime.executionContextCreated":
			var cc struct {
				Context struct {
					ID int `json:"id"`
				} `json:"context"`
			}
			_ = json.Unmarshal(ev.Params, &cc)
			v, err := c.eval(ctx, ev.SessionID, cc.Context.ID, connected)
			if err == nil && string(v) == "true" {
				return &appFrame{t: t, c: c, ctx: ctx, session: ev.SessionID, context: cc.Context.ID}
			}
		}
	}
}

// text waits (20s at most) for element id's text to start with prefix,
// and returns its text then, or at the bound.
func (a *appFrame) text(id, prefix string) string {
	a.t.Helper()
	expr := `new Promise((res) => { const t0 = Date.now(); (function check() {
		const s = document.getElementById(` + jsString(id) + `).textContent;
		if (s.startsWith(` + jsString(prefix) + `) || Date.now() - t0 > 20000) return res(s);
		setTimeout(check, 20); })(); })`
	v, err := a.c.eval(a.ctx, a.session, a.context, expr)
	if err != nil {
		a.t.Fatal(err)
	}
	var s string
	_ = json.Unmarshal(v, &s)
	return s
}

// click clicks element id in the app.
func (a *appFrame) click(id string) {
	a.t.Helper()
	if _, err := a.c.eval(a.ctx, a.session, a.context, `document.getElementById(`+jsString(id)+`).click(), true`); err != nil {
		a.t.Fatal(err)
	}
}

// jsString quotes s for JavaScript.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// checkAppFrames: the recording has the app's messages under server
// (e.g. "apps-server (app)"): its ui/initialize and tools/call in, the
// host's tool-result out.
func checkAppFrames(t *testing.T, rec, server string) {
	t.Helper()
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"in ui/initialize": false, "in tools/call": false, "out ui/notifications/tool-result": false}
	for _, line := range strings.Split(string(b), "\n") {
		var f struct {
			Type, Server, Dir string
			Message           struct{ Method string }
		}
		if json.Unmarshal([]byte(line), &f) != nil || f.Type != "frame" || f.Server != server {
			continue
		}
		k := f.Dir + " " + f.Message.Method
		if _, ok := want[k]; ok {
			want[k] = true
		}
	}
	for k, seen := range want {
		if !seen {
			t.Errorf("the recording has no app frame %q:\n%.2000s", k, b)
		}
	}
}
