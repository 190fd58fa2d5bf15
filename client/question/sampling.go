package question

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
)

// Sampling questions: a server's sampling/createMessage, answered by a
// person (or a headless policy) who writes the assistant's reply.

// SamplingModes says what of sampling is in force for a peer: what we
// declared in the negotiated version.
type SamplingModes struct {
	// On: sampling is declared.
	On bool
	// Tools: sampling.tools is declared (2025-11-25 and later), so tools,
	// toolChoice, tool_use and tool_result may come.
	Tools bool
}

// Sampling is one sampling request as a person reviews it.
type Sampling struct {
	Params wire.CreateMessageParams
	// Tools are the offered tools with their parsed input schemas, in the
	// request's order.
	Tools []SamplingTool
	// Raw is the params exactly as sent.
	Raw json.RawMessage
}

// SamplingTool is one tool the request offers the model.
type SamplingTool struct {
	wire.Tool
	// Input is the parsed inputSchema, for the reply's input form and its
	// check; nil when the schema could not be read (any object goes).
	Input *schema.ToolInput
	// InputErr says why Input is nil.
	InputErr string
}

// ToolChoice is the request's toolChoice mode: "auto" when absent.
func (s *Sampling) ToolChoice() string {
	if s.Params.ToolChoice == nil || s.Params.ToolChoice.Mode == "" {
		return "auto"
	}
	return s.Params.ToolChoice.Mode
}

// Tool returns the offered tool named name, or nil.
func (s *Sampling) Tool(name string) *SamplingTool {
	for i := range s.Tools {
		if s.Tools[i].Name == name {
			return &s.Tools[i]
		}
	}
	return nil
}

// LastUserText is the text of the last user message (its text blocks
// joined by newlines), "" if it has none.
func (s *Sampling) LastUserText() string {
	for i := len(s.Params.Messages) - 1; i >= 0; i-- {
		m := s.Params.Messages[i]
		if m.Role != wire.RoleUser {
			continue
		}
		var parts []string
		for _, b := range m.Content {
			if b.Type == wire.BlockText {
				parts = append(parts, b.Text)
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// SampleReply is the assistant's message a person (or policy) writes.
type SampleReply struct {
	// Text is the reply's text; with tool uses, it comes first ("" for
	// none).
	Text string
	// ToolUses are tool_use blocks, each for one of the offered tools.
	ToolUses []ToolUse
	// Model names the model that "generated" it; required.
	Model string
	// StopReason is endTurn, stopSequence, maxTokens, toolUse or another
	// string; "" means endTurn, or toolUse when there are tool uses.
	StopReason string
}

// ToolUse is one tool_use block of a reply.
type ToolUse struct {
	// ID is the tool use's id; "" has the engine make one.
	ID    string
	Name  string
	Input map[string]any
}

// ParseSampling fills q from sampling/createMessage params, or says why
// they are unacceptable (-32602): the spec's message constraints (a user
// message holding tool_result holds nothing else; every assistant
// tool_use is answered by the next user message), and tools only where
// sampling.tools was declared.
func ParseSampling(q *Question, params json.RawMessage, modes SamplingModes) *ParamsError {
	q.Kind, q.Mode = KindSampling, ModeForm
	smp := &Sampling{Raw: params}
	q.Sampling = smp
	if t := bytes.TrimSpace(params); len(t) == 0 || t[0] != '{' {
		return &ParamsError{Msg: "invalid params: sampling/createMessage needs an object"}
	}
	if !modes.On {
		return undeclared("sampling", "invalid params: sampling was not declared by the client")
	}
	p := &smp.Params
	if err := wire.DecodeExact(params, p); err != nil {
		return &ParamsError{Msg: "invalid params: " + err.Error()}
	}
	q.Meta = p.Meta
	q.Message = p.SystemPrompt
	if p.MaxTokens == nil {
		return &ParamsError{Msg: "invalid params: maxTokens is required"}
	}
	if len(p.Messages) == 0 {
		return &ParamsError{Msg: "invalid params: messages must hold at least one message"}
	}
	if (len(p.Tools) > 0 || p.ToolChoice != nil) && !modes.Tools {
		return undeclared("sampling.tools", "invalid params: tools or toolChoice given, but the client did not declare sampling.tools")
	}
	switch smp.ToolChoice() {
	case "auto", "required", "none":
	default:
		return &ParamsError{Msg: fmt.Sprintf("invalid params: unknown toolChoice mode %q", smp.ToolChoice())}
	}
	if smp.ToolChoice() == "required" && len(p.Tools) == 0 {
		return &ParamsError{Msg: `invalid params: toolChoice "required" without tools`}
	}
	if perr := checkMessages(p.Messages, modes.Tools); perr != nil {
		return perr
	}
	seen := map[string]bool{}
	for _, t := range p.Tools {
		if t.Name == "" || seen[t.Name] {
			return &ParamsError{Msg: fmt.Sprintf("invalid params: tool name %q is empty or repeated", t.Name)}
		}
		seen[t.Name] = true
		st := SamplingTool{Tool: t}
		if ti, err := schema.ParseToolInput(t.InputSchema); err == nil {
			st.Input = ti
		} else {
			st.InputErr = err.Error()
		}
		smp.Tools = append(smp.Tools, st)
	}
	return nil
}

// checkMessages holds the messages to the spec's content constraints.
func checkMessages(msgs []wire.SamplingMessage, tools bool) *ParamsError {
	var pending []string // tool_use ids the next user message must answer
	for i, m := range msgs {
		if m.Role != wire.RoleUser && m.Role != wire.RoleAssistant {
			return &ParamsError{Msg: fmt.Sprintf("invalid params: message %d: role %q is neither user nor assistant", i, m.Role)}
		}
		if len(m.Content) == 0 {
			return &ParamsError{Msg: fmt.Sprintf("invalid params: message %d has no content", i)}
		}
		var uses, results []string
		for _, b := range m.Content {
			switch b.Type {
			case wire.BlockText, wire.BlockImage, wire.BlockAudio:
			case wire.BlockToolUse:
				if !tools {
					return &ParamsError{Msg: fmt.Sprintf("invalid params: message %d: tool_use without sampling.tools declared", i)}
				}
				if m.Role != wire.RoleAssistant {
					return &ParamsError{Msg: fmt.Sprintf("invalid params: message %d: tool_use in a user message", i)}
				}
				uses = append(uses, b.ID)
			case wire.BlockToolResult:
				if !tools {
					return &ParamsError{Msg: fmt.Sprintf("invalid params: message %d: tool_result without sampling.tools declared", i)}
				}
				if m.Role != wire.RoleUser {
					return &ParamsError{Msg: fmt.Sprintf("invalid params: message %d: tool_result in an assistant message", i)}
				}
				results = append(results, b.ToolUseID)
			default:
				return &ParamsError{Msg: fmt.Sprintf("invalid params: message %d: unknown content type %q", i, b.Type)}
			}
		}
		if len(results) > 0 && len(results) != len(m.Content) {
			return &ParamsError{Msg: fmt.Sprintf("invalid params: message %d: a user message with tool_result must contain only tool_result blocks", i)}
		}
		if len(pending) > 0 {
			if m.Role != wire.RoleUser || !sameIDs(pending, results) {
				return &ParamsError{Msg: "Tool result missing in request"}
			}
			pending = nil
		} else if len(results) > 0 {
			return &ParamsError{Msg: fmt.Sprintf("invalid params: message %d: tool_result answers no tool_use", i)}
		}
		pending = uses
	}
	return nil
}

// sameIDs reports whether a and b hold the same ids, in any order.
func sameIDs(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	n := map[string]int{}
	for _, x := range a {
		n[x]++
	}
	for _, x := range b {
		if n[x]--; n[x] < 0 {
			return false
		}
	}
	return true
}

// judgeSample checks a sampling answer: a model is named, the reply says
// something, and each tool use is of an offered tool with input that
// passes its schema, as toolChoice allows.
func judgeSample(q *Question, out Outcome) Decision {
	r := out.Sample
	invalid := func(format string, args ...any) Decision {
		return Decision{Outcome: Outcome{Kind: Invalid, Sample: r, Reason: "invalid reply: " + fmt.Sprintf(format, args...)}}
	}
	if r == nil {
		return invalid("an accept without a message")
	}
	if strings.TrimSpace(r.Model) == "" {
		return invalid("no model named")
	}
	if r.Text == "" && len(r.ToolUses) == 0 {
		return invalid("neither text nor a tool use")
	}
	smp := q.Sampling
	switch choice := smp.ToolChoice(); {
	case len(r.ToolUses) > 0 && choice == "none":
		return invalid(`toolChoice is "none", so no tool may be used`)
	case len(r.ToolUses) == 0 && choice == "required":
		return invalid(`toolChoice is "required": use one of the offered tools`)
	}
	for _, u := range r.ToolUses {
		t := smp.Tool(u.Name)
		if t == nil {
			return invalid("tool %q was not offered", u.Name)
		}
		if t.Input != nil {
			if err := t.Input.Validate(u.Input); err != nil {
				return invalid("tool %q: %v", u.Name, err)
			}
		}
	}
	return Decision{Outcome: Outcome{Kind: Accept, Sample: r, Reason: out.Reason}}
}

// samplingKind is the descriptor of sampling/createMessage: answered by
// the assistant's message, counted apart from elicitation, declined
// without a sampling policy.
var samplingKind = kindSpec{
	name:     "sampling",
	method:   wire.MethodCreateMessage,
	declared: func(env Env) bool { return env.Sampling.On },
	parse: func(q *Question, params json.RawMessage, env Env) *ParamsError {
		return ParseSampling(q, params, env.Sampling)
	},
	judge: judgeSample,
	reply: Decision.sampleReply,
	note: func(e *JournalEntry, q *Question, _ Outcome, r *Reply) {
		e.Sampling = &SamplingRecord{}
		if q.Sampling != nil {
			e.Sampling.Request = q.Sampling.Raw
		}
		if r != nil && r.Sampling != nil {
			e.Sampling.Result, e.Sampling.Error = r.Sampling.Result, r.Sampling.Error
		}
	},
	unrouted: Outcome{Kind: Decline, Reason: "no sampling policy"},
	notForm:  "form answers do not answer sampling: a sampling policy is needed",
}
