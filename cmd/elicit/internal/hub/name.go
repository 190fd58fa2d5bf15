package hub

import (
	"fmt"
	"strconv"
)

// maxName bounds a session's name: it is typed, listed and shown in
// every message about its session.
const maxName = 64

// CheckName says why name cannot be a session's, or nil: 1 to 64 of
// A-Z a-z 0-9 . _ -, not starting with "-" or "." (a flag, a dot folder).
// A name is echoed by every command on its session, so one carrying
// control bytes, spaces or slashes is refused rather than escaped.
func CheckName(name string) error {
	bad := len(name) == 0 || len(name) > maxName || name[0] == '-' || name[0] == '.'
	for i := 0; i < len(name) && !bad; i++ {
		c := name[i]
		bad = !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-')
	}
	if bad {
		return fmt.Errorf("session name %s: a session name is 1 to %d of A-Z a-z 0-9 . _ -, not starting with - or a dot", strconv.QuoteToASCII(name), maxName)
	}
	return nil
}
