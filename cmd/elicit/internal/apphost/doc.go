// Package apphost is elicit's host of MCP Apps (SEP-1865,
// io.modelcontextprotocol/ui): a page on 127.0.0.1, behind a one-time
// token in its path, that renders a tool's app in a sandboxed iframe under
// the CSP the app's resource declares, and carries the host side of the
// ext-apps protocol (JSON-RPC over postMessage, relayed to this process)
// over the live session: ui/initialize, the tool's input and result,
// tools/call and resources/read from the app (app-visible tools only),
// notifications, size changes, and open-link requests, which are shown to
// the person and never followed by the host.
//
// It reaches the session through Session (the engine's methods), so the
// same host runs for `elicit app` and the TUI.
package apphost
