package schema

import (
	"encoding/json"
	"regexp"
)

// Subset selects which MCP elicitation rules Parse applies.
type Subset int

// The subsets.
const (
	// Subset2025_11_25 is the subset of 2025-11-25 and 2026-07-28: defaults on
	// every type, titled and untitled single and multi select.
	Subset2025_11_25 Subset = iota
	// Subset2025_06_18 is the first subset: no arrays, default only on
	// boolean, enum with optional enumNames. Parse is lenient with it: see
	// the package documentation.
	Subset2025_06_18
)

// String returns the protocol version the subset belongs to.
func (s Subset) String() string {
	switch s {
	case Subset2025_11_25:
		return "2025-11-25"
	case Subset2025_06_18:
		return "2025-06-18"
	}
	return "Subset(?)"
}

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

	// List is an array of primitives (tool input only); Items says which.
	List
	// JSON is anything deeper (tool input only): an object, an array of
	// objects, a union. The user types JSON text; see DecodeJSON.
	JSON
)

// String returns the kind's lower-case name.
func (k Kind) String() string {
	switch k {
	case String:
		return "string"
	case Number:
		return "number"
	case Integer:
		return "integer"
	case Boolean:
		return "boolean"
	case Enum:
		return "enum"
	case MultiEnum:
		return "multi-enum"
	case List:
		return "list"
	case JSON:
		return "json"
	}
	return "Kind(?)"
}

// Option is one choice of an Enum or MultiEnum: Value is sent, Label shown.
type Option struct {
	Value string
	Label string
}

// Property is one top-level property of a requestedSchema (or one argument
// of a tool's inputSchema).
type Property struct {
	Name        string
	Title       string
	Description string
	Kind        Kind
	Required    bool

	// String.
	MinLength *int
	MaxLength *int
	// Format is "", "email", "uri", "date" or "date-time" in elicitation;
	// a tool schema may carry any JSON Schema format.
	Format string
	// Pattern is the regular expression the value must match, "" for none.
	// Not part of the MCP subset but tolerated and honoured when it compiles
	// as a Go regexp (RE2); one that does not compile is ignored.
	Pattern string

	// Number and Integer.
	Minimum *float64
	Maximum *float64

	// Enum and MultiEnum.
	Options  []Option
	MinItems *int // also List
	MaxItems *int // also List

	// Items is the kind of a List's elements: String, Number, Integer or
	// Boolean.
	Items Kind

	// Default is the typed default: string, float64 (Number), int64
	// (Integer), bool, []string (MultiEnum), []any of the Items type (List)
	// or a decoded JSON value (JSON); nil when absent.
	Default any
	// Example is the first of the tool schema's "examples", typed like
	// Default; nil when absent. Elicitation schemas do not carry it.
	Example any
	// Template is a JSON argument's skeleton, built from its schema, for
	// a person to fill in: an object with its required members, an array
	// with one item, each value of its type (compact JSON, members in the
	// order "required" names them); nil when the schema gives no shape.
	Template json.RawMessage

	// Raw is the property's schema exactly as sent (for a tool argument
	// written as a $ref, the $ref itself: the kind and constraints above come
	// from what it names).
	Raw json.RawMessage

	// lib is the compiled document this property belongs to; set by Parse
	// and ParseToolInput, nil for a Property built by hand.
	lib *compiled
	// re is Pattern compiled, set by Parse and ParseToolInput.
	re *regexp.Regexp
}

// Schema is a parsed requestedSchema: a flat object of primitive properties
// in the order the server wrote them. A Schema must not be copied after
// first use (it caches its compiled form).
type Schema struct {
	Properties []*Property
	// Raw is the schema exactly as sent.
	Raw json.RawMessage

	lib compiled
}

// Property returns the property called name, or nil.
func (s *Schema) Property(name string) *Property {
	for _, p := range s.Properties {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// pattern returns Pattern compiled, compiling it now for a Property built
// by hand.
func (p *Property) pattern() *regexp.Regexp {
	if p.Pattern == "" {
		return nil
	}
	if p.re != nil {
		return p.re
	}
	re, err := regexp.Compile(p.Pattern)
	if err != nil {
		return nil
	}
	return re
}
