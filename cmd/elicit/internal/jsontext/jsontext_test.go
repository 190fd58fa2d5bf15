package jsontext

import (
	"encoding/json"
	"errors"
	"io"
	"testing"
)

// TestWhere: a decoding error is said with where it stopped, as a person
// finds it in what they typed: the column alone on one line, line and
// column on several (in runes, not bytes).
func TestWhere(t *testing.T) {
	for text, want := range map[string]string{
		`{"a": 1,}`:      "column 9: invalid character '}' looking for beginning of object key string",
		"{\n  \"é\": x}": "line 2, column 8: invalid character 'x' looking for beginning of value",
	} {
		var v any
		err := json.Unmarshal([]byte(text), &v)
		if err == nil {
			t.Fatalf("%q decoded", text)
		}
		if got := Where(text, err); got != want {
			t.Errorf("Where(%q) = %q, want %q", text, got, want)
		}
		if e := Err(text, err); e.Error() != want || !errors.Is(e, err) {
			t.Errorf("Err(%q) = %v, does not say %q or wrap the error", text, e, want)
		}
	}
}

// TestWhereAtTheEnd: a text that ended too soon (a decoder's
// io.ErrUnexpectedEOF) is said at the column just after it, where the
// missing rest would go.
func TestWhereAtTheEnd(t *testing.T) {
	if got, want := Where(`{"a": `, io.ErrUnexpectedEOF), "column 7: unexpected end of JSON input"; got != want {
		t.Errorf("Where = %q, want %q", got, want)
	}
	if got, want := Where("{\n\"a\":", io.ErrUnexpectedEOF), "line 2, column 5: unexpected end of JSON input"; got != want {
		t.Errorf("Where = %q, want %q", got, want)
	}
}

func TestKind(t *testing.T) {
	for v, want := range map[any]string{nil: "null", "s": "a string", json.Number("1"): "a number", true: "a boolean"} {
		if got := Kind(v); got != want {
			t.Errorf("Kind(%#v) = %q, want %q", v, got, want)
		}
	}
	if Kind([]any{}) != "an array" || Kind(map[string]any{}) != "an object" {
		t.Error("Kind of an array or an object")
	}
}
