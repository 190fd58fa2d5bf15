package skills

import "fmt"

// Key names a skill: the server that lists it and its URI. A name is
// not a key: two servers (or one) may list skills of the same name, and
// each stays its own.
type Key struct {
	Server string `json:"server"`
	URI    string `json:"uri"`
}

// Entry is one skill of a catalog with the server that listed it.
type Entry struct {
	Key
	Skill Skill
}

// Catalog is the skills of several servers, keyed by (server, uri), in
// the order they were added. None shadows another: skills sharing a
// name are all kept, and a (server, uri) listed twice is kept once and
// reported.
type Catalog struct {
	entries []Entry
	at      map[Key]int
}

// Add appends server's skills; it returns one error per (server, uri)
// the server listed more than once (the first entry is kept).
func (c *Catalog) Add(server string, list []Skill) []error {
	if c.at == nil {
		c.at = map[Key]int{}
	}
	var dup []error
	for _, sk := range list {
		k := Key{Server: server, URI: sk.URI}
		if _, ok := c.at[k]; ok {
			dup = append(dup, fmt.Errorf("%s lists skill %s more than once (the first entry is kept)", server, sk.URI))
			continue
		}
		c.at[k] = len(c.entries)
		c.entries = append(c.entries, Entry{Key: k, Skill: sk})
	}
	return dup
}

// Entries are all the skills, in the order added.
func (c *Catalog) Entries() []Entry { return append([]Entry(nil), c.entries...) }

// Find is the skill at k.
func (c *Catalog) Find(k Key) (Skill, bool) {
	i, ok := c.at[k]
	if !ok {
		return Skill{}, false
	}
	return c.entries[i].Skill, true
}

// Named are every skill whose frontmatter name is name: all of them,
// for the caller to tell apart, never one chosen silently.
func (c *Catalog) Named(name string) []Entry {
	var out []Entry
	for _, e := range c.entries {
		if n, _ := e.Skill.Meta(); n == name {
			out = append(out, e)
		}
	}
	return out
}
