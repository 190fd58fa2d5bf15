//go:build !linux

package transport

import "os"

// growPipe is a no-op where pipes cannot be resized (see pipesize_linux.go).
func growPipe(*os.File) {}
