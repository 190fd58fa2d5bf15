package transport

import "syscall"

// dieWithParent asks for SIGKILL when our thread that started the child
// ends; Go's threads outlive the process's work (none is ended but a
// locked one), so in effect when the process dies.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
