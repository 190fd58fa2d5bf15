// Package recording is elicit's --record FILE, which the TUI and every
// headless command take: the file opened private with the run's secrets
// masked in every line (Open, Close), the settings line that says how
// the session was started (Settings, Server: names, never secret
// values), and the params the calls are kept in, in the shape of their
// MCP params, for elicit replay to make them again (ToolCallParams,
// CallResult…). The format itself, its writer and reader are
// client/record's.
package recording
