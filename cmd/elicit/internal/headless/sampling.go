package headless

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/themes/untrusted"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// What a headless call says of sampling requests and of -32042 retries.

// SamplingOutput is one sampling request of the JSON result: what the
// server asked (its params as sent) and what went back.
type SamplingOutput struct {
	Key     string `json:"key"`
	Outcome string `json:"outcome"`
	// Sent is "result", "error -1", "error -32602" or "" (nothing).
	Sent    string          `json:"sent"`
	Request json.RawMessage `json:"request,omitempty"`
	// Result is the CreateMessageResult sent, Error the error sent.
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *jsonrpc.Error  `json:"error,omitempty"`
	Reason    string          `json:"reason,omitempty"`
	LatencyMS int64           `json:"latencyMs"`
}

func samplingEntry(e question.JournalEntry) SamplingOutput {
	o := SamplingOutput{Key: e.Key.String(), Outcome: e.Kind.String(), Sent: e.Sent, Reason: e.Reason, LatencyMS: e.Latency.Milliseconds()}
	if r := e.Sampling; r != nil {
		if json.Valid(r.Request) {
			o.Request = r.Request
		}
		o.Result, o.Error = r.Result, r.Error
	}
	return o
}

// URLRetryOutput is one -32042 of the call and what came of it.
type URLRetryOutput struct {
	Elicitations []string `json:"elicitations"` // the questions' keys
	Completed    []string `json:"completed"`    // whose completion came
	Retried      bool     `json:"retried"`
	Why          string   `json:"why"`
}

// urlRetries collects the URLRetry events of a call.
type urlRetries struct {
	mu    sync.Mutex
	items []URLRetryOutput
}

func (u *urlRetries) Event(e client.Event) {
	ev, ok := e.(client.URLRetry)
	if !ok {
		return
	}
	o := URLRetryOutput{Elicitations: []string{}, Completed: []string{}, Retried: ev.Retried, Why: ev.Why}
	for _, k := range ev.Keys {
		o.Elicitations = append(o.Elicitations, k.String())
	}
	for _, k := range ev.Completed {
		o.Completed = append(o.Completed, k.String())
	}
	u.mu.Lock()
	u.items = append(u.items, o)
	u.mu.Unlock()
}

func (u *urlRetries) list() []URLRetryOutput {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]URLRetryOutput(nil), u.items...)
}

// headlessObserver prints on stderr what a person running a headless
// command must see at once: the URL a question asks them to open. It
// hands every event on to next.
type headlessObserver struct {
	name   string
	stderr io.Writer
	next   client.Observer
}

func (o headlessObserver) Event(e client.Event) {
	if p, ok := e.(client.PromptOpened); ok && p.Prompt.Mode == question.ModeURL { // only an elicitation has a URL mode
		fmt.Fprintf(o.stderr, "[%s] %s asks you to open %s (%s)\n", o.name, untrusted.Line(p.Prompt.Key.String()),
			untrusted.Line(p.Prompt.URL), untrusted.Line(p.Prompt.Message))
	}
	if o.next != nil {
		o.next.Event(e)
	}
}
