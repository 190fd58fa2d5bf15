package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
)

// TestPlainWords (issue 26): Go's error words never reach the person;
// they are said in plain words, the rest of the text as it was.
func TestPlainWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{fmt.Errorf("tools/call %q on demo: %w", "slow", context.Canceled).Error(), `tools/call "slow" on demo: cancelled`},
		{fmt.Errorf("connect: %w", context.DeadlineExceeded).Error(), "connect: timed out"},
		{fmt.Errorf("read: %w", io.EOF).Error(), "read: the connection closed"},
		{fmt.Errorf("read frame: %w", io.ErrUnexpectedEOF).Error(), "read frame: the connection ended mid-message"},
		{"write |1: broken pipe", "write |1: the connection broke"},
		{"read tcp 127.0.0.1:5->127.0.0.1:6: use of closed network connection", "read tcp 127.0.0.1:5->127.0.0.1:6: the connection was closed"},
		{"dial tcp 127.0.0.1:1: i/o timeout", "dial tcp 127.0.0.1:1: timed out"},
		{"read: connection reset by peer", "read: the server reset the connection"},
		{"EOFs and GEOFF stay", "EOFs and GEOFF stay"},
		{"nothing to change", "nothing to change"},
	} {
		if got := plainWords(tc.in); got != tc.want {
			t.Errorf("plainWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestCancelledCallInPlainWords: a call the person cancels says
// "cancelled", in its row and its result, and nowhere "context canceled".
func TestCancelledCallInPlainWords(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		started := make(chan struct{})
		d := newDriver(t, Options{}, withTools(wire.Tool{Name: "ping"}), func(e *fakeEngine) {
			e.callFn = func(ctx context.Context, _ string, _ map[string]any, _ func(client.CallProgress)) (*wire.CallToolResult, error) {
				close(started)
				<-ctx.Done()
				return nil, fmt.Errorf("tools/call %q on demo: %w", "ping", ctx.Err())
			}
		})
		d.keys(keyF5, keyEnter)
		<-started
		d.keys(keyTab, key1('x'))
		d.awaitLate(isCallDone)
		s := d.screen()
		if strings.Contains(s, "context canceled") || !strings.Contains(s, `tools/call "ping" on demo: cancelled`) {
			t.Fatalf("the cancelled call:\n%s", s)
		}
		d.send(noticeMsg("tasks/get: " + errors.Join(context.DeadlineExceeded).Error()))
		if !strings.Contains(d.screen(), "tasks/get: timed out") {
			t.Fatalf("a notice keeps Go's words:\n%s", d.screen())
		}
	})
}
