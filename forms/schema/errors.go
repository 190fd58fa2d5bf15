package schema

import (
	"fmt"
	"strconv"
)

// SchemaError says why Parse or ParseToolInput refused a schema. The engine
// answers it with JSON-RPC -32602 (invalid params).
type SchemaError struct {
	// Doc names the document: "" for an elicitation requestedSchema,
	// "inputSchema" for a tool's.
	Doc string
	// Property is the offending property, "" when the problem is the
	// schema as a whole.
	Property string
	// Rule is the rule broken, in words: "minimum must be a number".
	Rule string
}

func (e *SchemaError) Error() string {
	doc := e.Doc
	if doc == "" {
		doc = "requestedSchema"
	}
	if e.Property == "" {
		return doc + ": " + e.Rule
	}
	if e.Doc != "" {
		return doc + ": property " + strconv.Quote(e.Property) + ": " + e.Rule
	}
	return "property " + strconv.Quote(e.Property) + ": " + e.Rule
}

// ValidationError says why an answer does not fit its schema.
type ValidationError struct {
	// Property is the first offending property, "" when the problem is the
	// content as a whole.
	Property string
	// Reason is readable by a person: "must be at most 150".
	Reason string
}

func (e *ValidationError) Error() string {
	if e.Property == "" {
		return "content: " + e.Reason
	}
	return strconv.Quote(e.Property) + ": " + e.Reason
}

func schemaErr(prop, format string, args ...any) *SchemaError {
	return &SchemaError{Property: prop, Rule: fmt.Sprintf(format, args...)}
}
