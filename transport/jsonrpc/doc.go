// Package jsonrpc is the JSON-RPC 2.0 envelope elicit speaks on every
// transport: ids that keep their exact wire form, one Message type for
// requests, notifications and responses, and strict Decode/Encode.
//
// It is the bottom layer: it imports only the standard library, so both
// transport (which needs the envelope for HTTP headers and per-request SSE
// streams) and client (which needs the types) can depend on it.
//
// Batches were removed from MCP in 2025-06-18; DecodeFrame still splits
// one into its messages, Decode refuses them.
package jsonrpc
