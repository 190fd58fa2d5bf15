package client

import (
	"encoding/json"
	"fmt"
	"time"
)

// Tool is one entry of tools/list.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  wire.ToolAnnotations `json:"annotations,omitzero"`
	Execution    wire.ToolExecution   `json:"execution,omitzero"`
}

// ToolAnnotations are the server's hints about a tool (untrusted).
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// ToolExecution says how a tool may run (2025-11-25 tasks).
type ToolExecution struct {
	// TaskSupport is "forbidden" (or ""), "optional" or "required".
	TaskSupport string `json:"taskSupport,omitempty"`
}

// CallToolResult is a tools/call result.
type CallToolResult struct {
	Content           []wire.ContentBlock  `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	// Raw is the whole result exactly as sent.
	Raw json.RawMessage `json:"-"`
}

// Text joins the text blocks of the result, one per line.
func (r *wire.CallToolResult) Text() string {
	var out string
	for _, b := range r.Content {
		if b.Type == "text" {
			if out != "" {
				out += "\n"
			}
			out += b.Text
		}
	}
	return out
}

// ContentBlock is one block of content: text, image, audio, resource_link
// or resource. The typed fields hold what the type defines; Raw keeps the
// block exactly as sent, for types we do not know.
type ContentBlock struct {
	Type string `json:"type"`
	// Text is set for "text".
	Text string `json:"text,omitempty"`
	// Data (base64) and MimeType are set for "image" and "audio";
	// MimeType also for "resource_link".
	Data     string `json:"data,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
	// URI, Name, Title, Description and Size are set for "resource_link".
	URI         string `json:"uri,omitempty"`
	Name        string `json:"name,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Size        *int64 `json:"size,omitempty"`
	// Resource is set for "resource" (an embedded resource).
	Resource    *wire.ResourceContents `json:"resource,omitempty"`
	Annotations json.RawMessage   `json:"annotations,omitempty"`
	Raw         json.RawMessage   `json:"-"`
}

// UnmarshalJSON keeps the raw block beside the typed fields. A block whose
// known fields have unexpected types still decodes: Type and Raw are kept.
func (b *wire.ContentBlock) UnmarshalJSON(data []byte) error {
	type plain wire.ContentBlock
	var p plain
	if err := wire.DecodeExact(data, &p); err != nil { // "Text" is not text
		var t struct {
			Type string `json:"type"`
		}
		if wire.DecodeExact(data, &t) != nil {
			return fmt.Errorf("content block: %w", err)
		}
		p = plain{Type: t.Type}
	}
	*b = wire.ContentBlock(p)
	b.Raw = append(json.RawMessage(nil), data...)
	return nil
}

// Resource is one entry of resources/list.
type Resource struct {
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MimeType    string          `json:"mimeType,omitempty"`
	Size        *int64          `json:"size,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
}

// ResourceContents is one item of resources/read, or an embedded
// resource: Text or Blob (base64) is set.
type ResourceContents struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
}

// ServerPrompt is one entry of prompts/list (an MCP prompt template; not
// to be confused with Prompt, a question for a person).
type ServerPrompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []wire.PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument of a ServerPrompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// GetPromptResult is a prompts/get result.
type GetPromptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []wire.PromptMessage `json:"messages"`
}

// PromptMessage is one message of a GetPromptResult.
type PromptMessage struct {
	Role    string       `json:"role"`
	Content wire.ContentBlock `json:"content"`
}

// CallOptions tunes one CallTool.
type CallOptions struct {
	// OnProgress is called for each notifications/progress of this call,
	// in order, from the session's dispatcher goroutine (it must not
	// block long). Under a flood some may be dropped (see Event).
	OnProgress func(CallProgress)

	// The task options (2025-11-25; the extension lets the server decide,
	// and ignores them). See the package doc, Tasks.

	// AsTask chooses whether a tool whose execution.taskSupport is
	// "optional" runs as a task; nil runs it as one when the server
	// declared tasks.requests.tools.call. "required" tools always run as
	// tasks, "forbidden" ones never.
	AsTask *bool
	// TaskSupport is the tool's execution.taskSupport, when the caller
	// knows it; "" takes it from the session's last ListTools (listing the
	// tools once if it never did).
	TaskSupport string
	// TaskTTL is the ttl to ask for; 0 means DefaultTaskTTL.
	TaskTTL time.Duration
}
