package client

import "github.com/elicit-dev/elicit/transport"

// Frame is a raw wire frame, re-exported so the UI can show traffic without
// importing transport (see the dependency rule in AGENTS.md).
type Frame = transport.Frame

// Direction of a Frame.
type Direction = transport.Direction

// HTTPInfo describes the HTTP exchange that carried a Frame.
type HTTPInfo = transport.HTTPInfo

// Frame directions.
const (
	Out = transport.Out
	In  = transport.In
)
