// Package rpcpeer is the JSON-RPC bookkeeping both engines share: the MCP
// engine (client) and the ACP client (client/acp).
//
// Table is the requests of ours awaiting an answer: it allocates their ids,
// holds them from before they are written until their response, remembers
// (bounded) the ids we gave up on, and says of every response whose it is:
// a waiting request's, a late answer to one we gave up on, or a stray (an
// id never issued, or answered already). It has no lock of its own: its
// owner guards it with the lock that also guards what must agree with it
// (the MCP Session's tables of the server's requests and progress tokens).
//
// Peer is a whole JSON-RPC side over one transport.Conn built on a Table:
// calls that wait for their answer, a bounded write, the cancel
// notification when a caller gives up (parameterised: MCP's
// notifications/cancelled, ACP's $/cancel_request), a bounded wait for the
// answer still owed after it, responses to the other side's requests, and
// a hook for late and stray responses. Reading stays the owner's loop: it
// hands responses to Deliver and the connection's end to Fail.
//
// What differs between the protocols stays with them: which requests of
// the other side are answered -32800 (ACP) or never answered once
// withdrawn (MCP), eras, per-request HTTP streams, progress that resets a
// timeout, tasks.
package rpcpeer
