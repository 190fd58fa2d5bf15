// Package skills is the skills extension (SEP-2640, io.modelcontextprotocol/skills): a
// server lists skills (skills/list, or one by skills/get), each an entry
// that names every file of the skill with its sha256 digest and size, or
// says its files are "dynamic" (generated: nothing to verify them by).
// The files are resources, read with resources/read only when asked for
// (never on connecting or listing), and each is checked against the
// entry before it is called verified: its size, its digest, and for the
// skill's own SKILL.md its YAML frontmatter, field by field against the
// entry's. A nested SKILL.md is a file like the others. Load reads a
// whole skill and stops at the first file that fails; ReadFile reads one
// and reports its check (File.Check).
//
// Nothing of the extension is asked of a server that did not declare it
// under capabilities.extensions (ErrNotDeclared, in every era), and
// resources/directory/read only of one that declared directoryRead: true.
// Skills are keyed by (server, uri) (Key, Catalog), never by name.
//
// The session reaches the package only through a Handle; Session.Skills
// is its entry.
package skills
