// Package trust is the rule that elicit runs only what the person names
// or confirms. A file the person did not write can name what to start:
// a recording (elicit replay) and a project's config found in the
// working directory (./.mcp.json) come with a clone or a download. What
// such a file would start, or connect to, is a Launch, shown whole
// (every argument quoted as a shell needs it, all of it through
// themes/untrusted); a Gate lets it run when a flag says so or the
// person confirms on a terminal, and otherwise refuses with a usage
// error saying how to go on, before anything runs.
package trust
