package client

import (
	"sync"

	"github.com/elicit-dev/elicit/forms/schema"
)

// schemaCacheSize bounds the parsed schemas a session keeps. Servers tend
// to ask the same form again and again (a storm of 1,000 questions is one
// schema), and parsing compiles the schema, which is the costliest step of
// a prompt.
const schemaCacheSize = 128

// compiledCacheSize bounds the compiled validators a session keeps, one per
// distinct shape (schemas equal but for titles, descriptions and defaults
// share one). A form's shape changes far less often than its bytes.
const compiledCacheSize = 64

// schemaCache maps (subset, raw schema bytes) to the parsed schema. A
// *schema.Schema is read-only after Parse and safe for concurrent use, so
// prompts may share one. Refused schemas are not cached.
//
// Behind it, compiled keeps the compiled JSON Schema by the document's
// validation-relevant form, so a schema whose bytes are new but whose shape
// is not (question i of a storm, with default i) skips the compile. Its
// zero value is ready to use (a Session holds one by value).
type schemaCache struct {
	mu sync.Mutex
	// m is keyed by subset, then by the raw bytes (m[sub][string(raw)]
	// looks up without copying raw).
	m        map[schema.Subset]map[string]*schema.Schema
	n        int // entries in m, all subsets
	compiled *schema.Cache
}

func (c *question.SchemaCache) parse(raw []byte, sub schema.Subset) (*schema.Schema, error) {
	c.mu.Lock()
	s := c.m[sub][string(raw)]
	if c.compiled == nil {
		c.compiled = schema.NewCache(compiledCacheSize)
	}
	compiled := c.compiled
	c.mu.Unlock()
	if s != nil {
		return s, nil
	}
	s, err := schema.ParseWith(raw, sub, compiled)
	if err != nil {
		return nil, err
	}
	// The key is made before taking mu: an allocation under it can be
	// drafted into a GC mark assist while every other prompt waits.
	key := string(raw)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || c.n >= schemaCacheSize {
		c.m, c.n = map[schema.Subset]map[string]*schema.Schema{}, 0
	}
	if c.m[sub] == nil {
		c.m[sub] = map[string]*schema.Schema{}
	}
	if _, ok := c.m[sub][key]; !ok {
		c.n++
	}
	c.m[sub][key] = s
	return s, nil
}
