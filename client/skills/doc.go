// Package skills is the skills extension (SEP-2640, io.modelcontextprotocol/skills): a
// server lists skills, each an entry that names every file of the skill
// with its sha256 digest and size. The files are resources, read with
// resources/read only when the skill is loaded (never on connecting or
// listing), and each is verified against the entry before it is used:
// its size, its digest, and for SKILL.md its YAML frontmatter, field by
// field against the entry's. A skill that fails any check is not loaded,
// and no further file of it is read.
//
// The session reaches the package only through a Handle (skills/list,
// resources/read); Session.Skills is its entry.
package skills
