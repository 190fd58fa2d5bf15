// Package demo is a stand-alone MCP server that plays the scenes elicit
// exists for: a deploy confirmation that can be accepted, declined or
// dismissed; two tickets asked about at once; a form with every field type of
// the 2025-11-25 elicitation subset; a question the server withdraws; a
// URL-mode consent; a storm of parallel questions; and a slow tool that
// reports progress and logs.
//
// It is built only on github.com/modelcontextprotocol/go-sdk and the standard
// library and must not import any other elicit package: tests use it as a real
// peer, and the CLI embeds it (`elicit demo`, `elicit demo --serve stdio`,
// `elicit demo --serve http ADDR`).
//
// Usage:
//
//	srv := demo.New(&demo.Options{WithdrawAfter: 2 * time.Second})
//	st, ct := mcp.NewInMemoryTransports()
//	ss, _ := srv.Connect(ctx, st, nil)
//	// connect a client to ct ...
//
// or serve it: [ServeStdio], [ServeIO], [HTTPHandler], [ServeHTTP].
//
// The server negotiates protocol 2025-11-25 or older, where elicitation is a
// server-to-client request (elicitation/create). The 2026-07-28 era, where it
// travels inside an input_required result, is a separate mode still to come.
//
// Concurrency: go-sdk runs every tools/call in its own goroutine, so calls
// and their questions proceed in parallel; the tools keep no state between
// calls and share nothing, so answers can never cross.
//
// Every tool file registers one group of tools (tools_deploy.go,
// tools_ticket.go, ...), so later modes and task tools can be added as new
// files without touching the others.
package demo
