package transport

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"time"
)

// sseMaxEvent bounds one SSE line and one event's data by default. MCP
// messages of 16 MiB must pass (a server may inline a large resource); the
// bound only stops a hostile or broken server from growing our memory
// without limit.
const sseMaxEvent = DefaultLineLimit

// errSSETooLarge is reported (wrapped) for an event past the limit.
var errSSETooLarge = errors.New("sse: event larger than the limit")

// utf8BOM is stripped once at the start of a stream, as UTF-8 decode does.
const utf8BOM = "\xEF\xBB\xBF"

// sseEvent is one dispatched server-sent event.
type sseEvent struct {
	// Type is the event field; empty means the default type "message".
	Type string
	// Data is the data lines joined with \n. It is a fresh slice that the
	// caller may keep.
	Data []byte
	// ID is the stream's last event id when the event was dispatched (the
	// WHATWG "lastEventId" of the event, which may come from an earlier
	// event).
	ID string
	// TooLarge is set for an event whose data (or one of whose lines) went
	// past the limit: Data then holds only its first rawPrefix bytes, for
	// the traffic view and to read the id of an answer from, and Size the
	// data's full length. Its type may be lost.
	TooLarge bool
	Size     int
}

// sseReader parses a text/event-stream body by the WHATWG HTML rules
// ("Interpreting an event stream"): lines end in CRLF, LF or CR; a blank
// line dispatches; ":" starts a comment; "field: value" loses one leading
// space; data lines are joined with \n; id (without NUL) sets the last event
// id even when the event carries no data; retry takes ASCII digits only; an
// event with no data field is not dispatched; an unfinished event at EOF is
// dropped. It also serves the legacy HTTP+SSE transport, whose events carry a
// type ("endpoint").
//
// A line or event past the limit does not end the stream: the rest of it is
// read and dropped as it comes, so memory stays bounded and the events
// after it are read as usual (see sseEvent.TooLarge).
type sseReader struct {
	r   *bufio.Reader
	max int

	started  bool // the BOM check has run
	skipLF   bool // the last line ended in CR, so a leading LF belongs to it
	line     []byte
	lineCut  bool // the line went past max: line holds its start only
	lineSize int  // the line's full length
	// parts holds a line longer than sseOwnLine as it comes, a copy of
	// each buffer's worth; the line is joined once, into an array of its
	// own (lineFresh), when it ends.
	parts     [][]byte
	lineFresh bool

	data     []byte // data lines, each followed by \n
	typ      string
	tooLarge bool // the event went past max: data holds its start only
	size     int  // the event's data length, counted past max too

	lastID   string
	retry    time.Duration
	retrySet bool
}

// newSSEReader reads events from r; max <= 0 means sseMaxEvent.
func newSSEReader(r io.Reader, max int) *sseReader {
	if max <= 0 {
		max = sseMaxEvent
	}
	return &sseReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// LastEventID is the stream's last event id buffer: the value to send as
// Last-Event-ID when resuming. Priming events (an id and no data) update it.
func (p *sseReader) LastEventID() string { return p.lastID }

// Retry returns the reconnection time the server asked for and whether it
// sent one.
func (p *sseReader) Retry() (time.Duration, bool) { return p.retry, p.retrySet }

// Next returns the next dispatched event. At the end of the body it returns
// io.EOF (a partial event is discarded); other errors come from the reader.
func (p *sseReader) Next() (sseEvent, error) {
	for {
		line, err := p.readLine()
		if err != nil {
			return sseEvent{}, err
		}
		if len(line) == 0 {
			if ev, ok := p.dispatch(); ok {
				return ev, nil
			}
			continue
		}
		if err := p.field(line); err != nil {
			return sseEvent{}, err
		}
	}
}

// dispatch ends the current event. Per WHATWG an event whose data buffer is
// empty (no data field at all) dispatches nothing; either way the buffers are
// reset. An event with a bare "data:" line is dispatched with empty Data;
// MCP priming events (SEP-1699) look like that, and the caller skips them.
func (p *sseReader) dispatch() (sseEvent, bool) {
	data, typ, tooLarge, size := p.data, p.typ, p.tooLarge, p.size
	p.data, p.typ, p.tooLarge, p.size = nil, "", false, 0
	if tooLarge {
		if size == 0 {
			return sseEvent{}, false // no data field: nothing to dispatch
		}
		return sseEvent{Data: data, ID: p.lastID, TooLarge: true, Size: max(size-1, 0)}, true
	}
	if len(data) == 0 {
		return sseEvent{}, false
	}
	// Every data line appended a \n; WHATWG drops the last one.
	return sseEvent{Type: typ, Data: data[:len(data)-1], ID: p.lastID}, true
}

// keep is how much of an oversized line or event is kept.
func (p *sseReader) keep() int { return min(rawPrefix, p.max) }

// overflow makes the event too large: it keeps the start of its data, with
// value (of full length n) after what came before, and counts the rest.
func (p *sseReader) overflow(value []byte, n int) {
	if !p.tooLarge {
		// A fresh array: the large one behind p.data is let go.
		start := bytes.Clone(p.data[:min(len(p.data), p.keep())])
		p.data = append(start, value[:min(len(value), p.keep()-len(start))]...)
		p.tooLarge = true
	}
	p.size += n + 1
}

func (p *sseReader) field(line []byte) error {
	if line[0] == ':' {
		return nil // comment, e.g. a keep-alive
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	if p.lineCut {
		// Only the start of the line is here: a cut data value makes the
		// event too large, a cut type leaves it unknown, and a cut id or
		// retry is ignored rather than taken half.
		switch string(name) {
		case "data":
			p.overflow(value, p.lineSize-(len(line)-len(value)))
		case "event":
			p.tooLarge = true
		}
		return nil
	}
	switch string(name) {
	case "data":
		if p.tooLarge || len(p.data)+len(value)+1 > p.max {
			p.overflow(value, len(value))
			return nil
		}
		p.size += len(value) + 1
		switch {
		case p.data == nil && p.lineFresh:
			// A long first data line becomes the event's buffer as it is
			// (joinLine made it an array of its own, with room for the
			// \n): copying a 16 MiB line would hold both at once.
			p.data, p.line, p.lineFresh = append(value, '\n'), nil, false
			return nil
		case p.data == nil:
			// Size the first allocation to the line: most MCP events are
			// one data line, so this avoids regrowing 16 MiB buffers.
			p.data = make([]byte, 0, len(value)+1)
		}
		p.data = append(p.data, value...)
		p.data = append(p.data, '\n')
	case "event":
		p.typ = string(value)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			p.lastID = string(value)
		}
	case "retry":
		if ms, ok := parseRetry(value); ok {
			p.retry, p.retrySet = ms, true
		}
	}
	return nil
}

// parseRetry accepts only ASCII digits, as WHATWG requires; a value too
// large for a Duration is clamped rather than wrapped.
func parseRetry(v []byte) (time.Duration, bool) {
	if len(v) == 0 {
		return 0, false
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	const maxMS = int64(time.Duration(1<<63-1) / time.Millisecond)
	if err != nil || n > maxMS {
		n = maxMS // only overflow can fail here
	}
	return time.Duration(n) * time.Millisecond, true
}

// readLine returns the next line without its terminator. The slice is only
// valid until the next call. A line past max comes back cut to its start
// (lineCut, with its full length in lineSize); the rest is read and dropped.
func (p *sseReader) readLine() ([]byte, error) {
	p.line, p.lineCut, p.lineSize, p.parts = p.line[:0], false, 0, nil
	if p.lineFresh {
		p.line, p.lineFresh = nil, false // a long line's array is not kept for the next
	}
	for {
		buf, err := p.fill()
		if err != nil {
			// An unterminated last line is part of an unfinished event,
			// which WHATWG discards at EOF.
			return nil, err
		}
		if !p.started {
			n := min(len(buf), len(utf8BOM))
			if string(buf[:n]) == utf8BOM[:n] {
				if n == len(utf8BOM) {
					p.started = true
					p.discard(n)
					continue
				}
				// Maybe a BOM split across reads: wait for more bytes, then
				// look again at the (possibly moved) buffer.
				if _, err := p.r.Peek(len(utf8BOM)); err != nil {
					p.started = true // too short to be a BOM
				}
				continue
			}
			p.started = true
		}
		if p.skipLF {
			p.skipLF = false
			if buf[0] == '\n' {
				p.discard(1)
				continue
			}
		}
		end := bytes.IndexByte(buf, '\n')
		if end < 0 {
			end = len(buf)
		}
		if cr := bytes.IndexByte(buf[:end], '\r'); cr >= 0 {
			end = cr
		}
		p.lineSize += end
		switch {
		case p.lineCut:
		case p.lineSize > p.max:
			src := p.parts // what came so far: the chunks, or the line
			if src == nil {
				src = [][]byte{p.line}
			}
			var keep []byte // a fresh array: the large ones are let go
			for _, b := range src {
				keep = append(keep, b[:min(len(b), p.keep()-len(keep))]...)
			}
			p.line = append(keep, buf[:min(end, p.keep()-len(keep))]...)
			p.lineCut, p.parts = true, nil
		default:
			p.appendLine(buf[:end])
		}
		if end == len(buf) {
			p.discard(end)
			continue
		}
		// A CR may be followed by an LF that has not arrived yet; remember
		// to drop it instead of waiting for it, which would stall dispatch.
		p.skipLF = buf[end] == '\r'
		p.discard(end + 1)
		return p.joinLine(), nil
	}
}

// sseOwnLine is the longest line kept in the reused line buffer; a longer
// one gets an array of its own, which a data line hands to its event
// instead of being copied (appendLine, field).
const sseOwnLine = 64 << 10

// appendLine adds chunk (bytes of the reader's buffer) to the line. A line
// up to sseOwnLine goes into the reused line buffer; a longer one is kept
// as copies of its chunks until it ends (joinLine). Growing one array by
// append instead would copy a 16 MiB line some twenty times (append grows
// large slices by a quarter) and leave it with up to a quarter unused.
func (p *sseReader) appendLine(chunk []byte) {
	if p.parts == nil && len(p.line)+len(chunk) <= sseOwnLine {
		p.line = append(p.line, chunk...)
		return
	}
	if p.parts == nil {
		p.parts = [][]byte{bytes.Clone(p.line)}
	}
	p.parts = append(p.parts, bytes.Clone(chunk))
}

// joinLine returns the line just read: the line buffer, or for a long line
// its chunks joined into an array of exactly its length plus one byte (the
// \n a data line gets as an event's buffer, field), which the caller may
// keep (lineFresh).
func (p *sseReader) joinLine() []byte {
	if p.parts == nil {
		return p.line
	}
	n := 0
	for _, b := range p.parts {
		n += len(b)
	}
	line := make([]byte, 0, n+1)
	for _, b := range p.parts {
		line = append(line, b...)
	}
	p.line, p.parts, p.lineFresh = line, nil, true
	return line
}

// fill returns the buffered bytes, reading more if none are buffered.
func (p *sseReader) fill() ([]byte, error) {
	if p.r.Buffered() == 0 {
		if _, err := p.r.Peek(1); err != nil {
			return nil, err
		}
	}
	buf, _ := p.r.Peek(p.r.Buffered())
	return buf, nil
}

func (p *sseReader) discard(n int) {
	_, _ = p.r.Discard(n) // n is never more than is buffered
}
