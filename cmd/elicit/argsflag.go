package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// argsObject reads --args, which must be one JSON object (numbers kept as
// json.Number, so big integers are sent as written). Text that is not
// JSON gets the parser's reason and where it stopped; JSON that is no
// object says what it is instead.
func argsObject(text string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil && dec.More() {
		_, err = dec.Token()
		if err == nil {
			err = errors.New("more follows the object: give one JSON object")
		}
	}
	if err != nil {
		return nil, usageErr("--args is not valid JSON: %s", jsonWhere(text, err))
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, usageErr(`--args must be a JSON object, not %s, e.g. --args '{"title":"x"}'`, jsonKind(v))
	}
	return m, nil
}

// argsStrings reads --args of a prompt: a JSON object of strings.
func argsStrings(text string) (map[string]string, error) {
	m, err := argsObject(text)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		s, ok := m[k].(string)
		if !ok {
			return nil, usageErr(`--args must be a JSON object of strings: %q is %s, e.g. --args '{"name":"Ada"}'`, k, jsonKind(m[k]))
		}
		out[k] = s
	}
	return out, nil
}

// whereErr is a JSON decoding error said with where it stopped.
type whereErr struct {
	where string
	err   error
}

func (e *whereErr) Error() string { return e.where }
func (e *whereErr) Unwrap() error { return e.err }

// jsonErr is err, from decoding text, with the line and column it
// stopped at (jsonWhere).
func jsonErr(text string, err error) error { return &whereErr{where: jsonWhere(text, err), err: err} }

// jsonWhere is a decoding error with the line and column it stopped at
// (the column alone on a one-line text); at the end of the text, the
// column just after it, where the missing rest would go.
func jsonWhere(text string, err error) string {
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

// jsonKind names what a decoded JSON value is, for a message.
func jsonKind(v any) string {
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
