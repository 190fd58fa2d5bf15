package ui

import (
	"regexp"
	"strings"
)

// Go's error words (the standard library's, which wrapped errors end in)
// said in plain words for the person: "tools/call on demo: context
// canceled" reads "…: cancelled". The rest of the text is kept as it was.
var goWords = strings.NewReplacer(
	"context canceled", "cancelled",
	"context deadline exceeded", "timed out",
	"unexpected EOF", "the connection ended mid-message",
	"use of closed network connection", "the connection was closed",
	"i/o timeout", "timed out",
	"connection reset by peer", "the server reset the connection",
	"broken pipe", "the connection broke",
)

// bareEOF is io.EOF's text as a word of its own.
var bareEOF = regexp.MustCompile(`\bEOF\b`)

// plainWords says an error's text without Go's words (errText and the
// status bar's notices call it).
func plainWords(s string) string {
	s = goWords.Replace(s)
	if strings.Contains(s, "EOF") {
		s = bareEOF.ReplaceAllString(s, "the connection closed")
	}
	return s
}
