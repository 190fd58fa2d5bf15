package ui

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// TestTrafficMarksARefusedRequest: our error answer to a server request
// refused for a capability we did not declare says so on its row; the
// request itself and an error of another id or server are not marked.
func TestTrafficMarksARefusedRequest(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{Now: func() time.Time { return t0 }})
		br := d.m.bridge
		br.Frame("demo", client.Frame{Time: t0, Dir: client.In, Raw: []byte(`{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage","params":{}}`)})
		br.Frame("demo", client.Frame{Time: t0, Dir: client.Out, Raw: []byte(`{"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"sampling not declared"}}`)})
		br.Frame("demo", client.Frame{Time: t0, Dir: client.Out, Raw: []byte(`{"jsonrpc":"2.0","id":"r2","error":{"code":-32601,"message":"x"}}`)})
		br.Frame("other", client.Frame{Time: t0, Dir: client.Out, Raw: []byte(`{"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"x"}}`)})
		d.waitInbox()
		d.send(eventMsg{e: client.RequestRefused{Server: "demo", ID: jsonrpc.IntID(0), Method: "sampling/createMessage", Capability: "sampling"}})
		d.keys(keyF6)
		s := d.screen()
		if !strings.Contains(s, "→ demo error #0  refused: sampling not declared") {
			t.Errorf("our error answer is not marked:\n%s", s)
		}
		if strings.Count(s, "refused:") != 1 {
			t.Errorf("want exactly one row marked:\n%s", s)
		}
	})
}
