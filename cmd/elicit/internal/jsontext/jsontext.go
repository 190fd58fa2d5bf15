package jsontext

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// whereErr is a JSON decoding error said with where it stopped.
type whereErr struct {
	where string
	err   error
}

func (e *whereErr) Error() string { return e.where }
func (e *whereErr) Unwrap() error { return e.err }

// Err is err, from decoding text, with the line and column it
// stopped at (Where).
func Err(text string, err error) error { return &whereErr{where: Where(text, err), err: err} }

// Where is a decoding error with the line and column it stopped at
// (the column alone on a one-line text); at the end of the text, the
// column just after it, where the missing rest would go.
func Where(text string, err error) string {
	off := -1
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset) - 1 // Offset counts the byte it stopped at
	}
	reason := strings.TrimPrefix(err.Error(), "json: ")
	if errors.Is(err, io.ErrUnexpectedEOF) || reason == "unexpected EOF" {
		reason, off = "unexpected end of JSON input", len(text)
	}
	if off < 0 {
		return reason
	}
	head := []byte(text[:min(off, len(text))])
	line := bytes.Count(head, []byte("\n")) + 1
	col := len([]rune(string(head[bytes.LastIndexByte(head, '\n')+1:]))) + 1
	if line == 1 {
		return fmt.Sprintf("column %d: %s", col, reason)
	}
	return fmt.Sprintf("line %d, column %d: %s", line, col, reason)
}

// Kind names what a decoded JSON value is, for a message.
func Kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
