package question

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
)

// Headless sampling: policies that write the assistant's reply without a
// person, and Route, which hands each question to the Prompter for its
// kind.

// EchoModel is the model the echo policy names.
const EchoModel = "elicit-echo"

// SamplePolicy is a headless sampling Prompter that answers every
// sampling question the same way. Elicitation questions are cancelled
// (route them elsewhere with Route).
type SamplePolicy int

// The sampling policies.
const (
	// SampleDecline rejects every sampling request (the spec's -1 "User
	// rejected sampling request"; in 2026-07-28 the call is abandoned).
	SampleDecline SamplePolicy = iota
	// SampleEcho replies with the text of the last user message, as model
	// "elicit-echo", stopReason endTurn. A request that requires a tool
	// (toolChoice "required") is declined: echo uses none.
	SampleEcho
)

func (p SamplePolicy) String() string {
	if p == SampleEcho {
		return "echo"
	}
	return "decline"
}

// Prompt implements Prompter.
func (p SamplePolicy) Prompt(_ context.Context, q *Question) Outcome {
	if q.Sampling == nil { // not a sampling question
		return Outcome{Kind: Cancel, Reason: "a sampling policy answers sampling only"}
	}
	if p == SampleDecline {
		return Outcome{Kind: Decline, Reason: "policy: --sample decline"}
	}
	if q.Sampling.ToolChoice() == "required" {
		return Outcome{Kind: Decline, Reason: "policy: echo uses no tool, and the request requires one"}
	}
	text := q.Sampling.LastUserText()
	if text == "" {
		return Outcome{Kind: Decline, Reason: "policy: echo found no text in the last user message"}
	}
	return Outcome{Kind: Accept, Sample: &SampleReply{Text: text, Model: EchoModel, StopReason: "endTurn"}}
}

// SampleEntry is one reply of a sampling file.
type SampleEntry struct {
	Text       string `json:"text"`
	Model      string `json:"model"`
	StopReason string `json:"stopReason"`
	// ToolUse, if set, replies with a tool_use of one of the offered
	// tools (after Text, if any).
	ToolUse *struct {
		Name  string         `json:"name"`
		Input map[string]any `json:"input"`
	} `json:"toolUse,omitempty"`
}

// SampleFile answers sampling questions from a file. See SamplingFile for
// the format.
type SampleFile struct {
	all     *SampleEntry
	tools   map[string]*SampleEntry
	replies []*SampleEntry

	mu   sync.Mutex
	next int // the next of replies to give
}

// SamplingFile loads replies from a JSON file, in one of three shapes:
//
//	{"text": "Paris.", "model": "m", "stopReason": "endTurn"}   one for all
//	{"tools": {"summarize": {"text": …}, …}}                     per owning tool
//	{"replies": [{"text": …}, {"text": …}]}                       in order
//
// "model" defaults to "elicit-file" and "stopReason" to endTurn (toolUse
// with "toolUse": {"name", "input"}). A question the file has no reply
// for (another tool, the replies used up) is declined, saying why.
func SamplingFile(path string) (*SampleFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sampling file: %w", err)
	}
	f, err := ParseSampleFile(b)
	if err != nil {
		return nil, fmt.Errorf("sampling file %s: %w", path, err)
	}
	return f, nil
}

// ParseSampleFile parses the contents of a sampling file (SamplingFile).
func ParseSampleFile(data []byte) (*SampleFile, error) {
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return nil, fmt.Errorf("must be a JSON object")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	f := &SampleFile{}
	entry := func(raw []byte, where string) (*SampleEntry, error) {
		var e SampleEntry
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields() // a misspelt "modle" must not pass silently
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if e.Text == "" && e.ToolUse == nil {
			return nil, fmt.Errorf(`%s: needs "text" or "toolUse"`, where)
		}
		if e.ToolUse != nil && e.ToolUse.Name == "" {
			return nil, fmt.Errorf(`%s: "toolUse" needs a "name"`, where)
		}
		if e.Model == "" {
			e.Model = "elicit-file"
		}
		return &e, nil
	}
	switch {
	case top["tools"] != nil && len(top) == 1:
		var m map[string]json.RawMessage
		if err := json.Unmarshal(top["tools"], &m); err != nil || m == nil {
			return nil, fmt.Errorf(`"tools" must be an object of replies by tool name`)
		}
		f.tools = map[string]*SampleEntry{}
		for name, raw := range m {
			e, err := entry(raw, "tools."+name)
			if err != nil {
				return nil, err
			}
			f.tools[name] = e
		}
	case top["replies"] != nil && len(top) == 1:
		var list []json.RawMessage
		if err := json.Unmarshal(top["replies"], &list); err != nil || len(list) == 0 {
			return nil, fmt.Errorf(`"replies" must be a non-empty array of replies`)
		}
		for i, raw := range list {
			e, err := entry(raw, fmt.Sprintf("replies[%d]", i))
			if err != nil {
				return nil, err
			}
			f.replies = append(f.replies, e)
		}
	default:
		e, err := entry(data, "the reply")
		if err != nil {
			return nil, err
		}
		f.all = e
	}
	return f, nil
}

// Prompt implements Prompter.
func (f *SampleFile) Prompt(_ context.Context, q *Question) Outcome {
	if q.Sampling == nil { // not a sampling question
		return Outcome{Kind: Cancel, Reason: "a sampling file answers sampling only"}
	}
	var e *SampleEntry
	switch {
	case f.all != nil:
		e = f.all
	case f.tools != nil:
		if q.Origin.Kind == OriginToolCall {
			e = f.tools[q.Origin.Name]
		}
		if e == nil {
			return Outcome{Kind: Decline, Reason: fmt.Sprintf("sampling file: no reply for tool %q", q.Origin.Name)}
		}
	default:
		f.mu.Lock()
		if f.next < len(f.replies) {
			e = f.replies[f.next]
			f.next++
		}
		n := f.next
		f.mu.Unlock()
		if e == nil {
			return Outcome{Kind: Decline, Reason: fmt.Sprintf("sampling file: all %d replies were used", n)}
		}
	}
	r := &SampleReply{Text: e.Text, Model: e.Model, StopReason: e.StopReason}
	if e.ToolUse != nil {
		r.ToolUses = []ToolUse{{Name: e.ToolUse.Name, Input: e.ToolUse.Input}}
	}
	return Outcome{Kind: Accept, Sample: r}
}

// Route hands each question to the Prompter for its kind: elicitation
// to --answer's policy, sampling to --sample's, an ACP permission to
// --permission's. A kind without one gets its descriptor's answer
// (elicitation is cancelled, sampling declined). A Route is built once
// and not changed while it answers.
type Route map[Kind]Prompter

// Prompt implements Prompter.
func (r Route) Prompt(ctx context.Context, q *Question) Outcome {
	p := r[q.Kind]
	if p == nil {
		return q.Kind.spec().unrouted
	}
	return p.Prompt(ctx, q)
}

func (r Route) immediateFor(q *Question) bool {
	p := r[q.Kind]
	return p == nil || isImmediate(p, q)
}

func (SamplePolicy) immediate() {}
func (*SampleFile) immediate()  {}

var (
	_ Prompter  = SampleEcho
	_ Prompter  = (*SampleFile)(nil)
	_ Prompter  = Route{}
	_ Immediate = SampleEcho
	_ Immediate = (*SampleFile)(nil)
)
