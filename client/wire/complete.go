package wire

// completion/complete (all versions since 2025-03-26; context since
// 2025-06-18): the server suggests values for a prompt argument or a
// resource template variable being typed.

// Completion reference types.
const (
	RefPrompt   = "ref/prompt"
	RefResource = "ref/resource"
)

// CompleteRef is what is being completed: a prompt (Name) or a resource
// template (URI, the template itself).
type CompleteRef struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
	URI  string `json:"uri,omitempty"`
}

// CompleteParams are completion/complete's params.
type CompleteParams struct {
	Ref      CompleteRef `json:"ref"`
	Argument struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"argument"`
	// Context holds the other arguments filled so far.
	Context *CompleteContext `json:"context,omitempty"`
}

// CompleteContext is the arguments already given.
type CompleteContext struct {
	Arguments map[string]string `json:"arguments,omitempty"`
}

// CompleteResult is completion/complete's result.
type CompleteResult struct {
	Completion Completion `json:"completion"`
}

// Completion is the server's suggestions: at most 100 values; Total may
// count more than were sent, HasMore says so.
type Completion struct {
	Values  []string `json:"values"`
	Total   *int     `json:"total,omitempty"`
	HasMore bool     `json:"hasMore,omitempty"`
}
