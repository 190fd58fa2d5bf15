package lint

import (
	"regexp"
	"strings"
	"testing"
)

// validToolName is the spec's pattern without the regexp's start-up cost;
// it must agree with the pattern on every edge.
func TestValidToolNameIsThePattern(t *testing.T) {
	t.Parallel()
	pattern := regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)
	for _, name := range []string{
		"", "a", "get_weather", "DATA.export-v2", "count me in!", "naïve", "tab\t", "a/b", "a,b",
		strings.Repeat("x", 128), strings.Repeat("x", 129), "\x00", "~", "@", "[", "`", "{",
	} {
		if got, want := validToolName(name), pattern.MatchString(name); got != want {
			t.Errorf("validToolName(%q) = %v, the pattern says %v", name, got, want)
		}
	}
	for c := range 256 {
		name := string([]byte{byte(c)})
		if got, want := validToolName(name), pattern.MatchString(name); got != want {
			t.Errorf("validToolName(%q) = %v, the pattern says %v", name, got, want)
		}
	}
}
