package acpagent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Options tunes the agent.
type Options struct {
	// RequireAuth makes it list an auth method and refuse session/new
	// with -32000 until authenticate is called.
	RequireAuth bool
	// Step is the pause between chunks of the long scene (default 100ms).
	Step time.Duration
	// SlowNew delays the answer to session/new, SlowAuth to
	// authenticate; a $/cancel_request for it meanwhile gets -32800.
	SlowNew  time.Duration
	SlowAuth time.Duration
	// AskOnNew makes session/new ask two request-scoped questions before
	// it answers: one naming a request id the client never sent (which
	// must be refused -32602), then one naming the session/new itself.
	AskOnNew bool
	// AskOnNewThenAnswer makes session/new ask one question scoped to it
	// and answer at once, without waiting: the client must end the
	// question with its request (and still answer it).
	AskOnNewThenAnswer bool
	// Minimal makes it declare none of the optional capabilities (no
	// session methods beyond new and prompt, text prompts only).
	Minimal bool
	// CommandsOnNew makes it send available_commands_update for a new
	// session right after the session/new result, as real agents do.
	CommandsOnNew bool
}

type msg struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// reply is the client's answer to one of our requests.
type reply struct {
	Result json.RawMessage
	Error  *rpcError
}

type agent struct {
	opts Options
	out  io.Writer
	wmu  sync.Mutex

	mu      sync.Mutex
	next    int
	pending map[string]chan reply
	turns   map[string]chan struct{} // session id → closed on session/cancel
	// slow are the client's requests we are sitting on, by raw id; closed
	// on $/cancel_request.
	slow map[string]chan struct{}
	// prompts are the session/prompt requests being played, by raw id;
	// closed on $/cancel_request (the deaf scene honours only that).
	prompts map[string]chan struct{}
	// cwds are the sessions' working directories (the fs scenes).
	cwds map[string]string
	// sessions are the sessions the agent keeps (list, load, resume).
	sessions map[string]*session
	// terminal: the client declared terminals (the terminal scene).
	terminal bool
	authed   bool
	nsess    int
	wg       sync.WaitGroup
	// crash is closed by the crash scene: Serve returns at once, as an
	// agent that dies mid-question.
	crash     chan struct{}
	crashOnce sync.Once
}

// ErrCrashed is what Serve returns after the crash scene.
var ErrCrashed = errors.New("acpagent: crashed on purpose (the crash scene)")

// Serve runs the agent on r and w until r ends or ctx does.
func Serve(ctx context.Context, r io.Reader, w io.Writer, opts Options) error {
	if opts.Step <= 0 {
		opts.Step = 100 * time.Millisecond
	}
	a := &agent{opts: opts, out: w, pending: map[string]chan reply{}, turns: map[string]chan struct{}{}, slow: map[string]chan struct{}{},
		prompts: map[string]chan struct{}{}, cwds: map[string]string{}, sessions: oldSessions(), crash: make(chan struct{})}
	defer func() {
		select {
		case <-a.crash: // dying: wait for nobody
		default:
			a.wg.Wait()
		}
	}()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	lines := make(chan []byte)
	errc := make(chan error, 1)
	go func() {
		defer close(lines)
		for sc.Scan() {
			lines <- append([]byte(nil), sc.Bytes()...)
		}
		errc <- sc.Err()
	}()
	for {
		select {
		case <-ctx.Done():
			a.abort()
			return ctx.Err()
		case <-a.crash:
			return ErrCrashed
		case line, ok := <-lines:
			if !ok {
				a.abort()
				return <-errc
			}
			a.handle(line)
		}
	}
}

// abort ends every wait: the client is gone.
func (a *agent) abort() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for id, ch := range a.pending {
		ch <- reply{Error: &rpcError{Code: -32603, Message: "connection closed"}}
		delete(a.pending, id)
	}
	for s, ch := range a.turns {
		close(ch)
		delete(a.turns, s)
	}
}

func (a *agent) send(m msg) {
	m.JSONRPC = "2.0"
	b, _ := json.Marshal(m)
	a.wmu.Lock()
	defer a.wmu.Unlock()
	select {
	case <-a.crash:
		return // dead agents say nothing
	default:
	}
	a.out.Write(append(b, '\n'))
}

func (a *agent) result(id json.RawMessage, v any) {
	b, _ := json.Marshal(v)
	a.send(msg{ID: id, Result: b})
}

func (a *agent) fail(id json.RawMessage, code int64, text string) {
	a.send(msg{ID: id, Error: &rpcError{Code: code, Message: text}})
}

func (a *agent) notify(method string, params any) {
	b, _ := json.Marshal(params)
	a.send(msg{Method: method, Params: b})
}

// request asks the client something; the returned id may be withdrawn.
func (a *agent) request(method string, params any) (string, <-chan reply) {
	a.mu.Lock()
	a.next++
	id := fmt.Sprint(a.next)
	ch := make(chan reply, 1)
	a.pending[id] = ch
	a.mu.Unlock()
	b, _ := json.Marshal(params)
	a.send(msg{ID: json.RawMessage(id), Method: method, Params: b})
	return id, ch
}

func (a *agent) handle(line []byte) {
	var m msg
	if err := json.Unmarshal(line, &m); err != nil {
		return
	}
	switch {
	case m.Method == "" && m.ID != nil:
		a.mu.Lock()
		ch := a.pending[string(m.ID)]
		delete(a.pending, string(m.ID))
		a.mu.Unlock()
		if ch != nil {
			ch <- reply{Result: m.Result, Error: m.Error}
		}
	case m.ID == nil:
		if m.Method == "$/cancel_request" {
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			json.Unmarshal(m.Params, &p)
			a.mu.Lock()
			if ch, ok := a.slow[string(p.RequestID)]; ok {
				close(ch)
				delete(a.slow, string(p.RequestID))
			}
			if ch, ok := a.prompts[string(p.RequestID)]; ok {
				close(ch)
				delete(a.prompts, string(p.RequestID))
			}
			a.mu.Unlock()
		}
		if m.Method == "session/cancel" {
			var p struct {
				SessionID string `json:"sessionId"`
			}
			json.Unmarshal(m.Params, &p)
			a.mu.Lock()
			if ch, ok := a.turns[p.SessionID]; ok {
				close(ch)
				delete(a.turns, p.SessionID)
			}
			a.mu.Unlock()
		}
	default:
		a.call(m)
	}
}

func (a *agent) call(m msg) {
	switch m.Method {
	case "initialize":
		var p struct {
			ClientCapabilities struct {
				Terminal bool `json:"terminal"`
			} `json:"clientCapabilities"`
		}
		json.Unmarshal(m.Params, &p)
		a.mu.Lock()
		a.terminal = p.ClientCapabilities.Terminal
		a.mu.Unlock()
		res := map[string]any{
			"protocolVersion": 1,
			"agentCapabilities": map[string]any{"loadSession": true,
				"promptCapabilities":  map[string]bool{"image": true, "audio": false, "embeddedContext": false},
				"sessionCapabilities": map[string]any{"list": map[string]any{}, "resume": map[string]any{}, "close": map[string]any{}, "delete": map[string]any{}, "additionalDirectories": map[string]any{}},
				"auth":                map[string]any{"logout": map[string]any{}}},
			"agentInfo":   map[string]string{"name": "elicit-demo-agent", "title": "elicit demo agent", "version": "1.0.0"},
			"authMethods": []any{},
		}
		if a.opts.Minimal {
			res["agentCapabilities"] = map[string]any{"loadSession": false}
		}
		if a.opts.RequireAuth {
			res["authMethods"] = []map[string]string{{"id": "demo-login", "name": "Demo login", "description": "pretend to log in"}}
		}
		a.result(m.ID, res)
	case "authenticate":
		var p struct {
			MethodID string `json:"methodId"`
		}
		json.Unmarshal(m.Params, &p)
		if a.opts.RequireAuth && p.MethodID != "demo-login" {
			a.fail(m.ID, -32602, "unknown auth method "+p.MethodID)
			return
		}
		a.mu.Lock()
		a.authed = true
		a.mu.Unlock()
		if a.opts.SlowAuth > 0 {
			a.slowly(m.ID, map[string]any{}, a.opts.SlowAuth)
			return
		}
		a.result(m.ID, map[string]any{})
	case "session/new":
		var p struct {
			Cwd string `json:"cwd"`
		}
		json.Unmarshal(m.Params, &p)
		a.mu.Lock()
		ok := a.authed || !a.opts.RequireAuth
		a.nsess++
		id := fmt.Sprintf("sess_%d", a.nsess)
		a.cwds[id] = p.Cwd
		sess := &session{cwd: p.Cwd, mode: "ask", model: "small", active: ok}
		if ok {
			a.sessions[id] = sess
		}
		a.mu.Unlock()
		if !ok {
			a.fail(m.ID, -32000, "Authentication required")
			return
		}
		if a.opts.AskOnNewThenAnswer {
			_, ch := a.request("elicitation/create", map[string]any{"requestId": m.ID, "mode": "form",
				"message": "Which workspace? (session/new will not wait)", "requestedSchema": json.RawMessage(`{"type":"object","properties":{}}`)})
			a.result(m.ID, map[string]string{"sessionId": id})
			a.wg.Add(1)
			go func() {
				defer a.wg.Done()
				select {
				case <-ch:
				case <-time.After(5 * time.Second):
				}
			}()
			return
		}
		if a.opts.AskOnNew {
			a.wg.Add(1)
			go func() {
				defer a.wg.Done()
				a.askOnNew(m.ID)
				a.result(m.ID, map[string]string{"sessionId": id})
			}()
			return
		}
		if a.opts.SlowNew > 0 {
			a.slowly(m.ID, map[string]string{"sessionId": id}, a.opts.SlowNew)
			return
		}
		res := sess.setup()
		res["sessionId"] = id
		a.result(m.ID, res)
		if a.opts.CommandsOnNew {
			a.notify("session/update", map[string]any{"sessionId": id, "update": map[string]any{
				"sessionUpdate": "available_commands_update", "availableCommands": []map[string]string{{"name": "web", "description": "search"}}}})
		}
	case "session/prompt":
		var p struct {
			SessionID string `json:"sessionId"`
			Prompt    []struct {
				Type     string `json:"type"`
				Text     string `json:"text"`
				Name     string `json:"name"`
				MimeType string `json:"mimeType"`
			} `json:"prompt"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil || p.SessionID == "" {
			a.fail(m.ID, -32602, "invalid params")
			return
		}
		var text strings.Builder
		var blocks []string
		for _, b := range p.Prompt {
			text.WriteString(b.Text)
			kind := b.Type
			for _, s := range []string{b.Name, b.MimeType} {
				if s != "" {
					kind += ":" + s
				}
			}
			blocks = append(blocks, kind)
		}
		a.mu.Lock()
		if s := a.sessions[p.SessionID]; s == nil || !s.active {
			a.mu.Unlock()
			a.fail(m.ID, -32002, "Resource not found: no open session "+p.SessionID)
			return
		}
		a.mu.Unlock()
		cancel, abandon := make(chan struct{}), make(chan struct{})
		a.mu.Lock()
		a.turns[p.SessionID] = cancel
		a.prompts[string(m.ID)] = abandon
		cwd := a.cwds[p.SessionID]
		a.mu.Unlock()
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			tt := &turn{a: a, session: p.SessionID, cwd: cwd, cancel: cancel, abandon: abandon, blocks: strings.Join(blocks, ",")}
			stop := a.play(tt, text.String())
			a.mu.Lock()
			if s := a.sessions[p.SessionID]; s != nil {
				s.history = append(s.history, [2]string{text.String(), tt.said.String()})
			}
			if a.turns[p.SessionID] == cancel {
				delete(a.turns, p.SessionID)
			}
			delete(a.prompts, string(m.ID))
			a.mu.Unlock()
			if stop == errCancelledStop {
				a.fail(m.ID, -32800, "Request cancelled")
				return
			}
			a.result(m.ID, map[string]string{"stopReason": stop})
			if tt.after != nil {
				tt.after()
			}
		}()
	default:
		if !a.sessionCall(m) {
			a.fail(m.ID, -32601, "method not found: "+m.Method)
		}
	}
}

// slowly answers request id with res after d, or -32800 if the client
// cancels it first.
func (a *agent) slowly(id json.RawMessage, res any, d time.Duration) {
	cancel := make(chan struct{})
	a.mu.Lock()
	a.slow[string(id)] = cancel
	a.mu.Unlock()
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			a.mu.Lock()
			delete(a.slow, string(id))
			a.mu.Unlock()
			a.result(id, res)
		case <-cancel:
			a.fail(id, -32800, "Request cancelled")
		}
	}()
}

// askOnNew asks request-scoped questions during session/new (id).
func (a *agent) askOnNew(id json.RawMessage) {
	schema := json.RawMessage(`{"type":"object","properties":{"workspace":{"type":"string","title":"Workspace","default":"main"}}}`)
	for _, rid := range []json.RawMessage{json.RawMessage(`"no-such-request"`), id} {
		_, ch := a.request("elicitation/create", map[string]any{"requestId": rid, "mode": "form",
			"message": "Which workspace should the session use?", "requestedSchema": schema})
		select {
		case <-ch:
		case <-time.After(5 * time.Second):
		}
	}
}
