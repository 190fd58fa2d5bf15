// Package acp is the engine of an ACP (Agent Client Protocol v1) client:
// it spawns an agent over the stdio transport, speaks newline-delimited
// JSON-RPC with a request id space per direction, runs initialize,
// session/new and session/prompt turns, decodes session/update into typed
// updates, and puts the agent's questions (session/request_permission,
// elicitation/create) through the question domain (question.Asker and
// Decision.Reply's ACP rows).
//
// Cancellation goes both ways: $/cancel_request from the agent withdraws
// one open question (answered -32800: in ACP a reply is always owed);
// Stop sends session/cancel, answers every open permission "cancelled"
// and elicitation "cancel", and waits a bounded time for the agent's
// stopReason; a call of ours whose ctx ends is abandoned with
// $/cancel_request. Close answers every open request -32800.
//
// It never imports charm: it runs headless (elicit acp) as well as under
// a UI.
package acp
