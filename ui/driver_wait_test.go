package ui

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
)

// The driver gives up on a command that has not returned within a short
// wait, since blinks, spinner ticks and gated fake calls block for long or
// for ever. On a loaded machine real work can take longer than that wait
// too, and dropping its result made tests fail at random. So before giving
// up the driver looks at what the command's goroutine is doing: blocked on
// a timer or a channel, it is a wait (late); running, runnable, or in a
// lock or syscall, it is work (wait on).

// goroutineID is the id of the calling goroutine, from its stack header
// ("goroutine 42 [running]:").
func goroutineID() int64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		id, _ := strconv.ParseInt(string(b[:i]), 10, 64)
		return id
	}
	return 0
}

// goroutineWaiting reports whether goroutine id is parked on a channel, a
// select or a sleep (or is gone), rather than working.
func goroutineWaiting(id int64) bool {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	head := []byte("goroutine " + strconv.FormatInt(id, 10) + " [")
	i := bytes.Index(buf, head)
	if i < 0 {
		return true // it has ended: its result is on its way or taken
	}
	rest := buf[i+len(head):]
	end := bytes.IndexByte(rest, ']')
	if end < 0 {
		return true
	}
	state := string(rest[:end])
	for _, w := range []string{"chan receive", "chan send", "select", "sleep", "IO wait"} {
		if strings.HasPrefix(state, w) {
			return true
		}
	}
	return false
}
