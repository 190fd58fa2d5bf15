// Package attach forwards a terminal to a TUI that runs elsewhere: in
// the hub, on a session's live engine (elicit attach, issue 27). It is
// tmux's model: the attaching command owns only its terminal (raw mode,
// its size, restoring it on every way out) and copies bytes; the
// tea.Program runs in the hub, reading the terminal's keys from the
// connection and writing its frames back, so quitting it ends that
// program and nothing else.
//
// On the connection, after one JSON-RPC request line (the Hello: the
// session, TERM, COLORTERM, the colour profile, NO_COLOR and the size)
// and its reply line, everything is a frame: a type byte, a 4-byte
// big-endian length and the payload (frame.go). The client sends data
// (keys), resize and detach frames; the hub sends data (the screen) and
// one exit frame, whose text the client prints once its terminal is
// restored. A connection that ends without an exit frame is a hub that
// died: the client restores the terminal and reports ErrDisconnected.
//
// It knows nothing of ours (no ui, no engine): the hub hands Serve a
// tea.Model and a bind func that attaches it to the session's Bridge.
package attach
