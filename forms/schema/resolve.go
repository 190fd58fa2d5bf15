package schema

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
)

// refPath splits a local JSON pointer reference ("#/$defs/a") into tokens;
// nil for anything else.
func refPath(ref string) []string {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	if frag == "" {
		return []string{}
	}
	if !strings.HasPrefix(frag, "/") {
		return nil // an anchor, not a pointer
	}
	toks := strings.Split(frag[1:], "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks
}

// resolve follows local $refs from sch and returns the schema they end
// at. Keywords written beside a $ref (title, description, default…) win
// over the target's. ok is false for a reference it cannot follow.
func resolve(doc any, sch map[string]any) (map[string]any, bool) {
	for range maxRefs {
		ref, isRef := sch["$ref"].(string)
		if !isRef {
			return sch, true
		}
		path := refPath(ref)
		if path == nil {
			return sch, false
		}
		var cur any = doc
		for _, tok := range path {
			switch c := cur.(type) {
			case map[string]any:
				cur = c[tok]
			case []any:
				i, err := parseIndex(tok)
				if err != nil || i >= len(c) {
					return sch, false
				}
				cur = c[i]
			default:
				return sch, false
			}
		}
		target, isObj := cur.(map[string]any)
		if !isObj {
			return sch, false
		}
		merged := maps.Clone(target)
		for k, v := range sch {
			if k != "$ref" {
				merged[k] = v
			}
		}
		if _, again := target["$ref"]; !again {
			delete(merged, "$ref")
		} else {
			merged["$ref"] = target["$ref"]
		}
		sch = merged
	}
	return sch, false
}

func parseIndex(tok string) (int, error) {
	n, reason := integerOfText(tok)
	if reason != "" || n < 0 {
		return 0, fmt.Errorf("bad index %q", tok)
	}
	return int(n), nil
}

// nonNull reads "X or null" (type ["X","null"], anyOf/oneOf [X, {type:
// null}]) as X: the form leaves an optional field out rather than send
// null.
func nonNull(doc any, sch map[string]any) map[string]any {
	if ts, ok := sch["type"].([]any); ok && len(ts) == 2 && slices.Contains(ts, any("null")) {
		out := maps.Clone(sch)
		for _, t := range ts {
			if t != "null" {
				out["type"] = t
			}
		}
		return out
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		alts, ok := sch[key].([]any)
		if !ok || len(alts) != 2 {
			continue
		}
		var other map[string]any
		nulls := 0
		for _, a := range alts {
			m, isObj := a.(map[string]any)
			if !isObj {
				return sch
			}
			if m["type"] == "null" && len(m) == 1 {
				nulls++
			} else {
				other = m
			}
		}
		if nulls != 1 || other == nil {
			continue
		}
		target, ok := resolve(doc, other)
		if !ok {
			return sch
		}
		out := maps.Clone(target)
		for k, v := range sch {
			if k != key {
				out[k] = v // title, description, default written beside
			}
		}
		return out
	}
	return sch
}
