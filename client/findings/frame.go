package findings

import (
	"errors"
	"time"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// Frame checks one frame as a transport observed it: a frame from the
// server that is not a valid JSON-RPC 2.0 message (err is the transport's
// *jsonrpc.DecodeError) is a JSONRPCShape finding. Other errors (an HTTP
// exchange that failed) are not the server's message, and frames of ours
// are not the server's at all. version is the protocol the session speaks,
// "" when not known.
func (r *Recorder) Frame(server, version string, in bool, err error, at time.Time) {
	var de *jsonrpc.DecodeError
	if r == nil || !in || !errors.As(err, &de) {
		return
	}
	ref := FrameRef{In: true, Time: at}
	if de.ID.IsValid() {
		ref.ID = de.ID.Raw()
	}
	r.Report(server, version, JSONRPCShape, ref, "%s", de.Reason)
}
