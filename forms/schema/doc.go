// Package schema reads the JSON Schemas an MCP server sends and checks
// answers against them. It is pure: no terminal, no charm, no protocol; the
// client engine and the form builder both sit on top of it.
//
// # Elicitation schemas
//
// [Parse] checks an elicitation/create requestedSchema against the MCP
// subset (a flat object of string, number, integer, boolean, single-select
// and multi-select properties) and returns a [Schema] whose Properties keep
// the order the server wrote them in. A schema outside the subset gets a
// [*SchemaError] naming the property and the rule, which the engine answers
// with JSON-RPC -32602:
//
//	s, err := schema.Parse(params.RequestedSchema, schema.Subset2025_11_25)
//	if err != nil {
//		return err // a *SchemaError: the engine answers -32602 with it
//	}
//	content := s.Defaults()        // pre-fill the form
//	// … the user edits content …
//	if err := s.Validate(content); err != nil {
//		// err is a *ValidationError: `"age": must be at most 150`
//	}
//
// What Parse accepts, beyond the letter of the subset:
//
//   - Subset2025_06_18 only refuses arrays (multi-select), since 2025-06-18
//     answers cannot carry them. Defaults on strings, numbers and enums,
//     which that version does not define but servers in the wild send, are
//     accepted and checked as in 2025-11-25: they are harmless and a later
//     version allows them. Titled oneOf selects are accepted too: their
//     answer is a plain string.
//   - Keywords outside the subset ($schema, $defs, additionalProperties,
//     pattern, exclusiveMinimum, x-… and so on) are tolerated and enforced
//     by Validate through JSON Schema. pattern is enforced with a readable
//     message when it compiles as RE2 and ignored when it does not (servers
//     write ECMA-262 look-arounds). An unknown $schema dialect is read as
//     2020-12, the MCP default.
//   - A select written without type:"string" is still a select, and
//     items.oneOf is read like items.anyOf.
//
// What Parse refuses: a root that is not type:"object"; nested objects,
// unknown or multiple types, $ref and composition keywords (allOf, anyOf,
// not, if/then/else; oneOf except as a titled select); arrays whose items
// are not enum or anyOf options; empty or repeated options; a format other
// than email, uri, date and date-time; counts that are not non-negative
// integers; min above max; integer bounds or defaults that are fractional
// or beyond ±(2^53-1) (refused, never rounded); a default that would not
// itself pass Validate; and a document the JSON Schema compiler rejects.
//
// # Answers
//
// [Schema.Validate] and [ValidateValue] share one set of rules, so the form
// builder's live field checks and the engine's final check agree. Values
// may be any Go number type or json.Number, string, bool, []string or
// []any; they are normalised first. Our own rules run first, in schema
// order, with messages a person can act on (formats are asserted: a date
// like 2025-02-30 is refused because February has 28 days); then the whole
// document is checked with github.com/santhosh-tekuri/jsonschema/v6 for
// anything else the server wrote (meta-schema validation of the document,
// every draft from 04 to 2020-12, formats asserted, error locations as JSON
// Pointers). The compiler never reads files or the network: references
// outside the document fail. validator_test.go pins what the library gives
// that google/jsonschema-go (linked through go-sdk) does not, for the day
// its start-up cost (BENCHMARKS.md) makes someone weigh a change.
//
// # Tool input schemas
//
// [ParseToolInput] reads a tool's inputSchema (full JSON Schema) into
// [ToolInput] fields: primitives and selects become the same kinds as in
// elicitation, arrays of primitives become [List], and anything deeper
// becomes [JSON], a JSON text field validated against its sub-schema with
// local $refs resolved, whose [Property].Template is a skeleton to fill
// in (an object's required members, an array's one item; bounded in
// depth and size). Required arguments come first, each group in
// document order.
//
// # Whole documents
//
// [CompileDocument] compiles any JSON Schema document (a tool's
// outputSchema) to judge JSON values with [Document.Check]: a
// [*MismatchError] lists where (a JSON Pointer) and why, at most ten
// failures and a count of the rest; a union that matched no branch is one
// failure at its place. The same guards hold (no files, no network, an
// unknown dialect read as 2020-12, non-RE2 patterns match anything), but
// formats are annotations, as 2020-12 has them by default: a server's
// output is judged by the standard, not by the stricter rules our forms
// apply to what a person types. [FitValue] types a value (an earlier
// call's, or one decoded from JSON text) as a property's Default, so it
// can start a form's field.
//
// # Caching compiled schemas
//
// Compiling is most of what Parse costs (the compiler validates every
// document against the draft meta-schema first). [ParseWith] takes a
// [Cache], which the caller owns (the client keeps one per session), and
// shares one compiled validator among documents that differ only in
// annotations: title, description, default, examples, $comment, readOnly,
// writeOnly, deprecated and enumNames at schema positions. Annotations
// never change what JSON Schema accepts, so the shared validator accepts
// and refuses exactly what each document's own would; annotations.go gives
// the rules that keep this exact (property names are never stripped, nor
// annotations of the wrong type, nor anything in a document with a $ref).
// A server that asks the same form with a new default each time pays one
// compile, not one per prompt.
//
// # Concurrency
//
// A Schema or ToolInput is immutable after parsing, and its methods are
// safe for concurrent use; the compiled JSON Schema is built once and
// cached. A Cache is safe for concurrent use. Nothing in the package keeps
// mutable global state.
package schema
