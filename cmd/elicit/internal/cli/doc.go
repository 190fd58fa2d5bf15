// Package cli is what elicit's commands that talk to an MCP server share
// on their command line: the flags (Flags: the server's, from
// serverspec, and the session's), how they are parsed (flags before or
// after the positional arguments, -- CMD ARGS... for the server's
// command) and read (--elicit, --sample, --answer), and the settings a
// --record file notes of them.
package cli
