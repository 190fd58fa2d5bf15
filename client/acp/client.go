package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/rpcpeer"
)

// ProtocolVersion is the ACP major version this client speaks.
const ProtocolVersion = 1

// Default bounds.
const (
	// DefaultCancelWait is how long a cancelled call or turn waits for the
	// answer the agent still owes.
	DefaultCancelWait = 5 * time.Second
	// DefaultCloseWait bounds how long Close waits for open questions to
	// be answered -32800 before closing the connection.
	DefaultCloseWait = 2 * time.Second
)

// Options configures a Client.
type Options struct {
	// Name names the agent in question keys and the journal.
	Name string
	// Command, Args, Env and Dir start the agent (see transport.Stdio).
	Command string
	Args    []string
	Env     []string
	Dir     string
	// Prompter answers the agent's questions; nil cancels them all.
	Prompter question.Prompter
	// Journal records how each question ended; nil makes one.
	Journal *question.Journal
	// Modes are the elicitation modes declared; the zero value declares
	// both form and url.
	Modes *question.Modes
	// OnUpdate hears every session/update in order, on the read loop
	// (it must not block); OnStderr every stderr line of the agent;
	// OnQuestion every question as it opens and OnResolved as it ends.
	OnUpdate   func(Update)
	OnStderr   func(string)
	OnResolved func(question.JournalEntry)
	// OnFrame sees every message on the wire, both ways (a UI's traffic
	// view); it must not block.
	OnFrame func(transport.Frame)
	// OnElicitationComplete hears elicitation/complete: the URL-mode
	// question with that elicitationId is done on the agent's side (a UI
	// closes what it still shows of it). On the read loop: must not block.
	OnElicitationComplete func(elicitationID string)
	// OnFile hears every fs request of the agent's as it ends (reads and
	// writes; AllowFS only).
	OnFile func(FileAccess)
	// OnAction hears every Action as it ends (must not block).
	OnAction func(Action)
	// CancelWait and CloseWait override the defaults.
	CancelWait time.Duration
	CloseWait  time.Duration
	// AllowTerminal declares terminal and serves terminal/*: each
	// terminal/create is asked first (a question.TerminalCreate
	// permission showing the command), then run in a PTY in the
	// session's cwd (or the request's, inside the session's roots), the
	// request's env over ours, its output kept to outputByteLimit (cut
	// from the beginning). Every terminal of a session is killed when its
	// turn ends, however it ends. Without it terminal/* is answered
	// -32601.
	AllowTerminal bool
	// AllowFS declares fs.readTextFile and fs.writeTextFile and serves
	// them, only within the session's cwd; every write is asked first
	// (a question.FileWrite permission carrying the diff). Without it
	// fs/* is answered -32601.
	AllowFS bool
	// QuestionTimeout, if positive, ends a question of the agent's left
	// unanswered this long: internal cancellation, answered -32800.
	QuestionTimeout time.Duration
	// TurnIdle, if positive, stops a turn (as Stop does) in which the
	// agent sent nothing for its session (no update, no request) this
	// long while none of its questions was open: headless, no one is
	// there to stop an agent that went quiet. TurnResult.IdleStopped
	// says so.
	TurnIdle time.Duration
	// ChooseAuth, if set, is asked which of the agent's authMethods to
	// use when session/new is refused -32000 (auth required); NewSession
	// then runs authenticate and tries once more. A UI shows a pane; an
	// error (or ctx ending) leaves the AuthRequiredError standing.
	ChooseAuth func(ctx context.Context, methods []AuthMethod) (methodID string, err error)
	// TerminalAuth, if set, declares auth.terminal and runs a terminal
	// auth method's command (the agent's own, its args and env added)
	// for the person, interactively; exit status 0 is signed in. A UI
	// suspends itself around it; headless runs it on the terminal.
	TerminalAuth func(ctx context.Context, cmd *exec.Cmd) error
	// MCPServers go into every session/new (ACP's mcpServers).
	MCPServers []MCPServer
	// ClientName and ClientVersion go into clientInfo.
	ClientName, ClientVersion string
}

// AuthMethod is one way the agent can authenticate us: Type "" (or
// "agent") through authenticate, "terminal" by running the agent's own
// command with Args and Env added, interactively (Options.TerminalAuth).
type AuthMethod struct {
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Description string            `json:"description,omitempty"`
	Type        string            `json:"type,omitempty"`
	Args        []string          `json:"args,omitempty"`
	Env         map[string]string `json:"env,omitempty"`
}

// InitializeResult is what the agent said of itself.
type InitializeResult struct {
	ProtocolVersion   int             `json:"protocolVersion"`
	AgentCapabilities json.RawMessage `json:"agentCapabilities,omitempty"`
	AgentInfo         *struct {
		Name    string `json:"name"`
		Title   string `json:"title,omitempty"`
		Version string `json:"version"`
	} `json:"agentInfo,omitempty"`
	AuthMethods []AuthMethod `json:"authMethods,omitempty"`
}

// Client is one connection to an agent.
type Client struct {
	opts    Options
	modes   question.Modes
	conn    transport.Conn
	peer    *peer
	asker   question.Asker
	journal *question.Journal
	schemas question.SchemaCache
	init    InitializeResult

	// base is the parent of every question's context; ending it with
	// ErrShutdown answers them all -32800.
	base     context.Context
	shutdown context.CancelCauseFunc

	mu   sync.Mutex
	open map[jsonrpc.ID]*openQuestion
	// turns are the session/prompt calls under way, by session, so that
	// a Stop knows what it stops.
	turns map[string]*turnState
	// cwds are the sessions this connection opened, with their working
	// directories (absolute): a request or update naming another session
	// is refused or dropped (ours), and the fs methods serve only within
	// the session's cwd.
	cwds map[string]roots
	// history gathers what session/load replays, by session, until the
	// load's answer.
	history map[string]*turnState
	// caps is what the agent declared (initialize).
	caps AgentCapabilities
	// actions are our requests beyond the turn, as they ended.
	actions actionLog
	// terminals are the agent's terminals not yet released, by id.
	terminals    map[string]*terminal
	nextTerminal int
	// foreignUpdates counts the updates dropped for naming a session not
	// ours (said once on stderr).
	foreignUpdates int
	// strays counts the answers dropped for naming no request of ours
	// awaiting one (said once on stderr).
	strays int

	// scoped counts questions scoped to a request of ours (requestId)
	// being answered, so that the request returns with its journal
	// complete.
	scoped settler

	handlers  sync.WaitGroup // request handlers
	prompters sync.WaitGroup // the Asker's Prompter goroutines
	readDone  chan struct{}
	closing   sync.Once
}

// openQuestion is one request of the agent's not yet answered.
type openQuestion struct {
	session string
	cancel  context.CancelCauseFunc
	reason  string // the withdrawal's, if any
	claimed bool
	// call is the request of ours a requestId-scoped question belongs to.
	call jsonrpc.ID
	// noTurn: a permission request that came when no turn of its session
	// was under way (refused).
	noTurn bool
	// stopping is set by Stop before session/cancel goes out: the turn's
	// cancellation is how it ends, even if the agent's $/cancel_request
	// for it (which some SDKs send on session/cancel) is read first.
	stopping bool
}

// Start spawns the agent and runs initialize. ctx bounds the start and
// the handshake.
func Start(ctx context.Context, opts Options) (*Client, error) {
	if opts.Name == "" {
		opts.Name = filepath.Base(opts.Command)
	}
	if opts.Journal == nil {
		opts.Journal = question.NewJournal(0)
	}
	if opts.CancelWait <= 0 {
		opts.CancelWait = DefaultCancelWait
	}
	if opts.CloseWait <= 0 {
		opts.CloseWait = DefaultCloseWait
	}
	prompter := opts.Prompter
	if prompter == nil {
		prompter = question.CancelAll
	}
	modes := question.Modes{Form: true, URL: true}
	if opts.Modes != nil {
		modes = *opts.Modes
	}
	c := &Client{opts: opts, modes: modes, journal: opts.Journal,
		open: map[jsonrpc.ID]*openQuestion{}, turns: map[string]*turnState{}, cwds: map[string]roots{}, history: map[string]*turnState{}, terminals: map[string]*terminal{}, readDone: make(chan struct{})}
	c.asker = question.Asker{Prompter: prompter, WG: &c.prompters}
	c.base, c.shutdown = context.WithCancelCause(context.Background())
	tr := &transport.Stdio{Command: opts.Command, Args: opts.Args, Env: opts.Env, Dir: opts.Dir,
		Observer: transport.ObserverFuncs{OnStderr: opts.OnStderr, OnFrame: opts.OnFrame}}
	conn, err := tr.Dial(ctx)
	if err != nil {
		c.shutdown(question.ErrShutdown)
		return nil, fmt.Errorf("acp: %w", err)
	}
	c.conn, c.peer = conn, newPeer(conn, c.dropped)
	go c.readLoop()
	if err := c.initialize(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func (c *Client) initialize(ctx context.Context) error {
	elicitation := map[string]any{}
	if c.modes.Form {
		elicitation["form"] = map[string]any{}
	}
	if c.modes.URL {
		elicitation["url"] = map[string]any{}
	}
	name, version := c.opts.ClientName, c.opts.ClientVersion
	if name == "" {
		name, version = "elicit", "dev"
	}
	params := map[string]any{
		"protocolVersion": ProtocolVersion,
		"clientCapabilities": map[string]any{
			"fs":          map[string]bool{"readTextFile": c.opts.AllowFS, "writeTextFile": c.opts.AllowFS},
			"terminal":    c.opts.AllowTerminal,
			"elicitation": elicitation,
			"auth":        map[string]bool{"terminal": c.opts.TerminalAuth != nil},
			// Shown as they come: notices and compaction in the turn, and
			// boolean config options set with SetConfigOption.
			"session": map[string]any{"notices": map[string]any{}, "compaction": map[string]any{},
				"configOptions": map[string]any{"boolean": map[string]any{}}},
		},
		"clientInfo": map[string]string{"name": name, "title": "elicit", "version": version},
	}
	raw, err := c.peer.call(ctx, MethodInitialize, params, c.opts.CancelWait)
	if err != nil {
		return err
	}
	if err := wire.DecodeExact(raw, &c.init); err != nil {
		return fmt.Errorf("acp: initialize result: %w", err)
	}
	if c.init.ProtocolVersion != ProtocolVersion {
		return fmt.Errorf("acp: the agent speaks protocol version %d; elicit speaks %d", c.init.ProtocolVersion, ProtocolVersion)
	}
	c.caps = decodeCapabilities(c.init.AgentCapabilities)
	return nil
}

// Info is the agent's initialize result.
func (c *Client) Info() InitializeResult { return c.init }

// Name is the agent's name as configured.
func (c *Client) Name() string { return c.opts.Name }

// Done is closed when the connection to the agent has ended (the agent
// exited or Close ran): a UI shows the agent gone.
func (c *Client) Done() <-chan struct{} { return c.readDone }

// Journal is where the agent's questions are recorded.
func (c *Client) Journal() *question.Journal { return c.journal }

// readLoop reads until the connection ends, then ends everything waiting.
func (c *Client) readLoop() {
	defer close(c.readDone)
	for {
		in, err := c.conn.Read(context.Background())
		if err != nil {
			c.peer.Fail(err)
			c.endOpen(fmt.Errorf("%w: %v", question.ErrDisconnected, err))
			return
		}
		if in.Msg == nil {
			if in.ID.IsValid() {
				c.peer.Deliver(in.ID, answer{Err: in.Err})
			}
			continue
		}
		m := in.Msg
		switch m.Kind() {
		case jsonrpc.KindResponse:
			if m.Error != nil {
				c.peer.Deliver(m.ID, answer{Err: m.Error})
			} else {
				c.peer.Deliver(m.ID, answer{Result: m.Result})
			}
		case jsonrpc.KindNotification:
			c.notification(m)
		case jsonrpc.KindRequest:
			c.request(m, in.Received)
		}
	}
}

func (c *Client) notification(m *jsonrpc.Message) {
	switch m.Method {
	case MethodSessionUpdate:
		u, err := decodeUpdate(m.Params)
		if err != nil && u.Kind == "" {
			c.stderr("acp: dropped a session/update: " + err.Error())
			return
		}
		c.mu.Lock()
		_, ours := c.cwds[u.SessionID]
		t := c.turns[u.SessionID]
		if h := c.history[u.SessionID]; h != nil && t == nil {
			t = h
		}
		if !ours {
			c.foreignUpdates++
		}
		first := c.foreignUpdates == 1
		c.mu.Unlock()
		if !ours {
			// Not shown anywhere: a session we did not open has nothing
			// of ours to say.
			if first {
				c.stderr("acp: dropped a session/update for a session not opened here (and any more such)")
			}
			return
		}
		if t != nil {
			t.add(u)
		}
		if c.opts.OnUpdate != nil {
			c.opts.OnUpdate(u)
		}
	case MethodElicitComplete:
		// URL mode: the agent says the out-of-band step is done.
		var p struct {
			ElicitationID string `json:"elicitationId"`
		}
		if err := wire.DecodeExact(m.Params, &p); err == nil && p.ElicitationID != "" && c.opts.OnElicitationComplete != nil {
			c.opts.OnElicitationComplete(p.ElicitationID)
		}
	case MethodCancelRequest:
		var p struct {
			RequestID jsonrpc.ID `json:"requestId"`
		}
		if err := wire.DecodeExact(m.Params, &p); err != nil || !p.RequestID.IsValid() {
			return
		}
		c.withdraw(p.RequestID)
	}
	// Anything else ($/ notifications we do not know) is ignored: a peer
	// may ignore any notification.
}

// dropped says on stderr that an answer no call of ours awaits was
// dropped (read loop): each late one (bounded by our cancels), the first
// stray (an agent may send any number).
func (c *Client) dropped(id jsonrpc.ID, fate rpcpeer.Fate, method string) {
	if fate == rpcpeer.Late {
		c.stderr(fmt.Sprintf("acp: dropped a late answer to %s %s (we had given up on it)", method, id.Raw()))
		return
	}
	c.mu.Lock()
	c.strays++
	first := c.strays == 1
	c.mu.Unlock()
	if first {
		c.stderr(fmt.Sprintf("acp: dropped an answer to id %s, which no request of ours awaits: never sent, or answered already (and any more such)", id.Raw()))
	}
}

func (c *Client) stderr(s string) {
	if c.opts.OnStderr != nil {
		c.opts.OnStderr(s)
	}
}

// request serves one request of the agent's in a goroutine of its own.
func (c *Client) request(m *jsonrpc.Message, arrived time.Time) {
	var session string
	if pm, err := wire.ExactMembers(m.Params); err == nil {
		session, _, _ = wire.ExactString(pm, "sessionId")
	}
	c.mu.Lock()
	t := c.turns[session]
	var prompt jsonrpc.ID
	if t != nil {
		t.heard()
		prompt = t.prompt
	}
	c.mu.Unlock()
	// A permission is for a tool call, and tool calls are a turn's: one
	// that comes when the session has no turn under way (its prompt's
	// answer already read, on this loop, before it) is refused unasked,
	// not answered by a policy meant for the turn. Before the prompt's id
	// is known the prompt is only just sent: under way.
	noTurn := t == nil || prompt.IsValid() && !c.peer.InFlight(prompt)
	switch {
	case m.Method == MethodRequestPermission, m.Method == MethodElicitation:
	case m.Method == MethodWriteTextFile && c.opts.AllowFS:
	case m.Method == MethodTerminalCreate && c.opts.AllowTerminal:
	case c.opts.AllowTerminal && (m.Method == MethodTerminalOutput || m.Method == MethodTerminalWait ||
		m.Method == MethodTerminalKill || m.Method == MethodTerminalRelease):
		c.serveTerminalRequest(m, session)
		return
	case m.Method == MethodReadTextFile && c.opts.AllowFS:
		c.handlers.Add(1)
		go func() {
			defer c.handlers.Done()
			c.serveRead(m)
		}()
		return
	default:
		// fs/* and terminal/* we did not declare; anything else we do not
		// know.
		e := jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: "+m.Method, nil)
		_ = c.peer.Respond(m.ID, nil, e)
		return
	}
	ctx, cancel := context.WithCancelCause(c.base)
	if d := c.opts.QuestionTimeout; d > 0 {
		// Internal cancellation: the Asker's Timeout, answered -32800.
		var stop context.CancelFunc
		ctx, stop = context.WithTimeoutCause(ctx, d, question.ErrTimeout)
		parent := cancel
		cancel = func(err error) { parent(err); stop() }
	}
	oq := &openQuestion{cancel: cancel}
	if m.Method == MethodElicitation {
		// Decided here, in the order the agent wrote: a question scoped to
		// a request of ours still in flight when it arrived belongs to it,
		// and ends with it (endScoped) even if that request's answer is
		// read before the question's goroutine runs.
		oq.call = scopeCall(m.Params, c.peer)
	}
	oq.session = session
	oq.noTurn = noTurn && m.Method == MethodRequestPermission
	c.mu.Lock()
	if _, dup := c.open[m.ID]; dup {
		c.mu.Unlock()
		cancel(nil)
		e := jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "request id already in use", nil)
		_ = c.peer.Respond(m.ID, nil, e)
		return
	}
	c.open[m.ID] = oq
	// Counted now, on the read loop, so that the turn or the request of
	// ours it belongs to returns with its journal complete, however soon
	// the agent answers after it.
	// A request naming a session not ours (refused) belongs to no turn:
	// it is counted in every turn under way, one of which made the agent
	// send it, so that none returns before its refusal is journalled.
	var counted []*turnState
	if t := c.turns[oq.session]; t != nil {
		counted = append(counted, t)
	} else if _, ours := c.cwds[oq.session]; !ours && !oq.call.IsValid() {
		for _, t := range c.turns {
			counted = append(counted, t)
		}
	}
	for _, t := range counted {
		t.asks.begin()
	}
	c.mu.Unlock()
	if oq.call.IsValid() {
		c.scoped.begin()
	}
	c.handlers.Add(1)
	go func() {
		defer c.handlers.Done()
		defer cancel(nil)
		for _, t := range counted {
			defer t.asks.end()
		}
		if oq.call.IsValid() {
			defer c.scoped.end()
		}
		c.askAgent(ctx, m, arrived, oq)
	}()
}

// scopeCall is the request of ours an elicitation's requestId names, if
// it is in flight; the zero ID otherwise.
func scopeCall(params json.RawMessage, p *peer) jsonrpc.ID {
	m, err := wire.ExactMembers(params)
	if err != nil {
		return jsonrpc.ID{}
	}
	raw, ok := m["requestId"]
	var id jsonrpc.ID
	if !ok || id.UnmarshalJSON([]byte(raw)) != nil || !p.InFlight(id) {
		return jsonrpc.ID{}
	}
	return id
}

// withdraw ends an open question of the agent's: $/cancel_request.
func (c *Client) withdraw(id jsonrpc.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if oq := c.open[id]; oq != nil && !oq.claimed && !oq.stopping {
		oq.reason = "withdrawn by " + c.opts.Name + " ($/cancel_request)"
		oq.cancel(question.ErrWithdrawn)
	}
}

// endOpen ends every open question with cause.
func (c *Client) endOpen(cause error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, oq := range c.open {
		oq.cancel(cause)
	}
}

// Close answers every open request of the agent's -32800 (waiting up to
// CloseWait), then stops the agent. A Prompter that ignores its ctx is
// waited for no longer than CloseWait either: nothing hangs.
func (c *Client) Close() error {
	c.closing.Do(func() {
		c.shutdown(question.ErrShutdown)
		c.endOpen(question.ErrShutdown)
		c.killTerminals("", KilledAtClose, true)
		waitBounded(&c.handlers, c.opts.CloseWait)
		if c.conn != nil {
			c.conn.Close()
			<-c.readDone
		}
		// The conn is closed: a handler still answering fails at once.
		waitBounded(&c.handlers, c.opts.CloseWait)
		waitBounded(&c.prompters, c.opts.CloseWait)
	})
	return nil
}

// waitBounded waits for wg up to d.
func waitBounded(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}
