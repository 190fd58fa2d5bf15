// Package wire is MCP's vocabulary as elicit speaks it: method and
// notification names, protocol versions, the _meta keys of the 2026-07-28
// era, the result types every era shares (tools, resources, prompts,
// content blocks), and exact-name decoding of server JSON.
//
// It holds no state and does no I/O; client (the engine) and ui (for the
// data types) import it. Server JSON whose member names decide what the
// engine does is read with DecodeExact or ExactMembers, never with a
// plain json.Unmarshal: encoding/json matches names without regard to
// case, and a server's "ResultType" is not resultType.
package wire
