package client

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
)

// life is a session's lifecycle: connecting, ready, closing, ended, and
// what ending releases. Its transitions are its methods; its lock is a
// leaf (taken under Session.mu where a change must agree with the
// session's tables: teardown's end, Close's start, and the sections that
// join it while they register something).
type life struct {
	mu       sync.Mutex
	gen      int           // bumped by every successful initialize
	ready    bool          // the first initialize succeeded
	closing  bool          // Close was called
	ended    bool          // the read loop ended (or there never was one)
	readyAt  time.Time     // when Connect returned it ready
	endedAt  time.Time     // when it ended
	failErr  error         // Connect failed with this
	err      error         // why the session ended
	loopDone chan struct{} // closed when the current read loop ends

	initMu    sync.Mutex // serialises re-initialize
	closeOnce sync.Once

	quit chan struct{} // closed when Close starts or the read loop ends
	dead chan struct{} // closed when the read loop ends
	done chan struct{} // closed when teardown has finished

	// base is the parent of every incoming request's context; the end
	// (or Close) cancels it with its cause, ending every open prompt.
	base       context.Context
	baseCancel context.CancelCauseFunc
	// wg counts what the end waits for: incoming handlers, cancel
	// notifications, prompters, rounds, followers (join, leave).
	wg sync.WaitGroup
}

func newLife() life {
	base, cancel := context.WithCancelCause(context.Background())
	return life{quit: make(chan struct{}), dead: make(chan struct{}), done: make(chan struct{}), base: base, baseCancel: cancel}
}

// aliveLocked is nil while the session neither ended nor is closing, else
// why not; under l.mu.
func (l *life) aliveLocked() error {
	if !l.ended && !l.closing {
		return nil
	}
	if l.err != nil {
		return l.err
	}
	return ErrClosed
}

// alive is nil while the session neither ended nor is closing, else its
// error (ErrClosed when it has none yet).
func (l *life) alive() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.aliveLocked()
}

// join counts a goroutine or a wait the end must wait for, unless the
// session is ending (then its error); leave ends it.
func (l *life) join() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.aliveLocked(); err != nil {
		return err
	}
	l.wg.Add(1)
	return nil
}

func (l *life) leave() { l.wg.Done() }

// sending is the initialize generation a request goes out (or one of the
// server's comes in) under, unless the session is ending.
func (l *life) sending() (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gen, l.aliveLocked()
}

func (l *life) generation() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gen
}

// initialized marks an initialize that succeeded: a new generation.
func (l *life) initialized() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.gen++
}

// reinitialize runs init once for the requests that failed under gen:
// when several fail at once, only the first initializes again (ran).
func (l *life) reinitialize(gen int, init func() error) (ran bool, err error) {
	l.initMu.Lock()
	defer l.initMu.Unlock()
	if l.generation() != gen {
		return false, nil // someone else already did
	}
	return true, init()
}

// up reports whether the session is ready and has not ended.
func (l *life) up() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ready && !l.ended
}

func (l *life) isClosing() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closing
}

// error is why the session ended; nil while it lives.
func (l *life) error() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// times is when the session became ready and when it ended, and why.
func (l *life) times() (ready, ended time.Time, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.readyAt, l.endedAt, l.err
}

// newLoop starts a read loop's life: the channel it closes when it ends,
// and the one of the loop before (nil for the first), unless the session
// has ended.
func (l *life) newLoop() (done, old chan struct{}, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		return nil, nil, l.err
	}
	old, l.loopDone = l.loopDone, make(chan struct{})
	return l.loopDone, old, nil
}

// failed records why Connect failed once the connection is up: the end
// will report it.
func (l *life) failed(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failErr = err
}

// readyNow marks the session ready, unless it has ended meanwhile (then
// its error). announce runs under the lock, so that it cannot follow the
// end's final state.
func (l *life) readyNow(announce func()) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		return l.err
	}
	l.ready, l.readyAt = true, time.Now()
	announce()
	return nil
}

// abort ends a session that never got a connection.
func (l *life) abort(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failErr, l.err, l.ended = err, err, true
	l.baseCancel(question.ErrDisconnected)
	close(l.quit)
	close(l.dead)
}

// end marks the session ended once its read loop is over (which it
// ended with readErr), and says in which state and why: Failed (Connect
// failed, or it never got ready), Closed (we closed it), or Disconnected.
// Open prompts end with the cause (Abandoned when we closed, else
// Disconnected).
func (l *life) end(name string, readErr error) (ServerState, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var state ServerState
	var cause error
	switch {
	case l.failErr != nil:
		state, cause, l.err = StateFailed, question.ErrDisconnected, l.failErr
	case l.closing:
		state, cause, l.err = StateClosed, question.ErrAbandoned, ErrClosed
	case !l.ready:
		state, cause = StateFailed, question.ErrDisconnected
		l.err = fmt.Errorf("%s: %w: %w", name, question.ErrDisconnected, readErr)
	default:
		state, cause = StateDisconnected, question.ErrDisconnected
		l.err = fmt.Errorf("%s: %w: %w", name, question.ErrDisconnected, readErr)
	}
	l.ended, l.endedAt = true, time.Now()
	l.baseCancel(cause)
	if !l.closing {
		close(l.quit)
	}
	close(l.dead)
	return state, l.err
}

// close runs Close's part once: start (startClose, under the session's
// lock), then, if it started, a grace for what the end waits for to finish
// and after (the connection closed, so the read loop ends). Every call
// returns once the end has finished.
func (l *life) close(start func() bool, grace time.Duration, after func()) {
	l.closeOnce.Do(func() {
		if !start() {
			return
		}
		waitGrace(&l.wg, grace)
		after()
	})
	<-l.done
}

// settle waits for what the end waits for (join), once the end is marked.
func (l *life) settle() { l.wg.Wait() }

// finished says the end has finished: its final state is out (Done).
func (l *life) finished() { close(l.done) }

// startClose begins Close, unless the session has ended: pending calls
// fail at once (quit), before the prompts' cancel answers can make the
// server reply to them, and open prompts end Abandoned.
func (l *life) startClose() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		return false
	}
	l.closing, l.err = true, ErrClosed
	close(l.quit)
	l.baseCancel(question.ErrAbandoned)
	return true
}

// writeFailGrace is how long a failed write waits for the session to die
// of the same cause: a server that went away usually fails the write a
// moment before the read loop sees the end.
const writeFailGrace = 250 * time.Millisecond

// writeFailure turns the error of a request that could not be written into
// what its caller gets: the session's own error (wrapping ErrDisconnected,
// or ErrClosed) when the session has ended or ends within writeFailGrace,
// since then the write failed only because the server went away; else err.
// A refusal by the server (an HTTP status) is final at once. ended says
// which.
func (l *life) writeFailure(err error) (_ error, ended bool) {
	var se *transport.StatusError
	if !errors.As(err, &se) {
		t := time.NewTimer(writeFailGrace)
		defer t.Stop()
		select {
		case <-l.quit:
		case <-t.C:
		}
	}
	if serr := l.error(); serr != nil {
		return serr, true
	}
	return err, false
}

// waitGrace waits for wg, but no longer than d.
func waitGrace(wg *sync.WaitGroup, d time.Duration) {
	ch := make(chan struct{})
	go func() { wg.Wait(); close(ch) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
}
