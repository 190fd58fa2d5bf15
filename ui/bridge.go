package ui

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
)

// Bridge connects the engine's goroutines to the bubbletea event loop. It
// implements client.Prompter (lane 1) and client.Observer (lane 2), and
// takes traffic and stderr (lane 3) through Frame and Stderr. See
// AGENTS.md for the lanes.
type Bridge struct {
	coalesce time.Duration

	attached chan struct{} // closed by the first Attach or Detach
	closed   chan struct{} // closed by Close
	once     sync.Once
	woken    sync.Once // closes attached

	// streams holds lane 3; the views read it. agents holds the ACP
	// agents' transcripts, lane 3 as well.
	streams *streamStore
	agents  *agentStore

	mu sync.Mutex
	// send delivers to the attached program; nil before the first
	// Attach and after a Detach. gen counts the Attaches, so a prompt
	// knows which program has been shown it.
	send func(tea.Msg)
	gen  int
	// detached: Detach was called (the streams grew unwatched since).
	detached bool
	// prompts are the prompts waiting for an answer, in the order asked
	// (bridge_prompts.go): a program that attaches is shown them all.
	prompts promptTable
	timer   *time.Timer // armed while a streamsChangedMsg is due
	stopped bool
	// findings: FindingsChanged was called since the last streamsChangedMsg.
	findings bool
	// onOpen, when set (tests), is told of each prompt once it is held.
	onOpen func(question.Key)
}

// BridgeOptions tune a Bridge; the zero value is what cmd/elicit uses, and
// tests shrink the sizes.
type BridgeOptions struct {
	// TrafficSize is how many frames the traffic ring keeps (10,000).
	TrafficSize int
	// LogSize is how many stderr and log lines the log ring keeps (5,000).
	LogSize int
	// Coalesce is how long stream writes gather before one redraw (33 ms).
	Coalesce time.Duration
}

// NewBridge returns a Bridge; call Attach before the engine starts.
func NewBridge(opts BridgeOptions) *Bridge {
	if opts.TrafficSize <= 0 {
		opts.TrafficSize = 10000
	}
	if opts.LogSize <= 0 {
		opts.LogSize = 5000
	}
	if opts.Coalesce <= 0 {
		opts.Coalesce = 33 * time.Millisecond
	}
	b := &Bridge{
		coalesce: opts.Coalesce,
		attached: make(chan struct{}),
		closed:   make(chan struct{}),
	}
	b.streams = newStreamStore(opts.TrafficSize, opts.LogSize, b.arm)
	b.agents = newAgentStore(b.arm)
	return b
}

var (
	_ question.Prompter = (*Bridge)(nil)
	_ client.Observer   = (*Bridge)(nil)
)

// Attach sets the function that delivers messages to the program
// (tea.Program.Send, or a test's collector). Lane-2 messages wait for the
// first Attach; prompts asked before it are shown then. After a Detach,
// Attach may be called again for the next program: it is shown every
// prompt still open, and the streams (kept meanwhile) are read again.
func (b *Bridge) Attach(send func(tea.Msg)) {
	b.mu.Lock()
	if b.send != nil {
		b.mu.Unlock()
		return // one program at a time: Detach first
	}
	b.send = send
	b.gen++
	gen := b.gen
	reshow := b.prompts.reshow(gen)
	again := b.detached
	b.findings = b.findings || again
	b.mu.Unlock()
	b.wake()
	if again {
		// The rings grew while nobody watched: the tab counts and the
		// findings are read afresh.
		b.arm()
	}
	if len(reshow) > 0 {
		// Not here: a program's Send blocks until its Run has started,
		// and Attach comes before Run. It ends when the program does.
		go b.showAll(gen, send, reshow)
	}
}

// Detach ends the attached program's part: nothing more is delivered to
// it, and until the next Attach the engine is never held up (lane-2
// messages are dropped: the next program reads the engine's state
// afresh). Open prompts stay open and wait for the next program. A
// Bridge that should not hold the engine before its first program
// (the hub's) is detached right after NewBridge.
func (b *Bridge) Detach() {
	b.mu.Lock()
	b.send = nil
	b.detached = true
	b.mu.Unlock()
	b.wake()
}

// wake lets messages waiting for the first Attach go (or be dropped).
func (b *Bridge) wake() { b.woken.Do(func() { close(b.attached) }) }

// Close stops the bridge: no more messages are delivered, pending prompts
// see their context (the engine's) end, and the coalescing timer stops.
func (b *Bridge) Close() {
	b.once.Do(func() { close(b.closed) })
	b.mu.Lock()
	b.stopped = true
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	b.mu.Unlock()
}

// deliver sends msg to the attached program, waiting for the first
// Attach; it gives up if the bridge is closed, it is detached, or ctx
// ends first. It reports whether the message went out.
func (b *Bridge) deliver(ctx context.Context, msg tea.Msg) bool {
	select {
	case <-b.attached:
	case <-b.closed:
		return false
	case <-ctx.Done():
		return false
	}
	select {
	case <-b.closed:
		return false
	default:
	}
	b.mu.Lock()
	send := b.send
	b.mu.Unlock()
	if send == nil {
		return false
	}
	send(msg)
	return true
}

// Prompt implements client.Prompter (lane 1: blocking, lossless, keyed). It
// opens a pane in the attached program (or in the next one to attach) and
// waits for the person's answer or for ctx to end. When ctx ends first,
// whatever is returned is ignored by the engine, which records the cause;
// the pane is told to stop taking input.
func (b *Bridge) Prompt(ctx context.Context, p *question.Question) question.Outcome {
	e, msg, send := b.hold(p)
	if e == nil {
		return question.Outcome{Kind: question.Cancel, Reason: "UI closed"}
	}
	if send != nil {
		send(msg)
	}
	return b.await(ctx, e)
}

// Event implements client.Observer (lane 2: lossless and ordered; it blocks
// the session's dispatcher, never the wire). High-rate log messages go to
// the log ring instead (lane 3).
func (b *Bridge) Event(e client.Event) {
	switch e := e.(type) {
	case client.PromptOpened, client.CallProgress:
		// Prompt brings the prompt with its reply channel; progress of
		// the UI's calls comes through their onProgress (lane 3).
		return
	case client.LogMessage:
		b.streams.pushLog(LogEntry{Time: e.Time, Server: e.Server, Level: e.Level, Logger: e.Logger,
			Text: logText(e.Data), Dropped: e.Dropped})
		return
	case client.Notice:
		if !b.deliver(context.Background(), eventMsg{e: e}) {
			// The log view records notices as they come (logs.go); with
			// no program attached the ring takes it here.
			b.streams.pushLog(LogEntry{Time: e.Time, Server: e.Server, Level: "note", Text: e.Text, Ours: true})
		}
		return
	}
	b.deliver(context.Background(), eventMsg{e: e})
}

// logText is a log message's data as a line: a JSON string unquoted,
// anything else as sent.
func logText(data json.RawMessage) string {
	var s string
	if json.Unmarshal(data, &s) == nil {
		return s
	}
	return string(data)
}

// Frame records one wire frame of server for the traffic view (lane 3). It
// never blocks: it copies the frame into the ring and arms the coalescing
// timer. Frames are summarised here, off the UI goroutine.
func (b *Bridge) Frame(server string, f client.Frame) {
	e := TrafficEntry{Time: f.Time, Server: server, In: f.Dir == client.In,
		Raw: append([]byte(nil), f.Raw...), HTTP: copyHTTP(f.HTTP)}
	if f.Err != nil {
		e.Err = f.Err.Error()
	}
	e.summarise()
	b.streams.pushFrame(e)
}

// Stderr records one stderr line of a server's process (lane 3).
func (b *Bridge) Stderr(server, line string) {
	b.streams.pushLog(LogEntry{Time: time.Now(), Server: server, Level: "stderr", Text: line})
}

// AgentUpdate records one session/update of an agent (lane 3). It never
// blocks: the engine calls it on the agent's read loop.
func (b *Bridge) AgentUpdate(agent string, u AgentUpdate) { b.agents.push(agent, u) }

// AgentsChanged says an agent's state changed (connecting, ready,
// failed, a session opened): lane 2, so the agent view asks the engine
// for the list again.
func (b *Bridge) AgentsChanged() { b.deliver(context.Background(), agentsChangedMsg{}) }

// FindingsChanged says the engine's findings moved (lane 3: the findings
// view takes a new snapshot on the next coalesced tick). It never blocks,
// so the Recorder may call it from the read loop.
func (b *Bridge) FindingsChanged() {
	b.mu.Lock()
	b.findings = true
	b.mu.Unlock()
	b.arm()
}

// arm arms the coalescing timer after a quiet spell, so a flood of writes
// costs one message per period and an idle bridge runs nothing.
func (b *Bridge) arm() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.timer != nil || b.stopped {
		return
	}
	b.timer = time.AfterFunc(b.coalesce, func() {
		b.mu.Lock()
		b.timer = nil
		stopped, findings := b.stopped, b.findings
		b.findings = false
		b.mu.Unlock()
		if !stopped {
			b.deliver(context.Background(), streamsChangedMsg{findings: findings})
		}
	})
}
