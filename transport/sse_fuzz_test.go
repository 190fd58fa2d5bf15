package transport

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// sseReference is a deliberately naive transcription of the WHATWG
// "interpreting an event stream" steps over a whole input string. The fuzz
// target checks the streaming reader against it.
func sseReference(in string) (evs []sseEvent, lastID string, retry time.Duration, retrySet bool) {
	in = strings.TrimPrefix(in, utf8BOM)
	var lines []string
	start := 0
	for i := 0; i < len(in); i++ {
		switch in[i] {
		case '\n':
			lines = append(lines, in[start:i])
			start = i + 1
		case '\r':
			lines = append(lines, in[start:i])
			if i+1 < len(in) && in[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	// Whatever follows the last line ending is an unfinished line: dropped.
	var data, typ string
	for _, line := range lines {
		if line == "" {
			if data != "" {
				evs = append(evs, sseEvent{Type: typ, Data: []byte(data[:len(data)-1]), ID: lastID})
			}
			data, typ = "", ""
			continue
		}
		if line[0] == ':' {
			continue
		}
		name, value, found := strings.Cut(line, ":")
		if found {
			value = strings.TrimPrefix(value, " ")
		}
		switch name {
		case "event":
			typ = value
		case "data":
			data += value + "\n"
		case "id":
			if !strings.Contains(value, "\x00") {
				lastID = value
			}
		case "retry":
			if value != "" && strings.Trim(value, "0123456789") == "" {
				retry, retrySet = parseRetryRef(value), true
			}
		}
	}
	return evs, lastID, retry, retrySet
}

func parseRetryRef(v string) time.Duration {
	const maxMS = int64(time.Duration(1<<63-1) / time.Millisecond)
	var n int64
	for _, c := range v {
		n = n*10 + int64(c-'0')
		if n > maxMS {
			return time.Duration(maxMS) * time.Millisecond
		}
	}
	return time.Duration(n) * time.Millisecond
}

// sseChunked returns at most n bytes per Read, to move line endings, BOMs
// and CRLF pairs across read boundaries.
type sseChunked struct {
	r io.Reader
	n int
}

func (c sseChunked) Read(p []byte) (int, error) {
	if len(p) > c.n {
		p = p[:c.n]
	}
	return c.r.Read(p)
}

func FuzzSSEReader(f *testing.F) {
	for _, s := range []string{
		"data: {}\n\n",
		"id: 1\r\nretry: 50\r\ndata: a\r\ndata: b\r\n\r\n",
		"\xEF\xBB\xBFevent: endpoint\rdata: /x\r\r",
		": c\nid: a\x00b\nid\ndata\n\nid: 9\n\n",
		"retry: 99999999999999999999\n\ndata: x\n",
		"data:  y\r\r\n\n\r",
	} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(1))
	}
	f.Fuzz(func(t *testing.T, in []byte, chunk uint8) {
		wantEvs, wantID, wantRetry, wantSet := sseReference(string(in))
		got, p, err := sseAll(sseChunked{bytes.NewReader(in), int(chunk) + 1}, 0)
		if !errors.Is(err, io.EOF) {
			t.Fatalf("err = %v, want io.EOF", err)
		}
		if diff := cmp.Diff(wantEvs, got, cmp.Comparer(bytes.Equal)); diff != "" {
			t.Fatalf("events differ from the reference (-want +got):\n%s", diff)
		}
		if p.LastEventID() != wantID {
			t.Fatalf("LastEventID = %q, want %q", p.LastEventID(), wantID)
		}
		if r, set := p.Retry(); r != wantRetry || set != wantSet {
			t.Fatalf("Retry = %v, %v, want %v, %v", r, set, wantRetry, wantSet)
		}

		// With a small limit, nothing kept is larger than it, and the whole
		// input is still read.
		const small = 16
		got, _, err = sseAll(sseChunked{bytes.NewReader(in), int(chunk) + 1}, small)
		if !errors.Is(err, io.EOF) {
			t.Fatalf("limit %d: err = %v, want io.EOF", small, err)
		}
		for _, ev := range got {
			if len(ev.Data) > small || !ev.TooLarge && ev.Size != 0 {
				t.Fatalf("limit %d: event %+v", small, ev)
			}
		}
	})
}
