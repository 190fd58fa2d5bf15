package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// MustJSON marshals values we built ourselves, which cannot fail.
func MustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("wire: marshal %T: %v", v, err))
	}
	return b
}

// Members splits a params object into its members, each kept as the exact
// bytes it arrived as. Empty or null params are an empty object.
func Members(params json.RawMessage) (map[string]json.RawMessage, error) {
	m := map[string]json.RawMessage{}
	if t := bytes.TrimSpace(params); len(t) == 0 || string(t) == "null" {
		return m, nil
	}
	if err := json.Unmarshal(params, &m); err != nil {
		return nil, fmt.Errorf("params must be a JSON object: %w", err)
	}
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	return m, nil
}

// Object writes members back as one JSON object, keys sorted, values
// copied byte for byte: nothing in a value (requestState above all) is
// parsed or re-encoded on the way.
func Object(m map[string]json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(MustJSON(k))
		b.WriteByte(':')
		b.Write(m[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

// WithMeta returns params with our _meta fields merged into the caller's
// _meta (progressToken and the like survive; our keys win).
func WithMeta(params json.RawMessage, fields map[string]json.RawMessage) (json.RawMessage, error) {
	top, err := Members(params)
	if err != nil {
		return nil, err
	}
	meta, err := Members(top["_meta"])
	if err != nil {
		return nil, fmt.Errorf("_meta: %w", err)
	}
	maps.Copy(meta, fields)
	top["_meta"] = Object(meta)
	return Object(top), nil
}

// ResultType reads a 2026-07-28 result's resultType; absent means
// "complete" (an older server, or a result that predates the field).
func ResultType(result json.RawMessage) string {
	var r struct {
		ResultType *string `json:"resultType"`
	}
	if DecodeExact(result, &r) != nil || r.ResultType == nil { // "ResultType" is not resultType
		return "complete"
	}
	return *r.ResultType
}
