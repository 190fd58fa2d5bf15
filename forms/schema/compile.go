package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// docURL is where a compiled document lives. It is never fetched: the
// document is added as a resource before compiling.
const docURL = "urn:elicit:schema"

// compiled is a document compiled once by santhosh-tekuri/jsonschema, on
// first use, safe for concurrent use.
type compiled struct {
	once sync.Once
	// cache, when set (ParseWith), supplies the validator of an
	// already-compiled document of the same validation-relevant form.
	cache *Cache
	sch   *jsonschema.Schema
	err   error
}

// get compiles raw on the first call and returns the cached result on every
// call after it (raw is then ignored).
func (c *compiled) get(raw json.RawMessage) (*jsonschema.Schema, error) {
	c.once.Do(func() {
		if c.cache != nil {
			c.sch, c.err = c.cache.compile(raw)
			return
		}
		c.sch, c.err = compileDoc(raw)
	})
	return c.sch, c.err
}

// subOrNil is sub on a possibly nil receiver (a Property built by hand).
func (c *compiled) subOrNil(name string) *jsonschema.Schema {
	if c == nil {
		return nil
	}
	return c.sub(name)
}

// sub returns the compiled schema of the top-level property name.
func (c *compiled) sub(name string) *jsonschema.Schema {
	sch, err := c.get(nil)
	if err != nil || sch == nil {
		return nil
	}
	// A root written as {"$ref": "#/$defs/Args"} keeps its properties
	// behind the reference.
	for range maxRefs {
		if s, ok := sch.Properties[name]; ok {
			return s
		}
		if sch.Ref == nil {
			return nil
		}
		sch = sch.Ref
	}
	return nil
}

// maxRefs bounds how many $ref hops are followed, against cycles.
const maxRefs = 32

// compileDoc compiles a schema document with format assertion on, no
// network or file access, and RE2 patterns.
func compileDoc(raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("decoding schema: %w", err)
	}
	if m, ok := doc.(map[string]any); ok {
		doc = lenientRoot(m)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	// Server text must never make us read files or fetch URLs.
	c.UseLoader(refuseLoader{})
	c.UseRegexpEngine(lenientRegexp)
	if err := c.AddResource(docURL, doc); err != nil {
		return nil, fmt.Errorf("adding schema: %w", err)
	}
	sch, err := c.Compile(docURL)
	if err != nil {
		return nil, fmt.Errorf("compiling schema: %w", err)
	}
	return sch, nil
}

// lenientRoot returns a copy of the root object without what the compiler
// would refuse but a form can live with: a $schema dialect it does not
// know (it would try to load it; the MCP default dialect is 2020-12) and
// names repeated in required.
func lenientRoot(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	if v, ok := out["$schema"]; ok && !knownDraft(v) {
		delete(out, "$schema")
	}
	if req, ok := out["required"].([]any); ok {
		uniq := make([]any, 0, len(req))
		for _, r := range req {
			// Only strings: == on a map held in an any would panic.
			if s, isStr := r.(string); !isStr || !slices.Contains(uniq, any(s)) {
				uniq = append(uniq, r)
			}
		}
		out["required"] = uniq
	}
	return out
}

// knownDraft reports whether a $schema value names a dialect the compiler
// carries with it.
func knownDraft(v any) bool {
	s, _ := v.(string)
	s = strings.TrimSuffix(s, "#")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "https://"), "http://")
	switch s {
	case "json-schema.org/draft-04/schema", "json-schema.org/draft-06/schema",
		"json-schema.org/draft-07/schema", "json-schema.org/draft/2019-09/schema",
		"json-schema.org/draft/2020-12/schema", "json-schema.org/schema":
		return true
	}
	return false
}

// errNoRemote is why a $ref outside the document fails.
var errNoRemote = errors.New("references outside the schema are not followed")

// refuseLoader refuses every URL: only the document itself and the built-in
// meta-schemas are available.
type refuseLoader struct{}

func (refuseLoader) Load(string) (any, error) { return nil, errNoRemote }

// lenientRegexp compiles a pattern as RE2 and, when that fails (servers
// often write ECMA-262 look-arounds), matches everything: the pattern is
// not part of the MCP subset, so ignoring it beats refusing the form.
func lenientRegexp(s string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(s)
	if err != nil {
		return anything(s), nil
	}
	return re, nil
}

type anything string

func (a anything) String() string        { return string(a) }
func (anything) MatchString(string) bool { return true }

// libFailure turns a jsonschema validation error into the instance path of
// its first leaf cause and a readable message.
func libFailure(err error) (path []string, msg string) {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, err.Error()
	}
	for len(ve.Causes) > 0 {
		// The first failing branch of a union says little about the union.
		switch k := ve.ErrorKind.(type) {
		case *kind.AnyOf:
			return ve.InstanceLocation, "matches none of the allowed shapes"
		case *kind.OneOf:
			if len(k.Subschemas) == 0 {
				return ve.InstanceLocation, "matches none of the allowed shapes"
			}
		}
		ve = ve.Causes[0]
	}
	if k, ok := ve.ErrorKind.(*kind.OneOf); ok && len(k.Subschemas) > 1 {
		return ve.InstanceLocation, "matches more than one of the allowed shapes"
	}
	// Name the property for the two errors reported on its parent object.
	switch k := ve.ErrorKind.(type) {
	case *kind.Required:
		if len(k.Missing) > 0 {
			return append(slices.Clone(ve.InstanceLocation), k.Missing[0]), "is required"
		}
	case *kind.AdditionalProperties:
		if len(k.Properties) > 0 {
			return append(slices.Clone(ve.InstanceLocation), k.Properties[0]), "is not allowed here"
		}
	}
	return ve.InstanceLocation, ve.ErrorKind.LocalizedString(english())
}

// english is the printer the library's error texts are written with
// ("must be <= 150", numbers grouped as "1,000").
func english() *message.Printer { return message.NewPrinter(language.English) }
