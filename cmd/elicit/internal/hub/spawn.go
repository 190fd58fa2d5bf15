package hub

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// startBound bounds the wait for a hub just started to listen.
const startBound = 15 * time.Second

// readyFD is the descriptor a hub started by Ensure says "ready" on.
const readyFD = 3

// Ensure makes sure a hub answers at p.Socket, starting one (argv: the
// hidden command that runs Spawned) when none does. Starts are serialised
// by a lock, so two at once never make two hubs; a hub left for dead (its
// socket refuses) is replaced.
func Ensure(ctx context.Context, p Paths, argv []string) error {
	if err := p.Ensure(); err != nil {
		return err
	}
	lock, err := os.OpenFile(p.Spawn, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("hub: %w", err)
	}
	defer lock.Close()
	// Held by another start for at most its own bounded wait.
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("hub: lock %s: %w", p.Spawn, err)
	}
	if answers(ctx, p.Socket) {
		return nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("hub: %w", err)
	}
	defer r.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	// Its own session: no terminal's signals reach it, and it outlives us.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.ExtraFiles = []*os.File{w} // readyFD
	err = cmd.Start()
	w.Close()
	if err != nil {
		return fmt.Errorf("hub: start: %w", err)
	}
	// Reaped by init once we are gone; while we live it is not our child
	// to wait for.
	_ = cmd.Process.Release()
	_ = r.SetReadDeadline(time.Now().Add(startBound))
	line, err := bufio.NewReader(r).ReadString('\n')
	switch strings.TrimSpace(line) {
	case "ready":
		return nil
	case "busy": // a hub that holds the folder but did not answer above
		return fmt.Errorf("%w: another hub holds %s but does not answer at %s", ErrDisconnected, p.Dir, p.Socket)
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("hub: not listening within %s (see %s)", startBound, p.Log)
	}
	return fmt.Errorf("hub: it stopped before listening: %s (see %s)", strings.TrimSpace(line), p.Log)
}

// answers says whether a hub accepts connections at socket.
func answers(ctx context.Context, socket string) bool {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// Spawned runs a hub started by Ensure: it says "ready" on readyFD once
// listening (or why it is not), then serves until its last session stops.
func Spawned(ctx context.Context, cfg Config) error {
	ready := os.NewFile(readyFD, "ready")
	say := func(word string) {
		if ready != nil {
			fmt.Fprintln(ready, word)
			ready.Close()
			ready = nil
		}
	}
	cfg.Ready = func() { say("ready") }
	err := Serve(ctx, cfg)
	switch {
	case errors.Is(err, ErrBusy):
		say("busy")
	case err != nil:
		say(strings.ReplaceAll(err.Error(), "\n", " "))
	}
	return err
}

// Request sends one control request to the hub of p (none running is
// ErrDisconnected). See call.
func Request(ctx context.Context, p Paths, method string, params, result any) error {
	return call(ctx, p.Socket, method, params, result)
}
