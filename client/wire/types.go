package wire

import (
	"encoding/json"
	"fmt"
)

// Tool is one entry of tools/list.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  ToolAnnotations `json:"annotations,omitzero"`
	Execution    ToolExecution   `json:"execution,omitzero"`
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
	Content           []ContentBlock  `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	// Raw is the whole result exactly as sent.
	Raw json.RawMessage `json:"-"`
}

// Text joins the text blocks of the result, one per line.
func (r *CallToolResult) Text() string {
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
	Resource    *ResourceContents `json:"resource,omitempty"`
	Annotations json.RawMessage   `json:"annotations,omitempty"`
	Raw         json.RawMessage   `json:"-"`
}

// UnmarshalJSON keeps the raw block beside the typed fields. A block whose
// known fields have unexpected types still decodes: Type and Raw are kept.
func (b *ContentBlock) UnmarshalJSON(data []byte) error {
	type plain ContentBlock
	var p plain
	if err := DecodeExact(data, &p); err != nil { // "Text" is not text
		var t struct {
			Type string `json:"type"`
		}
		if DecodeExact(data, &t) != nil {
			return fmt.Errorf("content block: %w", err)
		}
		p = plain{Type: t.Type}
	}
	*b = ContentBlock(p)
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

// Prompt is one entry of prompts/list: an MCP prompt template, not a
// question for a person (those are client/question's).
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument of a Prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// GetPromptResult is a prompts/get result.
type GetPromptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
}

// PromptMessage is one message of a GetPromptResult.
type PromptMessage struct {
	Role    string       `json:"role"`
	Content ContentBlock `json:"content"`
}
