package headless

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/elicit-dev/elicit/themes/untrusted"
)

// Repairable is output that can say its server text was repaired
// (WriteJSON tells it, with RepairedNote): every command's output has it.
type Repairable interface{ SetRepaired(note string) }

// RepairedNote is what "repaired" says when a string of the server's
// was not valid UTF-8.
const RepairedNote = "the server sent invalid UTF-8; each bad byte is shown as U+FFFD"

// WriteJSON writes v as indented JSON through untrusted.JSON: valid UTF-8
// with C1 and bidi controls escaped, whatever the server put in it. When
// bytes had to be replaced, output that can say so does. A call's output
// with a result is written as it is indented (writeCall).
func WriteJSON(w io.Writer, v any) error {
	if o, ok := v.(*CallOutput); ok && len(o.Result) > 0 {
		return writeCall(w, o)
	}
	b, err := encodeJSON(v)
	if err != nil {
		return err
	}
	safe, repaired := untrusted.JSON(b)
	if r, ok := v.(Repairable); ok && repaired {
		r.SetRepaired(RepairedNote)
		if b, err = encodeJSON(v); err != nil {
			return err
		}
		safe, _ = untrusted.JSON(b)
	}
	if _, err := w.Write(safe); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// jsonList is a list in an output that encoding/json encodes through its
// MarshalJSON: the same bytes (null, [], or the elements as encodeIndented
// writes them; TestJSONListSameBytes), but the encoder of the element type
// is built only when there is an element. encoding/json builds the
// encoders of all of a struct's field types the first time it meets the
// struct, empty lists or not, and a headless run meets its output once:
// findings (time.Time, a frame reference), sampling (JSON-RPC errors) and
// prompts cost 0.1 ms of every call, almost always to write [].
type jsonList[T any] []T

func (l jsonList[T]) MarshalJSON() ([]byte, error) {
	switch {
	case l == nil:
		return []byte("null"), nil
	case len(l) == 0:
		return []byte("[]"), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // as encodeIndented: the caller compacts and indents it
	if err := enc.Encode([]T(l)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func encodeJSON(v any) ([]byte, error) {
	switch o := v.(type) {
	case *CallOutput:
		if len(o.Result) > 0 {
			return encodeCall(o)
		}
	}
	return encodeIndented(v)
}

// encodeIndented is encoding/json's indenting encoder.
func encodeIndented(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("write output: %w", err)
	}
	return buf.Bytes(), nil
}

// resultSlot stands for the result while the rest of a CallOutput is
// encoded; the result is put there. It is found as the value of the
// top-level "result" member: a newline never occurs inside a JSON string,
// so `\n  "result": ` is that member and nothing else.
const resultSlot = "\n  \"result\": 0"

// encodeCall returns a call's output as encodeIndented would, without
// passing the result through encoding/json's encoder (see writeCall); the
// bytes are the same (TestEncodeCallSameBytes).
func encodeCall(o *CallOutput) ([]byte, error) {
	var out bytes.Buffer
	if err := putCall(&out, o, o.Result); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// writeCall writes a call's output as WriteJSON writes any other, but
// streams the result into w as it indents it, instead of building the
// output first: encoding/json's encoder compacts a RawMessage into its
// buffer, indents the whole into a second, and even json.Indent grows its
// buffer by twice the result first, so a 16 MiB result cost 32-80 MiB more
// at once. The result goes through untrusted.JSON before it is indented
// and the rest apart from it, which is the same: what untrusted.JSON
// changes is inside strings, indentation is outside them, and every part
// ends on an ASCII byte.
func writeCall(w io.Writer, o *CallOutput) error {
	raw, repaired := untrusted.JSON(o.Result)
	if repaired {
		o.SetRepaired(RepairedNote)
	}
	head, err := callHead(o)
	if err != nil {
		return err
	}
	if safe, headRepaired := untrusted.JSON(head); headRepaired && !repaired {
		o.SetRepaired(RepairedNote)
		if head, err = callHead(o); err != nil {
			return err
		}
		head, _ = untrusted.JSON(head)
	} else {
		head = safe
	}
	return putBuffered(w, head, raw)
}

// putCall writes o with raw as its result (unchecked by untrusted.JSON).
func putCall(w io.Writer, o *CallOutput, raw []byte) error {
	head, err := callHead(o)
	if err != nil {
		return err
	}
	return putBuffered(w, head, raw)
}

// putBuffered writes head with raw as its result through a 64 KiB buffer.
func putBuffered(w io.Writer, head, raw []byte) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := putResult(bw, head, raw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// callHead encodes o with resultSlot for its result. Its lists are
// jsonLists, so encoding/json builds no encoder for their elements when
// they are empty, as they almost always are.
func callHead(o *CallOutput) ([]byte, error) {
	h := *o
	h.Result = json.RawMessage("0")
	return encodeIndented(&h)
}

// putResult writes head with raw, indented, in its result slot.
func putResult(w *bufio.Writer, head, raw []byte) error {
	i := bytes.Index(head, []byte(resultSlot))
	if i < 0 {
		return fmt.Errorf("write output: no result member in %.80q", head)
	}
	i += len(resultSlot) - 1 // at the 0
	if !json.Valid(raw) {
		return fmt.Errorf("write output: the result: %w", json.Unmarshal(raw, new(any)))
	}
	_, _ = w.Write(head[:i]) // a bufio.Writer's error comes back from Flush
	indentJSON(w, raw, "  ", "  ")
	_, _ = w.Write(head[i+1:])
	return nil
}

// indentJSON writes src, which must be valid JSON, as json.Indent(dst,
// src, prefix, indent) would, without a buffer of its size: space between
// tokens is dropped, each member and element goes on a line of its own
// after prefix and one indent per level, empty objects and arrays stay {}
// and [], and space after the value is kept. Strings and literals are
// copied as they are, a run at a time.
func indentJSON(w *bufio.Writer, src []byte, prefix, indent string) {
	end := len(bytes.TrimRight(src, " \t\r\n"))
	depth := 0
	open := false // after { or [: the line break waits for what comes next
	for i := 0; i < end; {
		c := src[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		if open && c != '}' && c != ']' {
			open = false
			depth++
			newline(w, prefix, indent, depth)
		}
		switch c {
		case '"':
			j := stringEnd(src, i)
			_, _ = w.Write(src[i:j])
			i = j
			continue
		case '{', '[':
			open = true
			_ = w.WriteByte(c)
		case ',':
			_ = w.WriteByte(c)
			newline(w, prefix, indent, depth)
		case ':':
			_, _ = w.WriteString(": ")
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				newline(w, prefix, indent, depth)
			}
			_ = w.WriteByte(c)
		default: // a number, true, false or null
			j := i + 1
			for j < end && !endsLiteral(src[j]) {
				j++
			}
			_, _ = w.Write(src[i:j])
			i = j
			continue
		}
		i++
	}
	_, _ = w.Write(src[end:])
}

// stringEnd returns the index just past the string that starts (with its
// quote) at src[i]: the next quote not escaped by an odd run of
// backslashes.
func stringEnd(src []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(src[j:], '"')
		if k < 0 {
			return len(src) // not valid JSON; indentJSON is given only valid JSON
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && src[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// endsLiteral reports whether c, after a number or literal, ends it.
func endsLiteral(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ':', ']', '}':
		return true
	}
	return false
}

// newline starts a line at depth.
func newline(w *bufio.Writer, prefix, indent string, depth int) {
	_ = w.WriteByte('\n')
	_, _ = w.WriteString(prefix)
	for range depth {
		_, _ = w.WriteString(indent)
	}
}

// orEmpty is a list as headless JSON prints it: [] when there is none,
// never null, so a script can iterate it.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
