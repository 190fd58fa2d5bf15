package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
)

// Sampling's vocabulary (sampling/createMessage): the request a server
// sends (a 2025 server request, or a 2026-07-28 inputRequests entry) and
// the result we answer with. The request is read by exact member names at
// every depth (DecodeExact, and SamplingMessage's own UnmarshalJSON); the
// result is only ever written by us.

// CreateMessageParams is sampling/createMessage's params as sent.
type CreateMessageParams struct {
	Messages     []SamplingMessage `json:"messages"`
	SystemPrompt string            `json:"systemPrompt,omitempty"`
	// IncludeContext is "none", "thisServer" or "allServers"; the last two
	// are soft-deprecated and need sampling.context, which elicit never
	// declares, so they are shown and ignored.
	IncludeContext string `json:"includeContext,omitempty"`
	// MaxTokens is required; nil when the server left it out.
	MaxTokens *float64 `json:"maxTokens,omitempty"`
	// Temperature is nil when absent: 0 is a temperature too.
	Temperature      *float64          `json:"temperature,omitempty"`
	StopSequences    []string          `json:"stopSequences,omitempty"`
	Metadata         json.RawMessage   `json:"metadata,omitempty"`
	ModelPreferences *ModelPreferences `json:"modelPreferences,omitempty"`
	// Tools and ToolChoice are 2025-11-25's, allowed only when the client
	// declared sampling.tools.
	Tools      []Tool              `json:"tools,omitempty"`
	ToolChoice *SamplingToolChoice `json:"toolChoice,omitempty"`
	// Task is 2025-11-25's receiver-side task request; elicit declares no
	// tasks.requests.sampling, so it is ignored and the request answered
	// as a plain one (the spec's rule).
	Task json.RawMessage `json:"task,omitempty"`
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// ModelPreferences are the server's advisory wishes for the model.
type ModelPreferences struct {
	Hints                []ModelHint `json:"hints,omitempty"`
	CostPriority         *float64    `json:"costPriority,omitempty"`
	SpeedPriority        *float64    `json:"speedPriority,omitempty"`
	IntelligencePriority *float64    `json:"intelligencePriority,omitempty"`
}

// ModelHint is one hint: a model name, or a substring of one.
type ModelHint struct {
	Name string `json:"name,omitempty"`
}

// SamplingToolChoice says how the model may use the offered tools.
type SamplingToolChoice struct {
	// Mode is "auto" (the default, also when ""), "required" or "none".
	Mode string `json:"mode,omitempty"`
}

// The sampling content block types, and the message roles.
const (
	BlockText       = "text"
	BlockImage      = "image"
	BlockAudio      = "audio"
	BlockToolUse    = "tool_use"
	BlockToolResult = "tool_result"
	RoleUser        = "user"
	RoleAssistant   = "assistant"
)

// SamplingMessage is one message of the conversation. Content is one
// block or an array of them on the wire (the array since 2025-11-25);
// here it is always a slice.
type SamplingMessage struct {
	Role    string          `json:"role"`
	Content []SamplingBlock `json:"content"`
	Meta    json.RawMessage `json:"_meta,omitempty"`
}

// UnmarshalJSON reads the message by exact member names, content as one
// block or an array.
func (m *SamplingMessage) UnmarshalJSON(b []byte) error {
	var w struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
		Meta    json.RawMessage `json:"_meta"`
	}
	if err := DecodeExact(b, &w); err != nil {
		return err
	}
	*m = SamplingMessage{Role: w.Role, Meta: w.Meta}
	c := bytes.TrimSpace(w.Content)
	switch {
	case len(c) == 0 || string(c) == "null":
		return fmt.Errorf("message without content")
	case c[0] == '[':
		return DecodeExact(c, &m.Content)
	case c[0] == '{':
		var one SamplingBlock
		if err := DecodeExact(c, &one); err != nil {
			return err
		}
		m.Content = []SamplingBlock{one}
		return nil
	}
	return fmt.Errorf("content must be a block or an array of blocks")
}

// SamplingBlock is one content block of a sampling message: text, image,
// audio, tool_use or tool_result (whose Content holds ordinary content
// blocks: text, image, audio, resource_link, resource).
type SamplingBlock struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
	// Data (base64) and MimeType: image and audio.
	Data     string `json:"data,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
	// ID, Name, Input: tool_use.
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// ToolUseID, Content, StructuredContent, IsError: tool_result.
	ToolUseID         string          `json:"toolUseId,omitempty"`
	Content           []SamplingBlock `json:"content,omitempty"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	// URI: resource_link (and Resource, an embedded resource) inside a
	// tool_result.
	URI      string            `json:"uri,omitempty"`
	Resource *ResourceContents `json:"resource,omitempty"`
	Meta     json.RawMessage   `json:"_meta,omitempty"`
}

// Bytes decodes an image's or audio's data, for saving to a file.
func (b SamplingBlock) Bytes() ([]byte, error) {
	d, err := base64.StdEncoding.DecodeString(b.Data)
	if err != nil {
		return nil, fmt.Errorf("%s data is not base64: %w", b.Type, err)
	}
	return d, nil
}

// Size is the decoded size of an image's or audio's data, in bytes
// (computed from the base64 length; padding counted out).
func (b SamplingBlock) Size() int {
	n := len(b.Data)
	pad := 0
	for i := n - 1; i >= 0 && i >= n-2 && b.Data[i] == '='; i-- {
		pad++
	}
	return n/4*3 - pad + (n%4)*3/4
}

// CreateMessageResult is our answer: the assistant's message, the model
// named, and why it stopped.
type CreateMessageResult struct {
	Role string `json:"role"`
	// Content is one block, or several (2025-11-25: several tool_use).
	Content    []SamplingBlock `json:"-"`
	Model      string          `json:"model"`
	StopReason string          `json:"stopReason,omitempty"`
	Meta       any             `json:"_meta,omitempty"`
}

// MarshalJSON writes one block as an object (every version reads that)
// and several as an array (2025-11-25 and later).
func (r CreateMessageResult) MarshalJSON() ([]byte, error) {
	type plain CreateMessageResult
	var content any = r.Content
	if len(r.Content) == 1 {
		content = r.Content[0]
	}
	return json.Marshal(struct {
		plain
		Content any `json:"content"`
	}{plain(r), content})
}

// The stop reasons the spec names ("toolUse" since 2025-11-25); any other
// string is allowed too.
const (
	StopEndTurn      = "endTurn"
	StopStopSequence = "stopSequence"
	StopMaxTokens    = "maxTokens"
	StopToolUse      = "toolUse"
)
