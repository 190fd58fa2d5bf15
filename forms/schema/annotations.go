package schema

// The validation-relevant form of a schema document: what a Cache keys its
// compiled validators by. Servers ask the same form many times with a
// different default, title or description each time (a storm of questions
// whose default is the question's number). Those keywords are annotations:
// in JSON Schema 2020-12 (and every earlier draft) the meta-data keywords
// title, description, default, examples, readOnly, writeOnly and deprecated,
// and the core keyword $comment, "do not affect validation" (Validation
// §9, Core §8.3); santhosh-tekuri/jsonschema stores them on the compiled
// Schema and its validator never reads them. enumNames is no JSON Schema
// keyword at all, so the compiler ignores it too. Two documents that differ
// only in them therefore accept and refuse exactly the same instances, and
// one compiled validator serves both. format is kept: the compiler asserts
// it (AssertFormat), so it is not an annotation here.
//
// Three rules keep that exact:
//
//   - Only schema positions are stripped: the schema objects the draft
//     defines (the root, properties/*, items, oneOf/[] and so on). A
//     property NAMED "title" or "default" is a key of properties, never a
//     keyword, and values of enum, const, default and unknown keywords are
//     data and are left alone.
//   - An annotation is stripped only when its value has the type the
//     meta-schema requires (title a string, readOnly a boolean, examples an
//     array …). The compiler validates the document against the meta-schema
//     first, so a malformed annotation (title: 5) makes it refuse the
//     document; keeping such a value keeps that refusal.
//   - Nothing is stripped from a document that holds a reference ($ref,
//     $dynamicRef, $recursiveRef) anywhere: a JSON pointer may name an
//     annotation's value (#/$defs/a/default) and use it as a schema. Nor
//     from one with an escaped member name (\u0074itle is title) or a name
//     repeated in one object (the decoder keeps the last), where what the
//     compiler reads is not what the bytes say at a glance.
//
// canon.go applies these rules to the raw bytes.

// isRefKeyword reports whether k's value points elsewhere in a document.
func isRefKeyword(k string) bool {
	return k == "$ref" || k == "$dynamicRef" || k == "$recursiveRef"
}

// strippable reports whether keyword k, whose value starts with the byte
// first, is an annotation that can be dropped without changing what the
// document validates or whether it compiles. The first byte of a valid
// JSON value tells its type.
func strippable(k string, first byte) bool {
	switch k {
	case "title", "description", "$comment":
		return first == '"'
	case "readOnly", "writeOnly", "deprecated":
		return first == 't' || first == 'f'
	case "examples":
		return first == '['
	case "default", "enumNames":
		return true // the meta-schema allows any value
	}
	return false
}

// Where subschemas sit, over every draft the compiler knows (a keyword
// unknown to the document's draft is ignored by the compiler, so treating
// its value as a schema changes nothing either).
func isSchemaKeyword(k string) bool { // one subschema
	switch k {
	case "not", "if", "then", "else", "items", "additionalItems", "contains",
		"additionalProperties", "propertyNames", "unevaluatedItems",
		"unevaluatedProperties", "contentSchema":
		return true
	}
	return false
}

func isSchemaListKeyword(k string) bool { // an array of subschemas
	switch k {
	case "allOf", "anyOf", "oneOf", "prefixItems", "items":
		return true
	}
	return false
}

func isSchemaMapKeyword(k string) bool { // an object whose values are subschemas
	switch k {
	case "properties", "patternProperties", "$defs", "definitions",
		"dependentSchemas", "dependencies":
		return true
	}
	return false
}
