package wire

import "encoding/json"

// Tool is one entry of tools/list.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  ToolAnnotations `json:"annotations,omitzero"`
	Execution    ToolExecution   `json:"execution,omitzero"`
	// Icons (2025-11-25) and _meta are kept as sent, to be shown: a
	// malformed icon must not fail the whole tools/list.
	Icons json.RawMessage `json:"icons,omitempty"`
	Meta  json.RawMessage `json:"_meta,omitempty"`
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

// ResourceTemplate is one entry of resources/templates/list: a family of
// resources named by an RFC 6570 URI template (untrusted text, like the
// rest of a listing).
type ResourceTemplate struct {
	URITemplate string          `json:"uriTemplate"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MimeType    string          `json:"mimeType,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	Icons       json.RawMessage `json:"icons,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// ResourceContents is one item of resources/read, or an embedded
// resource: Text or Blob (base64) is set.
type ResourceContents struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
	// Meta is _meta as sent (an MCP App's _meta.ui: its CSP, apps.go).
	Meta json.RawMessage `json:"_meta,omitempty"`
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
