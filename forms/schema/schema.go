package schema

import "encoding/json"

// Subset selects which MCP elicitation rules Parse applies.
type Subset int

// The subsets.
const (
	// Subset2025_11_25 is the subset of 2025-11-25 and 2026-07-28: defaults on
	// every type, titled and untitled single and multi select.
	Subset2025_11_25 Subset = iota
	// Subset2025_06_18 is the first subset: no arrays, default only on
	// boolean, enum with optional enumNames.
	Subset2025_06_18
)

// Kind is what a property asks for.
type Kind int

// The kinds.
const (
	String Kind = iota
	Number
	Integer
	Boolean
	Enum      // single select: enum, oneOf of {const,title}, or enum+enumNames
	MultiEnum // multi select: array with items.enum or items.anyOf
)

// Option is one choice of an Enum or MultiEnum: Value is sent, Label shown.
type Option struct {
	Value string
	Label string
}

// Property is one top-level property of a requestedSchema.
type Property struct {
	Name        string
	Title       string
	Description string
	Kind        Kind
	Required    bool

	// String.
	MinLength *int
	MaxLength *int
	Format    string // "", "email", "uri", "date", "date-time"

	// Number and Integer.
	Minimum *float64
	Maximum *float64

	// Enum and MultiEnum.
	Options  []Option
	MinItems *int
	MaxItems *int

	// Default is the typed default: string, float64 (Number), int64
	// (Integer), bool, or []string (MultiEnum); nil when absent.
	Default any

	// Raw is the property's schema exactly as sent.
	Raw json.RawMessage
}

// Schema is a parsed requestedSchema: a flat object of primitive properties
// in the order the server wrote them.
type Schema struct {
	Properties []*Property
	// Raw is the schema exactly as sent.
	Raw json.RawMessage
}
