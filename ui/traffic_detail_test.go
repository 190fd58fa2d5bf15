package ui

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzIndentLines: the detail's indentation is json.Indent's for a whole
// document, and for anything keeps to its line count and length.
//
//	go test -run '^$' -fuzz FuzzIndentLines -fuzztime 1m ./ui
func FuzzIndentLines(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[],"x":{},"s":"a,b:{c}\"]"}}`,
		` [1, [2, [ ]], {"a" : null} ] `,
		`{"a":[{"b":"\\"}`,
		`"just a string"`,
		`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	} {
		f.Add([]byte(s), 8, 40)
	}
	f.Fuzz(func(t *testing.T, src []byte, maxLines, lineBytes int) {
		maxLines, lineBytes = max(maxLines%64, 0), max(lineBytes%256, 1)
		lines := indentLines(src, maxLines, lineBytes)
		if len(lines) > maxLines {
			t.Fatalf("%d lines, at most %d wanted", len(lines), maxLines)
		}
		for _, l := range lines {
			if len(l) > lineBytes {
				t.Fatalf("a line of %d bytes, at most %d wanted: %q", len(l), lineBytes, l)
			}
		}
		if !json.Valid(src) {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, src, "", "  "); err != nil {
			t.Fatal(err)
		}
		all := indentLines(src, len(src)+1, len(want.Bytes())+1)
		if got, w := strings.Join(all, "\n"), strings.TrimRight(want.String(), " \t\r\n"); got != w {
			t.Fatalf("indentLines:\n%s\njson.Indent:\n%s", got, w)
		}
	})
}
