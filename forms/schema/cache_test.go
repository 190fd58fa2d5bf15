package schema_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/forms/schema"
)

// libOnly has rules only JSON Schema enforces (multipleOf, exclusive
// bounds, additionalProperties, minProperties): a wrong shared validator
// would show here, since our own checks pass these values.
const libOnly = `{
  "type": "object",
  "title": "Numbers",
  "properties": {
    "n":   {"type": "integer", "multipleOf": 3, "title": "N", "default": 3},
    "x":   {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 10, "description": "x"},
    "sel": {"type": "string", "oneOf": [{"const": "a", "title": "A"}, {"const": "b", "title": "B"}], "default": "a"}
  },
  "minProperties": 1,
  "additionalProperties": false
}`

// baseSchemas are the shapes the equivalence test varies: the testdata
// schemas, the kitchen sink, and libOnly.
func baseSchemas(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{"kitchen": []byte(kitchen), "libOnly": []byte(libOnly)}
	files, err := filepath.Glob("testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.Contains(name, "tool-input") {
			continue // not an elicitation schema
		}
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(name)] = raw
	}
	return out
}

// annotationVariants rewrites a schema's annotations only: titles
// (including those of oneOf/anyOf options), descriptions, $comment and
// defaults, each variant differently, then re-encodes it (so key order
// and whitespace differ from the original too).
func annotationVariants(t *testing.T, raw []byte, s *schema.Schema) [][]byte {
	t.Helper()
	var out [][]byte
	for v := range 4 {
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		doc["title"] = fmt.Sprintf("Form %d", v)
		doc["$comment"] = fmt.Sprintf("variant %d", v)
		props, _ := doc["properties"].(map[string]any)
		for _, p := range s.Properties {
			ps, _ := props[p.Name].(map[string]any)
			ps["title"] = fmt.Sprintf("%s, take %d", p.Name, v)
			ps["description"] = strings.Repeat("why ", v)
			for _, key := range []string{"oneOf", "anyOf"} {
				opts, _ := ps[key].([]any)
				if items, ok := ps["items"].(map[string]any); ok {
					opts, _ = items[key].([]any)
				}
				for i, o := range opts {
					if om, ok := o.(map[string]any); ok {
						om["title"] = fmt.Sprintf("option %d/%d", i, v)
					}
				}
			}
			switch v {
			case 1:
				delete(ps, "default")
			case 2:
				if d := otherDefault(p); d != nil {
					ps["default"] = d
				}
			}
		}
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// otherDefault is a valid default other than the declared one, or nil.
func otherDefault(p *schema.Property) any {
	switch p.Kind {
	case schema.Enum:
		return p.Options[len(p.Options)-1].Value
	case schema.MultiEnum:
		return []string{p.Options[0].Value}
	case schema.Boolean:
		b, _ := p.Default.(bool)
		return !b
	case schema.Integer:
		if p.Minimum != nil {
			return int64(*p.Minimum)
		}
	}
	return nil
}

// candidates are answers to try for p: right, wrong and borderline.
func candidates(p *schema.Property) []any {
	c := []any{"", "x", "Ada", "ada@example.com", "2024-02-29", "2025-02-30", "ABC", "not a uri",
		int64(0), int64(3), int64(4), int64(-1), int64(151), 1.5, 9.99, 10.0, true, false,
		[]string{}, []string{"a"}, []string{"a", "b", "c"}, map[string]any{"k": 1}}
	if p.Default != nil {
		c = append(c, p.Default)
	}
	for _, o := range p.Options {
		c = append(c, o.Value, []string{o.Value})
	}
	return c
}

// sameOutcome fails unless a and b are both nil or carry the same message.
func sameOutcome(t *testing.T, what string, fresh, cached error) {
	t.Helper()
	if (fresh == nil) != (cached == nil) || fresh != nil && fresh.Error() != cached.Error() {
		t.Errorf("%s: fresh compile says %v, cached validator says %v", what, fresh, cached)
	}
}

// TestCacheValidatesLikeAFreshCompile: for every testdata schema and
// variants of it that differ in titles, descriptions, defaults, key order
// and whitespace, the validator ParseWith takes from the cache (compiled
// from another variant) accepts and refuses exactly what Parse's own
// compile does, whole answers and single values, and all variants share
// one compiled shape.
func TestCacheValidatesLikeAFreshCompile(t *testing.T) {
	for name, raw := range baseSchemas(t) {
		t.Run(name, func(t *testing.T) {
			base, err := schema.Parse(raw, schema.Subset2025_11_25)
			if err != nil {
				t.Fatal(err)
			}
			c := schema.NewCache(8)
			if _, err := schema.ParseWith(raw, schema.Subset2025_11_25, c); err != nil {
				t.Fatal(err)
			}
			for vi, variant := range annotationVariants(t, raw, base) {
				fresh, err := schema.Parse(variant, schema.Subset2025_11_25)
				if err != nil {
					t.Fatalf("variant %d: %v\n%s", vi, err, variant)
				}
				cached, err := schema.ParseWith(variant, schema.Subset2025_11_25, c)
				if err != nil {
					t.Fatalf("variant %d cached: %v", vi, err)
				}
				if len(cached.Properties) != len(fresh.Properties) {
					t.Fatalf("variant %d: %d properties cached, %d fresh", vi, len(cached.Properties), len(fresh.Properties))
				}
				for i, p := range fresh.Properties {
					cp := cached.Properties[i]
					if cp.Title != p.Title || fmt.Sprint(cp.Default) != fmt.Sprint(p.Default) {
						t.Errorf("variant %d %s: cached parse has title %q default %v, fresh %q %v", vi, p.Name, cp.Title, cp.Default, p.Title, p.Default)
					}
					for _, v := range candidates(p) {
						sameOutcome(t, fmt.Sprintf("variant %d ValidateValue(%s, %#v)", vi, p.Name, v),
							schema.ValidateValue(p, v), schema.ValidateValue(cp, v))
						content := fresh.Defaults()
						content[p.Name] = v
						sameOutcome(t, fmt.Sprintf("variant %d Validate(%s=%#v)", vi, p.Name, v),
							fresh.Validate(content), cached.Validate(content))
					}
				}
				for _, content := range []map[string]any{{}, fresh.Defaults(), {"zzz": 1}} {
					sameOutcome(t, fmt.Sprintf("variant %d Validate(%v)", vi, content), fresh.Validate(content), cached.Validate(content))
				}
			}
			if n := c.Len(); n != 1 {
				t.Errorf("%d compiled shapes for one schema and its annotation variants, want 1", n)
			}
		})
	}
}

// TestCacheKeepsPropertiesNamedLikeAnnotations: a property called "title",
// "default" or "description" is a name, not a keyword: schemas that differ
// in what such a property allows get their own validators.
func TestCacheKeepsPropertiesNamedLikeAnnotations(t *testing.T) {
	for _, name := range []string{"title", "default", "description", "examples", "$comment", "enumNames"} {
		t.Run(name, func(t *testing.T) {
			c := schema.NewCache(8)
			doc := func(max int) []byte {
				return fmt.Appendf(nil, `{"type":"object","title":"T","properties":{%q:{"type":"string","maxLength":%d,"default":"ab"}},"required":[%q]}`, name, max, name)
			}
			short, err := schema.ParseWith(doc(3), schema.Subset2025_11_25, c)
			if err != nil {
				t.Fatal(err)
			}
			long, err := schema.ParseWith(doc(10), schema.Subset2025_11_25, c)
			if err != nil {
				t.Fatal(err)
			}
			if c.Len() != 2 {
				t.Errorf("%d compiled shapes, want 2: the property %q was taken for an annotation", c.Len(), name)
			}
			answer := map[string]any{name: "abcdef"}
			if short.Validate(answer) == nil {
				t.Errorf("maxLength 3 accepted %v", answer)
			}
			if err := long.Validate(answer); err != nil {
				t.Errorf("maxLength 10 refused %v: %v", answer, err)
			}
			if err := short.Validate(map[string]any{}); err == nil {
				t.Errorf("required %q was not enforced", name)
			}
		})
	}
}

// TestCacheKeepsMalformedAnnotations: an annotation of the wrong type makes
// the compiler refuse the document; a cached validator of the well-formed
// variant must not let it through.
func TestCacheKeepsMalformedAnnotations(t *testing.T) {
	good := `{"type":"object","properties":{"a":{"type":"string"}}}`
	bad := []string{
		`{"type":"object","title":5,"properties":{"a":{"type":"string"}}}`,
		`{"type":"object","description":["x"],"properties":{"a":{"type":"string"}}}`,
		`{"type":"object","deprecated":"yes","properties":{"a":{"type":"string"}}}`,
		`{"type":"object","examples":{"a":"x"},"properties":{"a":{"type":"string"}}}`,
		`{"type":"object","$comment":1,"properties":{"a":{"type":"string"}}}`,
		`{"type":"object","properties":{"a":{"type":"string","readOnly":1}}}`,
	}
	c := schema.NewCache(8)
	if _, err := schema.ParseWith([]byte(good), schema.Subset2025_11_25, c); err != nil {
		t.Fatal(err)
	}
	for _, raw := range bad {
		_, fresh := schema.Parse([]byte(raw), schema.Subset2025_11_25)
		_, cached := schema.ParseWith([]byte(raw), schema.Subset2025_11_25, c)
		if fresh == nil {
			t.Errorf("%s: Parse accepted it; the test assumes the compiler refuses it", raw)
		}
		sameOutcome(t, raw, fresh, cached)
		// Refused twice: the refusal is cached, not forgotten.
		_, again := schema.ParseWith([]byte(raw), schema.Subset2025_11_25, c)
		sameOutcome(t, raw+" again", fresh, again)
	}
}

// TestCacheIsBounded: distinct shapes beyond the bound evict older ones.
func TestCacheIsBounded(t *testing.T) {
	c := schema.NewCache(4)
	for i := range 20 {
		raw := fmt.Appendf(nil, `{"type":"object","properties":{"a":{"type":"string","maxLength":%d}}}`, i+1)
		s, err := schema.ParseWith(raw, schema.Subset2025_11_25, c)
		if err != nil {
			t.Fatal(err)
		}
		if s.Validate(map[string]any{"a": strings.Repeat("x", i+2)}) == nil {
			t.Errorf("shape %d: a value over maxLength passed", i)
		}
	}
	if n := c.Len(); n != 4 {
		t.Errorf("Len %d after 20 shapes, want the bound 4", n)
	}
	var zero schema.Cache // usable without NewCache
	if _, err := schema.ParseWith([]byte(kitchen), schema.Subset2025_11_25, &zero); err != nil || zero.Len() != 1 {
		t.Errorf("zero Cache: err %v, Len %d", err, zero.Len())
	}
}

// TestCacheConcurrent: a storm parsed from many goroutines through one
// cache (run under -race): one compiled shape, every answer judged right.
func TestCacheConcurrent(t *testing.T) {
	c := schema.NewCache(4)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				q := g*100 + i + 1
				s, err := schema.ParseWith(stormSchema(q), schema.Subset2025_11_25, c)
				if err != nil {
					errs <- err
					return
				}
				if d := s.Defaults()["value"]; d != int64(q) {
					errs <- fmt.Errorf("question %d: default %v", q, d)
					return
				}
				if err := s.Validate(s.Defaults()); err != nil {
					errs <- fmt.Errorf("question %d: own default refused: %w", q, err)
					return
				}
				if s.Validate(map[string]any{"value": 1.5}) == nil || s.Validate(map[string]any{}) == nil {
					errs <- fmt.Errorf("question %d: a wrong answer passed", q)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := c.Len(); n != 1 {
		t.Errorf("%d compiled shapes for one storm, want 1", n)
	}
}

// TestCacheSeparatesShapes: schemas that differ in any validation keyword,
// however small, get their own validators; each pair is parsed through one
// cache and must judge the probe answer as its own fresh compile does.
func TestCacheSeparatesShapes(t *testing.T) {
	pairs := []struct{ a, b, probe string }{
		{`"maxLength":3`, `"maxLength":4`, `"abcd"`},
		{`"minimum":1`, `"minimum":2`, `1`},
		{`"multipleOf":2`, `"multipleOf":3`, `4`},
		{`"exclusiveMaximum":5`, `"exclusiveMaximum":6`, `5`},
		{`"pattern":"^a"`, `"pattern":"^b"`, `"abc"`},
		{`"format":"email"`, `"format":"date"`, `"2024-01-01"`},
		{`"const":"x"`, `"const":"y"`, `"x"`},
		{`"enum":["x","y"]`, `"enum":["y","z"]`, `"x"`},
		{`"not":{"const":"x"}`, `"not":{"const":"y"}`, `"x"`},
	}
	for _, p := range pairs {
		c := schema.NewCache(8)
		doc := func(kw string) []byte {
			// The keyword sits where only JSON Schema reads it: the
			// schema of properties the form does not name.
			return []byte(`{"type":"object","title":"same","properties":{"v":{"type":"string","description":"same"}},` +
				`"additionalProperties":{"title":"same",` + kw + `}}`)
		}
		for _, kw := range []string{p.a, p.b} {
			var probe any
			if err := json.Unmarshal([]byte(p.probe), &probe); err != nil {
				t.Fatal(err)
			}
			content := map[string]any{"other": probe}
			_, freshErr := schema.Parse(doc(kw), schema.Subset2025_11_25)
			var fresh, cached error
			if freshErr == nil {
				s, _ := schema.Parse(doc(kw), schema.Subset2025_11_25)
				fresh = s.Validate(content)
			}
			s, cachedErr := schema.ParseWith(doc(kw), schema.Subset2025_11_25, c)
			sameOutcome(t, kw+" parse", freshErr, cachedErr)
			if cachedErr == nil {
				cached = s.Validate(content)
			}
			sameOutcome(t, kw+" on "+p.probe, fresh, cached)
		}
		if n := c.Len(); n != 2 {
			t.Errorf("%s and %s: %d compiled shapes, want 2", p.a, p.b, n)
		}
	}
}
