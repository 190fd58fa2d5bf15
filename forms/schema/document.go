package schema

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/message"
)

// Document is a full JSON Schema document compiled to check JSON values
// against it: a tool's outputSchema, which its results' structuredContent
// must conform to. Unlike Parse and ParseToolInput it reads nothing into
// fields; it only judges values. It is safe for concurrent use.
type Document struct {
	// Raw is the document exactly as sent.
	Raw json.RawMessage

	sch *jsonschema.Schema
}

// maxProblems bounds how many failures a MismatchError lists: a value
// wrong in a thousand places says so in a few lines.
const maxProblems = 10

// CompileDocument compiles a JSON Schema document, with the same guards
// as the form schemas (nothing is loaded from files or the network, an
// unknown $schema dialect is read as 2020-12, patterns that are not RE2
// match everything), except that formats are annotations, as the 2020-12
// dialect has them by default: a server's output is judged by the
// standard's rules, not the stricter ones our forms apply to what a person
// types.
func CompileDocument(raw json.RawMessage) (*Document, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("decoding schema: %w", err)
	}
	if m, ok := doc.(map[string]any); ok {
		doc = lenientRoot(m)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	c.UseRegexpEngine(lenientRegexp)
	if err := c.AddResource(docURL, doc); err != nil {
		return nil, fmt.Errorf("adding schema: %w", err)
	}
	sch, err := c.Compile(docURL)
	if err != nil {
		return nil, fmt.Errorf("compiling schema: %s", oneLine(err))
	}
	return &Document{Raw: raw, sch: sch}, nil
}

// Check validates a JSON text against the document: nil when it conforms,
// a *MismatchError naming where and why when it does not, another error
// when the text is not JSON.
func (d *Document) Check(value []byte) error {
	var v any
	if err := decodeJSONText(value, &v); err != nil {
		return err
	}
	err := d.sch.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Errorf("validating: %w", err)
	}
	var found []located
	collectLeaves(ve, english(), &found)
	// The validator walks an object's members in map order; sorting by
	// place makes the list (and which problems the cap keeps) the same
	// on every run.
	slices.SortStableFunc(found, func(a, b located) int { return compareLocations(a.loc, b.loc) })
	m := &MismatchError{}
	for _, f := range found {
		if len(m.Problems) == maxProblems {
			m.More++
			continue
		}
		m.Problems = append(m.Problems, f.Problem)
	}
	return m
}

// located is a Problem with its instance location still in segments, for
// sorting.
type located struct {
	Problem
	loc []string
}

// compareLocations orders instance locations segment by segment, array
// indices (all digits) numerically, so /items/2 comes before /items/10.
func compareLocations(a, b []string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := compareSegments(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

func compareSegments(a, b string) int {
	if isIndex(a) && isIndex(b) {
		if c := cmp.Compare(len(a), len(b)); c != 0 {
			return c
		}
	}
	return strings.Compare(a, b)
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// MismatchError says where and why a value does not conform to a
// Document: the failures the validator found, at most maxProblems of them,
// and how many more there were.
type MismatchError struct {
	Problems []Problem
	More     int
}

// Problem is one failure: where in the value (a JSON Pointer, "" for the
// value itself) and why, in words.
type Problem struct {
	Path   string
	Reason string
}

func (p Problem) String() string {
	if p.Path == "" {
		return "at the root: " + p.Reason
	}
	return "at " + p.Path + ": " + p.Reason
}

func (e *MismatchError) Error() string {
	parts := make([]string, 0, len(e.Problems)+1)
	for _, p := range e.Problems {
		parts = append(parts, p.String())
	}
	if e.More > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", e.More))
	}
	return "does not conform: " + strings.Join(parts, "; ")
}

// collect adds the leaves of a validation error tree. A union that
// matched no branch is one failure at its place: its branches' own
// failures say more about the branches than about the value.
func collectLeaves(ve *jsonschema.ValidationError, p *message.Printer, out *[]located) {
	leaf := len(ve.Causes) == 0
	switch k := ve.ErrorKind.(type) {
	case *kind.AnyOf:
		leaf = true
	case *kind.OneOf:
		leaf = leaf || len(k.Subschemas) == 0
	}
	if !leaf {
		for _, c := range ve.Causes {
			collectLeaves(c, p, out)
		}
		return
	}
	var reason string
	switch k := ve.ErrorKind.(type) {
	case *kind.AnyOf:
		reason = "matches none of the allowed shapes (anyOf)"
	case *kind.OneOf:
		if len(k.Subschemas) == 0 {
			reason = "matches none of the allowed shapes (oneOf)"
		}
	}
	if reason == "" {
		reason = ve.ErrorKind.LocalizedString(p)
	}
	*out = append(*out, located{Problem{Path: pointer(ve.InstanceLocation), Reason: reason}, ve.InstanceLocation})
}

// pointer writes an instance location as a JSON Pointer (RFC 6901).
func pointer(loc []string) string {
	var b strings.Builder
	for _, s := range loc {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// FitValue checks v against p's own rules and its place in the schema, as
// ValidateValue does, and returns it typed as Property.Default is (string,
// float64, int64, bool, []string, []any or a decoded JSON value), so that
// a value from an earlier call, or decoded from JSON text, can start a
// form's field. The result is the caller's to change.
func FitValue(p *Property, v any) (any, error) {
	if v == nil {
		return nil, &ValidationError{Property: p.Name, Reason: "has no value"}
	}
	nv, reason := checkValue(p, v)
	if reason != "" {
		return nil, &ValidationError{Property: p.Name, Reason: reason}
	}
	if err := ValidateValue(p, nv); err != nil {
		return nil, err
	}
	return cloneValue(nv), nil
}
