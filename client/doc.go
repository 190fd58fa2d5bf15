// Package client is elicit's MCP client engine: one Session per server,
// speaking JSON-RPC 2.0 over a transport.Conn, serving the server's
// elicitation requests through a Prompter and recording every outcome in a
// Journal.
//
// It must not know the UI: no charm imports, no forms. It depends only on
// transport, transport/jsonrpc and forms/schema.
//
// # Usage
//
//	s, err := client.Connect(ctx, &transport.Stdio{Command: "server"}, &client.Options{
//		Name:     "demo",
//		Prompter: client.AcceptDefaults,
//	})
//	if err != nil { ... }
//	defer s.Close()
//	tools, err := s.ListTools(ctx)
//	res, err := s.CallTool(ctx, "deploy", map[string]any{"env": "prod"}, nil)
//
// # Concurrency
//
// A Session runs one read loop that blocks on nothing but the transport.
// Responses reach their waiting callers through buffered channels; each
// request from the server runs in its own goroutine with its own context;
// notifications and state changes reach the Observer, in order, from one
// dispatcher goroutine per session (see Event). Our outgoing ids and the
// server's incoming ids live in two separate tables: they are different id
// spaces and may collide.
//
// # Prompts
//
// Every prompt ends in exactly one Outcome, decided by the engine, never by
// the Prompter alone: if the prompt's context ends first (the server
// withdrew it, the transport died, the owning call was cancelled, the
// prompt timed out), that cause wins and a late answer is discarded. What
// goes on the wire per outcome:
//
//	Accept        {"action":"accept","content":{...}} (URL mode: no content),
//	              after the content passed the schema; else -32602 and Invalid
//	Decline       {"action":"decline"}
//	Cancel        {"action":"cancel"}
//	Withdrawn     nothing (the server cancelled the request)
//	Disconnected  nothing (there is no one to send it to)
//	Abandoned     {"action":"cancel"}, so the server's wait ends too; this is
//	              also how prompts end when the Session is closed by us
//	Timeout       {"action":"cancel"}
//	Invalid       JSON-RPC error -32602 naming the property
//
// # Session expiry
//
// When a request fails with an error wrapping transport.ErrSessionExpired
// (Streamable HTTP answered 404 for our session id), the Session runs
// initialize again, once, and retries that request once with a new id.
// Prompts and calls of the old server session are not carried over.
package client
