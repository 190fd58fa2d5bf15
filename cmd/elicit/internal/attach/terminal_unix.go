//go:build unix

package attach

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/charmbracelet/x/term"
)

// OSTerminal is the process's own terminal: stdin in raw mode, stdout,
// and SIGWINCH for its size. It fails when stdin or stdout is not a
// terminal. stop ends the SIGWINCH subscription.
func OSTerminal() (t Terminal, stop func(), err error) {
	in, out := os.Stdin, os.Stdout
	if !term.IsTerminal(in.Fd()) || !term.IsTerminal(out.Fd()) {
		return Terminal{}, nil, errNotTerminal
	}
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	resized := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-winch:
				select {
				case resized <- struct{}{}:
				default: // one pending is enough: the size is read then
				}
			case <-done:
				return
			}
		}
	}()
	stop = func() {
		signal.Stop(winch)
		close(done)
	}
	return Terminal{
		In:  in,
		Out: out,
		Raw: func() (func(), error) {
			st, err := term.MakeRaw(in.Fd())
			if err != nil {
				return nil, err
			}
			return func() { _ = term.Restore(in.Fd(), st) }, nil
		},
		Size:    func() (int, int, error) { return term.GetSize(out.Fd()) },
		Resized: resized,
	}, stop, nil
}
