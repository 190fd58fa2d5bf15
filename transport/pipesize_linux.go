package transport

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipeSize is what growPipe asks for: Linux's default ceiling for an
// unprivileged process (/proc/sys/fs/pipe-max-size).
const pipeSize = 1 << 20

// growPipe enlarges a pipe's kernel buffer from 64 KiB to pipeSize, best
// effort. A burst of answers (1,000 prompts settled at once, ~100 kB) then
// goes out without each write waiting for the server to read the previous
// ones; at 64 KiB those waits were the slowest 1% of prompt latencies
// (BENCHMARKS.md). A refusal leaves the default.
func growPipe(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	// Through SyscallConn, not Fd, which would put the file in blocking
	// mode.
	_ = rc.Control(func(fd uintptr) {
		_, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeSize)
	})
}
