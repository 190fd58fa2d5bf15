package acp

import (
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/client/wire"
)

// The session/update kinds decoded into typed fields; any other kind is
// kept as Raw and shown plainly.
const (
	UpdateUserMessage    = "user_message_chunk"
	UpdateAgentMessage   = "agent_message_chunk"
	UpdateAgentThought   = "agent_thought_chunk"
	UpdateToolCall       = "tool_call"
	UpdateToolCallUpdate = "tool_call_update"
	UpdatePlan           = "plan"
	UpdateCommands       = "available_commands_update"
	UpdateMode           = "current_mode_update"
	UpdateUsage          = "usage_update"
	UpdateConfigOptions  = "config_option_update"
	UpdateNotice         = "notice"
	UpdateCompaction     = "compaction_update"
	UpdateCompactionText = "compaction_summary_chunk"
)

// Update is one session/update.
type Update struct {
	SessionID string
	// Kind is the sessionUpdate discriminator, as sent.
	Kind string
	// Content is a message or thought chunk's content block.
	Content *ContentBlock
	// ToolCall is a tool_call or tool_call_update (a patch: only ID is
	// sure to be set).
	ToolCall *ToolCall
	Plan     []PlanEntry
	Commands []Command
	ModeID   string
	Usage    *Usage
	// ConfigOptions is a config_option_update's whole set.
	ConfigOptions []ConfigOption
	// Notice is a notice (session.notices).
	Notice *Notice
	// Compaction is a compaction_update or, with Content set, a
	// compaction_summary_chunk (session.compaction).
	Compaction *Compaction
	// Raw is the update object exactly as sent.
	Raw json.RawMessage
	// Known is false for a kind this client does not decode.
	Known bool
	// Cut says what of the update was not decoded or kept (MaxEntries,
	// MaxKeptUpdateBytes); "" when all of it was.
	Cut string
	// Replaced counts the earlier updates of its kind this one replaced
	// in a TurnResult (a plan, the commands…: the latest stands).
	Replaced int
	// entries is how many plan entries or commands were sent.
	entries int
}

// ContentBlock is an ACP content block: Text for type text; Data
// (base64) and MimeType for image and audio; URI and Name (and
// MimeType, Size) for resource_link.
type ContentBlock struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	Data     string `json:"data,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
	URI      string `json:"uri,omitempty"`
	Name     string `json:"name,omitempty"`
	Size     *int64 `json:"size,omitempty"`
}

// ToolCall is a tool call as reported by tool_call and patched by
// tool_call_update. Pointer-free fields empty in a patch are unchanged.
type ToolCall struct {
	ID    string `json:"toolCallId"`
	Title string `json:"title,omitempty"`
	// Name is the tool's programmatic name (v1.25), if given.
	Name      string          `json:"name,omitempty"`
	Kind      string          `json:"kind,omitempty"`
	Status    string          `json:"status,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
	Locations json.RawMessage `json:"locations,omitempty"`
	RawInput  json.RawMessage `json:"rawInput,omitempty"`
	RawOutput json.RawMessage `json:"rawOutput,omitempty"`
}

// Merge applies patch u to t.
func (t *ToolCall) Merge(u *ToolCall) {
	if u.Title != "" {
		t.Title = u.Title
	}
	if u.Name != "" {
		t.Name = u.Name
	}
	if u.Kind != "" {
		t.Kind = u.Kind
	}
	if u.Status != "" {
		t.Status = u.Status
	}
	for _, f := range []struct{ dst, src *json.RawMessage }{
		{&t.Content, &u.Content}, {&t.Locations, &u.Locations}, {&t.RawInput, &u.RawInput}, {&t.RawOutput, &u.RawOutput},
	} {
		if *f.src != nil {
			*f.dst = *f.src
		}
	}
}

// Notice is a notice update: a severity (info, warning, error, or
// another) and a title.
type Notice struct {
	Severity string `json:"severity"`
	Title    string `json:"title"`
}

// Compaction is a compaction_update (Status, and Summary or Error when
// it ended) or a compaction_summary_chunk (Content).
type Compaction struct {
	ID      string          `json:"compactionId"`
	Status  string          `json:"status,omitempty"`
	Summary json.RawMessage `json:"summary,omitempty"`
	Error   string          `json:"error,omitempty"`
	Content *ContentBlock   `json:"content,omitempty"`
}

// PlanEntry is one entry of a plan.
type PlanEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority,omitempty"`
	Status   string `json:"status,omitempty"`
}

// Command is one available slash command; Input's hint, if set, says
// what to type after it.
type Command struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Input       *struct {
		Hint string `json:"hint"`
	} `json:"input,omitempty"`
}

// Usage is a usage_update.
type Usage struct {
	Used int64 `json:"used"`
	Size int64 `json:"size"`
	Cost *struct {
		Amount   float64 `json:"amount"`
		Currency string  `json:"currency"`
	} `json:"cost,omitempty"`
}

// decodeUpdate reads session/update params, by exact member names.
func decodeUpdate(params json.RawMessage) (Update, error) {
	m, err := wire.ExactMembers(params)
	if err != nil {
		return Update{}, fmt.Errorf("session/update: %w", err)
	}
	sid, _, err := wire.ExactString(m, "sessionId")
	if err != nil {
		return Update{}, fmt.Errorf("session/update: sessionId: %w", err)
	}
	raw, ok := m["update"]
	if !ok {
		return Update{}, fmt.Errorf("session/update: no update")
	}
	um, err := wire.ExactMembers([]byte(raw))
	if err != nil {
		return Update{}, fmt.Errorf("session/update: update: %w", err)
	}
	kind, _, err := wire.ExactString(um, "sessionUpdate")
	if err != nil {
		return Update{}, fmt.Errorf("session/update: sessionUpdate: %w", err)
	}
	u := Update{SessionID: sid, Kind: kind, Raw: json.RawMessage(raw), Known: true}
	var derr error
	switch kind {
	case UpdateUserMessage, UpdateAgentMessage, UpdateAgentThought:
		u.Content = &ContentBlock{}
		derr = wire.DecodeExact([]byte(um["content"]), u.Content)
	case UpdateToolCall, UpdateToolCallUpdate:
		u.ToolCall = &ToolCall{}
		derr = wire.DecodeExact([]byte(raw), u.ToolCall)
		if derr == nil && u.ToolCall.ID == "" {
			derr = fmt.Errorf("no toolCallId")
		}
	case UpdatePlan:
		derr = wire.DecodeExact([]byte(um["entries"]), &u.Plan)
		u.entries = len(u.Plan)
		u.Plan = firstEntries(u.Plan, func(e *PlanEntry) { e.Content = cutEntry(e.Content) })
		if u.entries > len(u.Plan) {
			u.Cut = fmt.Sprintf("%d of %d entries decoded", len(u.Plan), u.entries)
		}
	case UpdateCommands:
		derr = wire.DecodeExact([]byte(um["availableCommands"]), &u.Commands)
		u.entries = len(u.Commands)
		u.Commands = firstEntries(u.Commands, func(c *Command) { c.Name, c.Description = cutEntry(c.Name), cutEntry(c.Description) })
		if u.entries > len(u.Commands) {
			u.Cut = fmt.Sprintf("%d of %d commands decoded", len(u.Commands), u.entries)
		}
	case UpdateMode:
		u.ModeID, _, derr = wire.ExactString(um, "currentModeId")
	case UpdateUsage:
		u.Usage = &Usage{}
		derr = wire.DecodeExact([]byte(raw), u.Usage)
	case UpdateConfigOptions:
		derr = wire.DecodeExact([]byte(um["configOptions"]), &u.ConfigOptions)
	case UpdateNotice:
		u.Notice = &Notice{}
		derr = wire.DecodeExact([]byte(raw), u.Notice)
		if derr == nil && u.Notice.Title == "" {
			derr = fmt.Errorf("no title")
		}
	case UpdateCompaction, UpdateCompactionText:
		u.Compaction = &Compaction{}
		derr = wire.DecodeExact([]byte(raw), u.Compaction)
		if derr == nil && u.Compaction.ID == "" {
			derr = fmt.Errorf("no compactionId")
		}
	default:
		u.Known = false
	}
	if derr != nil {
		// Kept, shown plainly: a malformed update is not a reason to end
		// the turn.
		u = Update{SessionID: sid, Kind: kind, Raw: json.RawMessage(raw)}
		return u, fmt.Errorf("session/update %s: %w", kind, derr)
	}
	return u, nil
}
