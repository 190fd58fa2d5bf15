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

// schemaCache maps (subset, raw schema bytes) to the parsed schema. A
// *schema.Schema is read-only after Parse and safe for concurrent use, so
// prompts may share one. Refused schemas are not cached.
type schemaCache struct {
	mu sync.Mutex
	m  map[schemaCacheKey]*schema.Schema
}

type schemaCacheKey struct {
	sub schema.Subset
	raw string
}

func (c *schemaCache) parse(raw []byte, sub schema.Subset) (*schema.Schema, error) {
	k := schemaCacheKey{sub, string(raw)}
	c.mu.Lock()
	s := c.m[k]
	c.mu.Unlock()
	if s != nil {
		return s, nil
	}
	s, err := schema.Parse(raw, sub)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= schemaCacheSize {
		c.m = make(map[schemaCacheKey]*schema.Schema, schemaCacheSize)
	}
	c.m[k] = s
	return s, nil
}
