//go:build !linux

package transport

import "syscall"

// dieWithParent: no parent-death signal here; the server still sees its
// stdin close when we die.
func dieWithParent(*syscall.SysProcAttr) {}
