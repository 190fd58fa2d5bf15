//go:build unix

package redact

import (
	"io/fs"
	"os"
	"syscall"
)

// owner is the user who owns fi and this process's user.
func owner(fi fs.FileInfo) (uid, me int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(st.Uid), os.Getuid(), true
}
