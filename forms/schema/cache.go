package schema

import (
	"container/list"
	"crypto/sha256"
	"encoding/json"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Cache keeps compiled JSON Schema validators, keyed by the validation-
// relevant form of their document (see annotations.go): the document without
// its annotations, written canonically (canon.go: no whitespace, members
// sorted by name) and hashed with SHA-256. Compiling is the costliest
// step of Parse (the compiler first validates the document against the
// draft meta-schema), and a server asking the same form with a different
// default each time would otherwise pay it for every prompt.
//
// A Cache is bounded (least recently used entries go first) and safe for
// concurrent use; prompts arriving together with a new shape compile it
// once and share the result. Create one with NewCache and keep it per
// session: it holds nothing global. Pass it to ParseWith.
type Cache struct {
	maxEntries int
	maxBytes   int

	mu    sync.Mutex
	lru   list.List // of *cacheEntry, most recent first
	byKey map[[sha256.Size]byte]*list.Element
	bytes int // sum of the entries' weights
}

// cacheEntry is one compiled shape. once makes concurrent first users wait
// for one compile instead of each running their own.
type cacheEntry struct {
	key    [sha256.Size]byte
	weight int // length of the compiled document, a proxy for its memory

	once sync.Once
	sch  *jsonschema.Schema
	err  error
}

// CacheBytes bounds the documents a Cache keeps compiled, summed over its
// entries, so that a few very large forms cannot pin unbounded memory. A
// single document larger than this is compiled but not kept.
const CacheBytes = 4 << 20

// NewCache returns an empty Cache of at most maxEntries compiled shapes
// (at least 1) and at most CacheBytes of compiled documents.
func NewCache(maxEntries int) *Cache {
	return &Cache{
		maxEntries: max(1, maxEntries),
		maxBytes:   CacheBytes,
		byKey:      make(map[[sha256.Size]byte]*list.Element),
	}
}

// Len returns how many compiled shapes the cache holds.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// compile returns the validator of raw, compiling raw unless a document
// of the same canonical form (canon.go) was compiled before. A compile
// error is kept like a validator: it depends only on that form.
//
// What is compiled is the first such document as it was sent, annotations
// and all; a later one with other annotations shares its validator, which
// accepts and refuses exactly what its own would (annotations.go).
func (c *Cache) compile(raw json.RawMessage) (*jsonschema.Schema, error) {
	text, _, ok := canonicalForm(raw)
	if !ok {
		return compileDoc(raw) // not JSON the scanner follows: uncached
	}
	// Weighed by raw, not text: the compiled schema keeps the first
	// document's annotations (a long description, say) alive.
	e := c.entry(sha256.Sum256(text), len(raw))
	e.once.Do(func() { e.sch, e.err = compileDoc(raw) })
	return e.sch, e.err
}

// entry returns the entry for key, adding a new one (and evicting the least
// recently used beyond the bounds) when there is none.
func (c *Cache) entry(key [sha256.Size]byte, weight int) *cacheEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		c.lru.MoveToFront(el)
		return el.Value.(*cacheEntry)
	}
	if c.byKey == nil { // a Cache{} made without NewCache
		c.byKey = make(map[[sha256.Size]byte]*list.Element)
		c.maxEntries = max(1, c.maxEntries)
		c.maxBytes = CacheBytes
	}
	e := &cacheEntry{key: key, weight: weight}
	if weight > c.maxBytes {
		return e // too big to keep; its user still gets it compiled
	}
	c.byKey[key] = c.lru.PushFront(e)
	c.bytes += weight
	for c.lru.Len() > c.maxEntries || c.bytes > c.maxBytes {
		old := c.lru.Back()
		oe := old.Value.(*cacheEntry)
		c.lru.Remove(old)
		delete(c.byKey, oe.key)
		c.bytes -= oe.weight
	}
	return e
}
