// Package rpcpeer is the JSON-RPC peer both engines run on: the MCP
// engine (client) and the ACP client (client/acp).
//
// Table is the requests of ours awaiting an answer: it allocates their ids,
// holds them from before they are written until their response, remembers
// (bounded) the ids we gave up on, and says of every response whose it is:
// a waiting request's, a late answer to one we gave up on, or a stray (an
// id never issued, or answered already). It has no lock of its own: its
// owner (Peer) guards it.
//
// Peer is a whole JSON-RPC side over one transport.Conn built on a Table,
// the one both engines run on: calls that wait for their answer, each
// carrying its owner's record of it (Peer[T, I]: MCP's *call; ACP's Plain
// carries nothing), registered before it is written and found by id
// (Find, Calls) or by a token naming it (ByToken, Bind: MCP's progress
// tokens, which NewToken hands out and Issued recognises); a bounded
// write (Options.Bound: MCP's stands still while a person signs in) that
// says why it was cut short; the cancel notification when a caller gives
// up (parameterised: MCP's notifications/cancelled with its reason, ACP's
// $/cancel_request), or closing the request's own stream where the
// connection cancels that way (transport.RequestCanceler: 2026-07-28
// HTTP); a bounded wait for the answer still owed after it (Abandon);
// responses to the other side's requests; late and stray responses told
// apart (Deliver's Fate, OnStray). Reading stays the owner's loop: it hands
// responses to Deliver and the connection's end to Fail. Its lock is a
// leaf: nothing of the owner's runs under it but Request.Registered.
//
// The other side's requests being served are a second table (Serve,
// Serving, Served: each the owner's I, MCP's *incoming), by their ids,
// which are another id space than ours; a duplicate id still being served
// is refused. What serving one means stays the owner's.
//
// What differs between the protocols stays with them: which requests of
// the other side are answered -32800 (ACP) or never answered once
// withdrawn (MCP), eras, MRTR rounds, per-request HTTP headers and the
// hook telling a request went out (passed through as
// transport.WriteOptions), progress that resets a timeout, tasks.
package rpcpeer
