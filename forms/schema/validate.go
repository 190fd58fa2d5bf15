package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Defaults returns the typed defaults of every property that has one. The
// map and its slices are the caller's to change.
func (s *Schema) Defaults() map[string]any { return defaultsOf(s.Properties) }

// defaultsOf returns the typed defaults of props, copied.
func defaultsOf(props []*Property) map[string]any {
	out := map[string]any{}
	for _, p := range props {
		if p.Default != nil {
			out[p.Name] = cloneValue(p.Default)
		}
	}
	return out
}

// Validate checks answer content against the schema: first the property
// rules in schema order with readable reasons (required, type, length,
// format, range, integer safety, membership of every enum shape), then the
// whole schema with JSON Schema for whatever else the server wrote. Values
// may be any Go numeric type or json.Number, string, bool, []string or
// []any. The error is a *ValidationError naming the first offending
// property.
func (s *Schema) Validate(content map[string]any) error {
	doc, err := checkFields(s.Properties, content)
	if err != nil {
		return err
	}
	if len(s.Raw) == 0 {
		return nil // built by hand without a document: the rules above are all
	}
	sch, err := s.lib.get(s.Raw)
	if err != nil {
		return fmt.Errorf("validating content: %w", err)
	}
	return libCheck(sch.Validate(doc), "")
}

// checkFields applies each property's own rules to values, in order, with
// readable reasons, and returns the values as the JSON document the
// library validates next; members no property names are passed on as
// plain JSON for the library to judge.
func checkFields(props []*Property, values map[string]any) (map[string]any, error) {
	doc := make(map[string]any, len(values))
	named := make(map[string]bool, len(props))
	for _, p := range props {
		named[p.Name] = true
		v, ok := values[p.Name]
		if !ok {
			if p.Required {
				return nil, &ValidationError{Property: p.Name, Reason: "is required"}
			}
			continue
		}
		nv, reason := checkValue(p, v)
		if reason != "" {
			return nil, &ValidationError{Property: p.Name, Reason: reason}
		}
		doc[p.Name] = jsonValue(nv)
	}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		if named[k] {
			continue
		}
		v, ok := plainJSON(values[k])
		if !ok {
			return nil, &ValidationError{Property: k, Reason: "is not a JSON value"}
		}
		doc[k] = v
	}
	return doc, nil
}

// ValidateValue checks one value against one property with the same rules
// as Validate, for live field validation. A nil v means "no answer": an
// error only when the property is required.
func ValidateValue(p *Property, v any) error {
	if v == nil {
		if p.Required {
			return &ValidationError{Property: p.Name, Reason: "is required"}
		}
		return nil
	}
	nv, reason := checkValue(p, v)
	if reason != "" {
		return &ValidationError{Property: p.Name, Reason: reason}
	}
	sub := p.lib.subOrNil(p.Name)
	if sub == nil {
		return nil
	}
	return libCheck(sub.Validate(jsonValue(nv)), p.Name)
}

// libCheck turns a jsonschema error into a *ValidationError. prop prefixes
// the instance path when the value validated was one property's.
func libCheck(err error, prop string) error {
	if err == nil {
		return nil
	}
	path, msg := libFailure(err)
	if prop != "" {
		path = append([]string{prop}, path...)
	}
	if len(path) == 0 {
		return &ValidationError{Reason: msg}
	}
	if len(path) > 1 {
		msg = "at /" + strings.Join(path[1:], "/") + ": " + msg
	}
	return &ValidationError{Property: path[0], Reason: msg}
}

// checkValue applies a property's own rules to v and returns v normalised
// (string, float64, int64, bool, []string, []any, or a decoded JSON value)
// or a reason it is wrong.
func checkValue(p *Property, v any) (any, string) {
	switch p.Kind {
	case String, Enum:
		s, ok := v.(string)
		if !ok {
			return nil, "must be a string"
		}
		if p.Kind == Enum && !slices.ContainsFunc(p.Options, func(o Option) bool { return o.Value == s }) {
			return nil, "must be one of " + optionList(p.Options)
		}
		return s, checkText(p, s)
	case Number:
		f, reason := numberOf(v)
		if reason != "" {
			return nil, reason
		}
		return f, checkRange(p, f)
	case Integer:
		i, reason := integerOf(v)
		if reason != "" {
			return nil, reason
		}
		return i, checkRange(p, float64(i))
	case Boolean:
		b, ok := v.(bool)
		if !ok {
			return nil, "must be true or false"
		}
		return b, ""
	case MultiEnum:
		return checkMulti(p, v)
	case List:
		return checkList(p, v)
	case JSON:
		jv, ok := plainJSON(v)
		if !ok {
			return nil, "is not a JSON value"
		}
		return jv, ""
	}
	return nil, fmt.Sprintf("has unknown kind %v", p.Kind)
}

func checkText(p *Property, s string) string {
	n := utf8.RuneCountInString(s)
	if p.MinLength != nil && n < *p.MinLength {
		if *p.MinLength == 1 {
			return "must not be empty"
		}
		return fmt.Sprintf("must be at least %d characters", *p.MinLength)
	}
	if p.MaxLength != nil && n > *p.MaxLength {
		return fmt.Sprintf("must be at most %d characters", *p.MaxLength)
	}
	if r := checkFormat(p.Format, s); r != "" {
		return r
	}
	if re := p.pattern(); re != nil && !re.MatchString(s) {
		return "must match the pattern " + p.Pattern
	}
	return ""
}

func checkRange(p *Property, f float64) string {
	if p.Minimum != nil && f < *p.Minimum {
		return "must be at least " + fmtNum(*p.Minimum)
	}
	if p.Maximum != nil && f > *p.Maximum {
		return "must be at most " + fmtNum(*p.Maximum)
	}
	return ""
}

func checkMulti(p *Property, v any) (any, string) {
	ss, ok := stringList(v)
	if !ok {
		return nil, "must be a list of choices"
	}
	if r := checkCount(p, len(ss), "choose"); r != "" {
		return nil, r
	}
	for i, s := range ss {
		if !slices.ContainsFunc(p.Options, func(o Option) bool { return o.Value == s }) {
			return nil, strconv.Quote(s) + " is not one of the options " + optionList(p.Options)
		}
		if slices.Contains(ss[:i], s) {
			return nil, strconv.Quote(s) + " is chosen twice"
		}
	}
	return ss, ""
}

func checkList(p *Property, v any) (any, string) {
	items, ok := anyList(v)
	if !ok {
		return nil, "must be a list"
	}
	if r := checkCount(p, len(items), "give"); r != "" {
		return nil, r
	}
	item := &Property{Name: p.Name, Kind: p.Items}
	out := make([]any, len(items))
	for i, it := range items {
		nv, reason := checkValue(item, it)
		if reason != "" {
			return nil, fmt.Sprintf("item %d %s", i+1, reason)
		}
		out[i] = nv
	}
	return out, ""
}

func checkCount(p *Property, n int, verb string) string {
	if p.MinItems != nil && n < *p.MinItems {
		return fmt.Sprintf("%s at least %d", verb, *p.MinItems)
	}
	if p.MaxItems != nil && n > *p.MaxItems {
		return fmt.Sprintf("%s at most %d", verb, *p.MaxItems)
	}
	return ""
}

// optionList shows the first few option values for a message.
func optionList(opts []Option) string {
	const shown = 8
	var b strings.Builder
	for i, o := range opts {
		if i == shown {
			fmt.Fprintf(&b, ", … (%d more)", len(opts)-shown)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(o.Value))
	}
	return b.String()
}

func stringList(v any) ([]string, bool) {
	switch l := v.(type) {
	case []string:
		return l, true
	case []any:
		ss := make([]string, len(l))
		for i, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			ss[i] = s
		}
		return ss, true
	}
	return nil, false
}

func anyList(v any) ([]any, bool) {
	switch l := v.(type) {
	case []any:
		return l, true
	case []string:
		out := make([]any, len(l))
		for i, s := range l {
			out[i] = s
		}
		return out, true
	case []float64:
		out := make([]any, len(l))
		for i, f := range l {
			out[i] = f
		}
		return out, true
	case []int64:
		out := make([]any, len(l))
		for i, n := range l {
			out[i] = n
		}
		return out, true
	case []int:
		out := make([]any, len(l))
		for i, n := range l {
			out[i] = n
		}
		return out, true
	case []bool:
		out := make([]any, len(l))
		for i, b := range l {
			out[i] = b
		}
		return out, true
	}
	return nil, false
}

// jsonValue turns a normalised value into what the JSON Schema library
// takes: slices become []any.
func jsonValue(v any) any {
	if ss, ok := v.([]string); ok {
		out := make([]any, len(ss))
		for i, s := range ss {
			out[i] = s
		}
		return out
	}
	return v
}

// plainJSON normalises an arbitrary Go value into the JSON data model
// (map[string]any, []any, string, bool, nil, json.Number, int64, float64);
// ok is false for non-finite numbers and types JSON cannot carry.
func plainJSON(v any) (any, bool) {
	switch x := v.(type) {
	case nil, string, bool, json.Number:
		if n, isNum := x.(json.Number); isNum {
			if _, r := numberOf(n); r != "" {
				return nil, false
			}
		}
		return x, true
	case float64, float32:
		f, r := numberOf(x)
		return f, r == ""
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return json.Number(numText(x)), true
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			ne, ok := plainJSON(e)
			if !ok {
				return nil, false
			}
			out[k] = ne
		}
		return out, true
	case json.RawMessage:
		var d any
		if err := decodeJSONText(x, &d); err != nil {
			return nil, false
		}
		return d, true
	}
	l, ok := anyList(v)
	if !ok {
		return nil, false
	}
	out := make([]any, len(l))
	for i, e := range l {
		ne, ok := plainJSON(e)
		if !ok {
			return nil, false
		}
		out[i] = ne
	}
	return out, true
}

// cloneValue copies the slices and maps of a default so callers cannot
// change the schema through them.
func cloneValue(v any) any {
	switch x := v.(type) {
	case []string:
		return slices.Clone(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = cloneValue(e)
		}
		return out
	case float64:
		if math.IsNaN(x) {
			return nil
		}
	}
	return v
}
