package transport

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// sseAll parses the whole input and returns every event, the final cursor,
// and the error that ended it (io.EOF for a clean end).
func sseAll(r io.Reader, max int) (evs []sseEvent, p *sseReader, err error) {
	p = newSSEReader(r, max)
	for {
		ev, err := p.Next()
		if err != nil {
			return evs, p, err
		}
		evs = append(evs, ev)
	}
}

func TestSSEReader(t *testing.T) {
	t.Parallel()
	ev := func(typ, data, id string) sseEvent { return sseEvent{Type: typ, Data: []byte(data), ID: id} }
	tests := []struct {
		name   string
		in     string
		want   []sseEvent
		lastID string
		retry  time.Duration // 0 = not set
	}{
		{name: "one event", in: "data: {}\n\n", want: []sseEvent{ev("", "{}", "")}},
		{name: "data lines joined with LF", in: "data: a\ndata: b\ndata:\n\n", want: []sseEvent{ev("", "a\nb\n", "")}},
		{name: "CRLF endings", in: "id: 1\r\ndata: x\r\n\r\n", want: []sseEvent{ev("", "x", "1")}, lastID: "1"},
		{name: "CR endings", in: "id: 1\rdata: x\r\rdata: y\r\r", want: []sseEvent{ev("", "x", "1"), ev("", "y", "1")}, lastID: "1"},
		{name: "mixed endings", in: "data: a\r\ndata: b\rdata: c\n\r\n", want: []sseEvent{ev("", "a\nb\nc", "")}},
		{name: "comments ignored", in: ": keep-alive\n:\ndata: x\n: in the middle\n\n", want: []sseEvent{ev("", "x", "")}},
		{name: "one leading space stripped", in: "data:  two\ndata:none\n\n", want: []sseEvent{ev("", " two\nnone", "")}},
		{name: "colon in value kept", in: "data: {\"a\":1}\n\n", want: []sseEvent{ev("", `{"a":1}`, "")}},
		{name: "field without colon", in: "data\n\n", want: []sseEvent{ev("", "", "")}},
		{name: "bare data line dispatches empty", in: "id: p\ndata: \n\n", want: []sseEvent{ev("", "", "p")}, lastID: "p"},
		{name: "priming event without data", in: "id: 42\n\n", lastID: "42"},
		{name: "id carries to later events", in: "id: 7\n\ndata: x\n\n", want: []sseEvent{ev("", "x", "7")}, lastID: "7"},
		{name: "empty id resets", in: "id: 7\ndata: a\n\nid\ndata: b\n\n", want: []sseEvent{ev("", "a", "7"), ev("", "b", "")}},
		{name: "id with NUL ignored", in: "id: 7\n\nid: a\x00b\ndata: x\n\n", want: []sseEvent{ev("", "x", "7")}, lastID: "7"},
		{name: "event type", in: "event: endpoint\ndata: /m\n\ndata: y\n\n", want: []sseEvent{ev("endpoint", "/m", ""), ev("", "y", "")}},
		{name: "type reset without dispatch", in: "event: x\n\ndata: y\n\n", want: []sseEvent{ev("", "y", "")}},
		{name: "retry", in: "retry: 50\n\n", retry: 50 * time.Millisecond},
		{name: "retry not digits ignored", in: "retry: 50\n\nretry: 5x\nretry: -1\nretry: \nretry: 1.5\n\n", retry: 50 * time.Millisecond},
		{name: "unknown fields ignored", in: "foo: bar\nData: no\ndata: yes\n\n", want: []sseEvent{ev("", "yes", "")}},
		{name: "unfinished event dropped at EOF", in: "data: a\n\ndata: b\n", want: []sseEvent{ev("", "a", "")}},
		{name: "unterminated line dropped at EOF", in: "data: a\n\ndata: b", want: []sseEvent{ev("", "a", "")}},
		{name: "BOM stripped once", in: "\xEF\xBB\xBFdata: a\n\n\xEF\xBB\xBFdata: b\n\n", want: []sseEvent{ev("", "a", "")}},
		{name: "blank lines only", in: "\n\n\r\n\r"},
		{name: "empty", in: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Whole, and one byte per Read: a CRLF split across reads must
			// still count as one line ending.
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				got, p, err := sseAll(r, 0)
				if !errors.Is(err, io.EOF) {
					t.Fatalf("err = %v, want io.EOF", err)
				}
				if diff := cmp.Diff(tt.want, got, cmp.Comparer(bytes.Equal)); diff != "" {
					t.Errorf("events (-want +got):\n%s", diff)
				}
				if p.LastEventID() != tt.lastID {
					t.Errorf("LastEventID = %q, want %q", p.LastEventID(), tt.lastID)
				}
				retry, set := p.Retry()
				if set != (tt.retry != 0) || retry != tt.retry {
					t.Errorf("Retry = %v, %v, want %v", retry, set, tt.retry)
				}
			}
		})
	}
}

// A lone CR ends an event at once: the reader must not wait for a possible
// LF, or a CR-only server's events would stall until the next byte.
func TestSSEReaderCRDoesNotWait(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	defer pr.Close()
	go func() {
		_, _ = pw.Write([]byte("data: x\r\r"))
		// No more bytes until the reader is done.
	}()
	p := newSSEReader(pr, 0)
	done := make(chan sseEvent, 1)
	go func() {
		ev, err := p.Next()
		if err == nil {
			done <- ev
		}
		close(done)
	}()
	select {
	case ev := <-done:
		if string(ev.Data) != "x" {
			t.Errorf("Data = %q, want x", ev.Data)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("event ending in CR CR was not dispatched")
	}
	_ = pw.Close()
}

// An event past the limit comes as TooLarge with the start of its data and
// its full size, and the stream goes on: the rest is read and dropped.
func TestSSEReaderLimit(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 100)
	for _, tt := range []struct {
		name, in string
		size     int
	}{
		{"one long line", "data: " + long + "\n\n", 100},
		{"many short lines", strings.Repeat("data: xxxxxxxxxx\n", 20) + "\n", 20*11 - 1},
		{"long line after short ones", "data: a\ndata: " + long + "\n\n", 2 + 100},
		{"long line split by CR", "data: " + long + "\r\n\r\n", 100},
	} {
		for _, r := range []io.Reader{strings.NewReader(tt.in + "id: 9\ndata: next\n\n"), iotest.OneByteReader(strings.NewReader(tt.in + "id: 9\ndata: next\n\n"))} {
			evs, p, err := sseAll(r, 64)
			if !errors.Is(err, io.EOF) {
				t.Fatalf("%s: err = %v, want io.EOF", tt.name, err)
			}
			if len(evs) != 2 || !evs[0].TooLarge || evs[0].Size != tt.size || len(evs[0].Data) > 64 ||
				!bytes.HasPrefix([]byte(strings.ReplaceAll(strings.ReplaceAll(tt.in, "data: ", ""), "\n", "")), bytes.ReplaceAll(evs[0].Data, []byte("\n"), nil)) {
				t.Fatalf("%s: events %+v, want one too large (size %d) with its start", tt.name, evs, tt.size)
			}
			if evs[1].TooLarge || string(evs[1].Data) != "next" || p.LastEventID() != "9" {
				t.Errorf("%s: next event %+v, id %q", tt.name, evs[1], p.LastEventID())
			}
		}
	}
	// Long lines that are no data: a comment is nothing, a cut id or retry
	// is ignored, and a cut type makes the event too large.
	evs, p, err := sseAll(strings.NewReader(": "+long+"\nid: "+long+"\nretry: 1"+strings.Repeat("0", 100)+"\ndata: a\n\nevent: "+long+"\ndata: b\n\n"), 64)
	if !errors.Is(err, io.EOF) || len(evs) != 2 || evs[0].TooLarge || string(evs[0].Data) != "a" || !evs[1].TooLarge {
		t.Fatalf("events %+v, err %v", evs, err)
	}
	if _, set := p.Retry(); set || p.LastEventID() != "" {
		t.Errorf("a cut id or retry was taken: %q", p.LastEventID())
	}
}

func TestSSEReader16MiB(t *testing.T) {
	t.Parallel()
	payload := bytes.Repeat([]byte("a"), 16<<20)
	in := io.MultiReader(strings.NewReader("id: big\ndata: "), bytes.NewReader(payload), strings.NewReader("\n\n"))
	got, _, err := sseAll(in, 0)
	if !errors.Is(err, io.EOF) {
		t.Fatalf("err = %v", err)
	}
	if len(got) != 1 || !bytes.Equal(got[0].Data, payload) || got[0].ID != "big" {
		t.Fatalf("got %d events, want one 16 MiB event with id big", len(got))
	}
}

func TestParseRetryHuge(t *testing.T) {
	t.Parallel()
	d, ok := parseRetry([]byte("99999999999999999999999"))
	if !ok || d <= 0 {
		t.Errorf("parseRetry(huge) = %v, %v; want a large positive duration", d, ok)
	}
}

func BenchmarkSSEReader(b *testing.B) {
	var buf bytes.Buffer
	msg := `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":5}}`
	for i := range 1000 {
		buf.WriteString("id: ")
		buf.WriteString(strings.Repeat("9", i%5+1))
		buf.WriteString("\ndata: " + msg + "\n\n")
	}
	in := buf.Bytes()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := sseAll(bytes.NewReader(in), 0); !errors.Is(err, io.EOF) {
			b.Fatal(err)
		}
	}
}
