package transport_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// recorder is an Observer that keeps everything, for assertions.
type recorder struct {
	mu     sync.Mutex
	frames []transport.Frame
	stderr []string
}

func (r *recorder) Frame(f transport.Frame) {
	f.Raw = bytes.Clone(f.Raw)
	r.mu.Lock()
	r.frames = append(r.frames, f)
	r.mu.Unlock()
}

func (r *recorder) Stderr(line string) {
	r.mu.Lock()
	r.stderr = append(r.stderr, line)
	r.mu.Unlock()
}

func (r *recorder) Frames() []transport.Frame {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]transport.Frame(nil), r.frames...)
}

func (r *recorder) StderrLines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.stderr...)
}

// nopCloser closes nothing; for streams over a bytes.Reader, which ends by
// itself.
type nopCloser struct{}

func (nopCloser) Close() error { return nil }

func mustRequest(t testing.TB, id int64, method string, params any) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.NewRequest(jsonrpc.IntID(id), method, params)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// msgOf is a Read's message, for tests that expect one: a request ended
// without its response (Inbound.Err) is an error here.
func msgOf(in transport.Inbound, err error) (*jsonrpc.Message, error) {
	if err == nil && in.Msg == nil {
		err = fmt.Errorf("request %s ended without a message: %w", in.ID, in.Err)
	}
	return in.Msg, err
}

func TestStreamFraming(t *testing.T) {
	t.Parallel()
	const (
		ok1 = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
		bad = `{"jsonrpc":"2.0","id":2,` // cut short
		ok2 = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"p":1}}`
		ok3 = `{"jsonrpc":"2.0","id":"x","result":{}}`
		arr = `[{"jsonrpc":"2.0","id":3,"method":"ping"}]` // a batch: served
		el  = `{"jsonrpc":"2.0","id":3,"method":"ping"}`
	)
	input := "\n\r\n   \n" + ok1 + "\r\n" + bad + "\n" + arr + "\n\t\n" + ok2 + "\n" + ok3 // last line has no newline
	rec := &recorder{}
	c := transport.NewStream(strings.NewReader(input), io.Discard, nopCloser{}, rec)
	defer c.Close()

	var got []string
	for {
		m, err := msgOf(c.Read(t.Context()))
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("Read ended with %v, want an error wrapping io.EOF", err)
			}
			if errors.Is(err, transport.ErrClosed) {
				t.Fatalf("peer EOF reported as ErrClosed: %v", err)
			}
			break
		}
		b, err := jsonrpc.Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b))
	}
	if diff := cmp.Diff([]string{ok1, el, ok2, ok3}, got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}

	type frame struct {
		Dir transport.Direction
		Raw string
		Err bool
	}
	var frames []frame
	for _, f := range rec.Frames() {
		if f.Time.IsZero() {
			t.Errorf("frame %q has no time", f.Raw)
		}
		frames = append(frames, frame{f.Dir, string(f.Raw), f.Err != nil})
	}
	want := []frame{
		{transport.In, ok1, false}, // CR stripped: it is framing
		{transport.In, bad, true},
		{transport.In, el, false}, // a batch's message is a frame of its own
		{transport.In, ok2, false},
		{transport.In, ok3, false},
	}
	if diff := cmp.Diff(want, frames); diff != "" {
		t.Errorf("frames (-want +got):\n%s", diff)
	}
}

func TestStreamRoundTripReportsFrames(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	client, server := transport.Pipe(rec)
	defer client.Close()
	defer server.Close()
	ctx := t.Context()

	req := mustRequest(t, 7, "tools/call", map[string]any{"name": "x", "text": "line1\nline2"})
	go func() {
		if err := client.Write(ctx, req, nil); err != nil {
			t.Errorf("client Write: %v", err)
		}
	}()
	m, err := msgOf(server.Read(ctx))
	if err != nil {
		t.Fatal(err)
	}
	if m.Method != "tools/call" || m.ID != jsonrpc.IntID(7) {
		t.Fatalf("server read %+v", m)
	}
	resp, err := jsonrpc.NewResponse(m.ID, map[string]string{"ok": "yes"})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		if err := server.Write(ctx, resp, nil); err != nil {
			t.Errorf("server Write: %v", err)
		}
	}()
	r, err := msgOf(client.Read(ctx))
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind() != jsonrpc.KindResponse || string(r.Result) != `{"ok":"yes"}` {
		t.Fatalf("client read %+v", r)
	}

	wantOut, _ := jsonrpc.Encode(req)
	wantIn, _ := jsonrpc.Encode(resp)
	frames := rec.Frames()
	if len(frames) != 2 {
		t.Fatalf("got %d frames, want 2", len(frames))
	}
	if frames[0].Dir != transport.Out || !bytes.Equal(frames[0].Raw, wantOut) {
		t.Errorf("out frame = %v %q, want out %q", frames[0].Dir, frames[0].Raw, wantOut)
	}
	if frames[1].Dir != transport.In || !bytes.Equal(frames[1].Raw, wantIn) {
		t.Errorf("in frame = %v %q, want in %q", frames[1].Dir, frames[1].Raw, wantIn)
	}
}

// TestStreamLargeMessages sends 16 MiB each way, past bufio.Scanner's 64 KiB
// default and past our own reader buffer.
func TestStreamLargeMessages(t *testing.T) {
	t.Parallel()
	client, server := transport.Pipe(nil)
	defer client.Close()
	defer server.Close()
	ctx := t.Context()

	big := strings.Repeat("0123456789abcdef", 1<<20) // 16 MiB
	go func() {
		if err := client.Write(ctx, mustRequest(t, 1, "big", map[string]string{"data": big}), nil); err != nil {
			t.Errorf("client Write: %v", err)
		}
	}()
	m, err := msgOf(server.Read(ctx))
	if err != nil {
		t.Fatal(err)
	}
	var p struct{ Data string }
	if err := json.Unmarshal(m.Params, &p); err != nil || p.Data != big {
		t.Fatalf("server got %d bytes of data (err %v), want %d", len(p.Data), err, len(big))
	}
	resp, err := jsonrpc.NewResponse(m.ID, map[string]string{"data": big + "!"})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		if err := server.Write(ctx, resp, nil); err != nil {
			t.Errorf("server Write: %v", err)
		}
	}()
	r, err := msgOf(client.Read(ctx))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(r.Result, &p); err != nil || p.Data != big+"!" {
		t.Fatalf("client got %d bytes of data (err %v), want %d", len(p.Data), err, len(big)+1)
	}
}

// TestStreamOversizedLine: a line past the limit is reported and skipped,
// and the next line is still read.
func TestStreamOversizedLine(t *testing.T) {
	t.Parallel()
	const next = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	const limit = 1 << 20
	huge := bytes.Repeat([]byte("x"), limit+100)
	input := io.MultiReader(bytes.NewReader(huge), strings.NewReader("\n"+next+"\n"))
	rec := &recorder{}
	c := transport.NewStreamLimit(input, io.Discard, nopCloser{}, rec, limit)
	defer c.Close()
	m, err := msgOf(c.Read(t.Context()))
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != jsonrpc.IntID(2) {
		t.Fatalf("read %+v, want id 2", m)
	}
	frames := rec.Frames()
	if len(frames) != 2 || frames[0].Err == nil {
		t.Fatalf("frames = %+v, want an error frame then the ping", frames)
	}
	if !strings.Contains(frames[0].Err.Error(), fmt.Sprint(len(huge))) || len(frames[0].Raw) != 4096 {
		t.Errorf("oversized frame: err %q, %d raw bytes; want the size named and a 4096-byte prefix", frames[0].Err, len(frames[0].Raw))
	}
}

// TestStreamConcurrentWrites: many writers at once, and the peer decodes
// every line, so no two messages interleaved.
func TestStreamConcurrentWrites(t *testing.T) {
	t.Parallel()
	client, serverR, serverW := transport.PipeIO(nil)
	defer client.Close()
	defer serverW.Close()
	defer serverR.Close()
	const writers, each = 16, 10

	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				id := int64(w*each + i)
				// Sizes up to 32 KiB, so that one message takes several
				// reads of the peer's 4 KiB buffer and could interleave.
				pad := strings.Repeat("y", int(id*7919)%(32<<10))
				if err := client.Write(t.Context(), mustRequest(t, id, "m", map[string]string{"pad": pad}), nil); err != nil {
					t.Errorf("Write %d: %v", id, err)
				}
			}
		})
	}
	br := bufio.NewReader(serverR)
	seen := map[jsonrpc.ID]bool{}
	for range writers * each {
		line, err := br.ReadBytes('\n')
		if err != nil {
			t.Fatalf("after %d lines: %v", len(seen), err)
		}
		m, err := jsonrpc.Decode(line)
		if err != nil {
			t.Fatalf("line %d does not decode (interleaved?): %v", len(seen), err)
		}
		if seen[m.ID] {
			t.Fatalf("id %v twice", m.ID)
		}
		seen[m.ID] = true
	}
	wg.Wait()
}

func TestStreamCloseUnblocksRead(t *testing.T) {
	t.Parallel()
	client, server := transport.Pipe(nil)
	defer server.Close()

	errc := make(chan error, 1)
	go func() {
		_, err := client.Read(context.Background())
		errc <- err
	}()
	// Close from several goroutines at once: idempotent, all return.
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			if err := client.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
	}
	wg.Wait()
	select {
	case err := <-errc:
		if !errors.Is(err, transport.ErrClosed) {
			t.Errorf("Read after Close: %v, want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read still blocked after Close")
	}
	if _, err := client.Read(t.Context()); !errors.Is(err, transport.ErrClosed) {
		t.Errorf("second Read after Close: %v, want ErrClosed", err)
	}
	if err := client.Write(t.Context(), mustRequest(t, 1, "ping", nil), nil); !errors.Is(err, transport.ErrClosed) {
		t.Errorf("Write after Close: %v, want ErrClosed", err)
	}
	// The other side sees the peer go away, not a close of its own.
	_, err := server.Read(t.Context())
	if !errors.Is(err, io.EOF) || errors.Is(err, transport.ErrClosed) {
		t.Errorf("server Read after client Close: %v, want io.EOF", err)
	}
}

// TestStreamCloseUnblocksWrite: a Write stuck because the peer does not
// read, and another waiting for its turn, both return on Close.
func TestStreamCloseUnblocksWrite(t *testing.T) {
	t.Parallel()
	writing := make(chan struct{}, 10)
	obs := transport.ObserverFuncs{OnFrame: func(transport.Frame) { writing <- struct{}{} }}
	client, serverR, serverW := transport.PipeIO(obs)
	defer serverW.Close()
	defer serverR.Close()

	// Nobody reads serverR, so the first Write blocks mid-write holding the
	// write turn, and the second waits for the turn.
	errc := make(chan error, 2)
	for i := range 2 {
		go func() { errc <- client.Write(context.Background(), mustRequest(t, int64(i), "ping", nil), nil) }()
	}
	<-writing
	// A Write with a deadline gives up waiting for its turn.
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if err := client.Write(ctx, mustRequest(t, 9, "ping", nil), nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Write with expiring ctx: %v, want DeadlineExceeded", err)
	}
	if err := client.Close(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		select {
		case err := <-errc:
			if !errors.Is(err, transport.ErrClosed) {
				t.Errorf("blocked Write after Close: %v, want ErrClosed", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("Write still blocked after Close")
		}
	}
}

// TestStreamReadContext: a cancelled Read loses nothing; the message is
// there for the next Read.
func TestStreamReadContext(t *testing.T) {
	t.Parallel()
	client, server := transport.Pipe(nil)
	defer client.Close()
	defer server.Close()

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := client.Read(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Read with cancelled ctx: %v", err)
	}
	go func() {
		if err := server.Write(t.Context(), mustRequest(t, 5, "ping", nil), nil); err != nil {
			t.Errorf("Write: %v", err)
		}
	}()
	// Reads that time out while the message is in flight must not drop it.
	var got *jsonrpc.Message
	for range 3 {
		short, cancel := context.WithTimeout(t.Context(), 10*time.Millisecond)
		m, err := msgOf(client.Read(short))
		cancel()
		if err == nil {
			got = m
			break
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatal(err)
		}
	}
	if got == nil {
		m, err := msgOf(client.Read(t.Context()))
		if err != nil {
			t.Fatal(err)
		}
		got = m
	}
	if got.ID != jsonrpc.IntID(5) {
		t.Errorf("read %+v, want id 5", got)
	}
}

func TestStreamWriteInvalidMessage(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	var out bytes.Buffer
	c := transport.NewStream(strings.NewReader(""), &out, nopCloser{}, rec)
	defer c.Close()
	if err := c.Write(t.Context(), &jsonrpc.Message{}, nil); err == nil {
		t.Fatal("Write of an empty message succeeded")
	}
	if out.Len() != 0 || len(rec.Frames()) != 0 {
		t.Errorf("invalid message left %q on the wire and %d frames", out.String(), len(rec.Frames()))
	}
	if err := c.Write(t.Context(), mustRequest(t, 1, "ping", nil), nil); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"; got != want {
		t.Errorf("wire = %q, want %q", got, want)
	}
}
