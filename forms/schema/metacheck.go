package schema

import (
	"encoding/json"
)

// metaValid reports whether doc, a decoded draft 2020-12 schema document
// (jsonschema.UnmarshalJSON: numbers as json.Number), is one the 2020-12
// meta-schema accepts, for the kinds of document elicitation forms are:
// flat objects of primitive properties and the keywords around them. It
// reports false for anything it does not know how to vouch for (a $ref,
// $defs, $id, a pattern-keyed map, multipleOf, deep nesting...); the
// compiler then runs the meta-schema as before. So what it changes is only
// the cost: the meta-schema of 2020-12 and its seven vocabularies compile
// on the first use in a process (about 2.7 ms), and then run over every
// document.
//
// The rules are the meta-schema's (metaschemas/draft/2020-12 in the
// jsonschema copy): every schema is an object or a boolean; the keywords
// checked are those of the vocabularies below; a keyword no vocabulary
// defines may hold anything. "pattern" is asserted as format "regex",
// which the compiler checks with its regexp engine: lenientRegexp, which
// never refuses, is asked all the same.
func metaValid(doc any) bool {
	return metaSchema(doc, 0)
}

// metaMaxDepth bounds the nesting metaValid follows; deeper documents are
// left to the meta-schema.
const metaMaxDepth = 8

func metaSchema(v any, depth int) bool {
	switch s := v.(type) {
	case bool:
		return true
	case map[string]any:
		if depth > metaMaxDepth {
			return false
		}
		for k, kv := range s {
			if !metaKeyword(k, kv, depth) {
				return false
			}
		}
		return true
	}
	return false
}

// metaKeyword checks one keyword of a schema object.
func metaKeyword(k string, v any, depth int) bool {
	switch k {
	// meta-data, format-annotation, content (the strings), core's $comment
	case "title", "description", "format", "$comment", "contentEncoding", "contentMediaType":
		_, ok := v.(string)
		return ok
	case "default", "const":
		return true
	case "deprecated", "readOnly", "writeOnly", "uniqueItems":
		_, ok := v.(bool)
		return ok
	case "examples", "enum":
		_, ok := v.([]any)
		return ok
	// validation
	case "type":
		return metaType(v)
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains":
		return nonNegativeInteger(v)
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		_, ok := v.(json.Number)
		return ok
	case "pattern":
		s, ok := v.(string)
		if !ok {
			return false
		}
		_, err := lenientRegexp(s)
		return err == nil
	case "required":
		return uniqueStrings(v)
	// applicator, unevaluated, content
	case "properties":
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for _, sub := range m {
			if !metaSchema(sub, depth+1) {
				return false
			}
		}
		return true
	case "items", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else",
		"unevaluatedItems", "unevaluatedProperties", "contentSchema":
		return metaSchema(v, depth+1)
	case "allOf", "anyOf", "oneOf":
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return false
		}
		for _, sub := range list {
			if !metaSchema(sub, depth+1) {
				return false
			}
		}
		return true
	}
	// Everything else the 2020-12 meta-schema constrains is left to it: the
	// rest of core ($id, $schema, $ref, $anchor, $dynamicRef,
	// $dynamicAnchor, $vocabulary, $defs), prefixItems, patternProperties,
	// dependentSchemas, multipleOf, dependentRequired, and the keywords of
	// older drafts it still defines (definitions, dependencies,
	// $recursiveAnchor, $recursiveRef). Any other "$" name is left to it
	// too, in case a later copy of the meta-schema defines one.
	switch k {
	case "prefixItems", "patternProperties", "dependentSchemas", "multipleOf", "dependentRequired",
		"definitions", "dependencies":
		return false
	}
	return len(k) == 0 || k[0] != '$'
}

// simpleTypes are the meta-schema's names of JSON types.
var simpleTypes = [...]string{"array", "boolean", "integer", "null", "number", "object", "string"}

func simpleType(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	for _, t := range simpleTypes {
		if s == t {
			return true
		}
	}
	return false
}

// metaType: one simple type, or a non-empty array of distinct ones.
func metaType(v any) bool {
	if simpleType(v) {
		return true
	}
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return false
	}
	for i, t := range list {
		if !simpleType(t) {
			return false
		}
		for _, u := range list[:i] {
			if u == t {
				return false
			}
		}
	}
	return true
}

// nonNegativeInteger accepts a number written as plain digits only (at
// most 15, well inside what every reader takes for an integer); "1.0" or
// "1e2", integers to the meta-schema too, are left to it.
func nonNegativeInteger(v any) bool {
	n, ok := v.(json.Number)
	if !ok || len(n) == 0 || len(n) > 15 {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// uniqueStrings: an array of distinct strings (the meta-schema's
// stringArray).
func uniqueStrings(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	seen := make(map[string]bool, len(list))
	for _, x := range list {
		s, ok := x.(string)
		if !ok || seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
}
