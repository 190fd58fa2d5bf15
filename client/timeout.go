package client

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// The defaults of Options.ConnectTimeout and Options.RequestTimeout.
const (
	DefaultConnectTimeout = 30 * time.Second
	DefaultRequestTimeout = 60 * time.Second
)

// progressCap is how many request timeouts progress can keep a request
// alive for, in all: the spec lets progress reset the clock, but wants a
// maximum enforced all the same.
const progressCap = 10

// ErrTimeout is wrapped by the error of a request, or of Connect, that the
// server did not answer in time (see the package doc, Timeouts).
var ErrTimeout = errors.New("timed out")

// clock bounds one request's wait on the server (the package doc,
// Timeouts, has the rule). It runs in quiet periods: each starts when the
// request starts, when progress comes, or when the last question that may
// be the request's closes, and timeout of quiet fails the request. While
// such a question is open the clock stands still, since then the one we
// wait on is a person. The time it has run, over all its quiet periods, is
// capped at progressCap timeouts. When it fires it cancels the request's
// context, so the request is cancelled on the wire as any other is.
//
// One timer per request, rescheduled only when it fires early: progress
// merely moves the start of the quiet period, however often it comes.
// A nil *clock is a request without one (every method is a no-op).
type clock struct {
	timeout time.Duration
	fire    context.CancelCauseFunc
	// waiting reports a person being waited on below the session (an
	// authorization in a browser): the clock stands still then too.
	waiting func() bool

	mu       sync.Mutex
	timer    *time.Timer
	holds    int           // open questions that may be the request's
	over     bool          // the request ended, or the clock fired
	quiet    time.Time     // when the current quiet period began
	running  time.Time     // when the clock last started running
	ran      time.Duration // what it ran before that
	progress bool          // progress came, at least once
}

// startClock derives the request's context from ctx and starts its clock.
// The caller must stop it.
func startClock(ctx context.Context, timeout time.Duration, waiting func() bool) (context.Context, *clock) {
	ctx, cancel := context.WithCancelCause(ctx)
	now := time.Now()
	k := &clock{timeout: timeout, fire: cancel, waiting: waiting, quiet: now, running: now}
	k.mu.Lock()
	k.timer = time.AfterFunc(timeout, k.check)
	k.mu.Unlock()
	return ctx, k
}

// stop ends the clock with its request, and releases the context.
func (k *clock) stop() {
	if k == nil {
		return
	}
	k.mu.Lock()
	k.over = true
	k.timer.Stop()
	k.mu.Unlock()
	k.fire(nil)
}

// end ends the request at once with cause, whatever holds the clock: what
// it waits on will not come (see answerLost).
func (k *clock) end(cause error) {
	if k == nil {
		return
	}
	k.mu.Lock()
	if k.over {
		k.mu.Unlock()
		return
	}
	k.over = true
	k.timer.Stop()
	k.mu.Unlock()
	k.fire(cause)
}

// hold stops the clock while a question that may be the request's is open.
func (k *clock) hold() {
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.over {
		return
	}
	if k.holds == 0 {
		k.timer.Stop()
		k.ran += time.Since(k.running)
	}
	k.holds++
}

// release ends one hold; the last one starts a new quiet period.
func (k *clock) release() {
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.over || k.holds == 0 {
		return
	}
	if k.holds--; k.holds > 0 {
		return
	}
	now := time.Now()
	k.quiet, k.running = now, now
	k.timer.Reset(min(k.timeout, progressCap*k.timeout-k.ran))
}

// kick starts a new quiet period: progress came for the request.
func (k *clock) kick() {
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.over && k.holds == 0 {
		k.quiet, k.progress = time.Now(), true
	}
}

// check runs when the timer fires: the request times out, or the timer is
// set for the end of the current quiet period (progress moved it).
func (k *clock) check() {
	// Asked before k.mu: the session's lock is taken inside, and the
	// session holds its lock while it holds clocks (holdClocks).
	waiting := k.waiting != nil && k.waiting()
	k.mu.Lock()
	if k.over || k.holds > 0 {
		k.mu.Unlock()
		return
	}
	now := time.Now()
	if waiting {
		// Someone is authorizing: a new quiet period starts, and the
		// period that ends now does not count against the cap.
		k.quiet, k.running = now, now
		k.timer.Reset(k.timeout)
		k.mu.Unlock()
		return
	}
	quietFor := now.Sub(k.quiet)
	ran := k.ran + now.Sub(k.running)
	limit := progressCap * k.timeout
	var cause error
	switch {
	case ran >= limit:
		cause = fmt.Errorf("%w: no answer within %v (progress extends the request timeout of %v to at most %d times that)", ErrTimeout, limit, k.timeout, progressCap)
	case quietFor >= k.timeout && k.progress:
		cause = fmt.Errorf("%w: no answer or progress within %v", ErrTimeout, k.timeout)
	case quietFor >= k.timeout:
		cause = fmt.Errorf("%w: no answer within %v", ErrTimeout, k.timeout)
	default:
		k.timer.Reset(min(k.timeout-quietFor, limit-ran))
		k.mu.Unlock()
		return
	}
	k.over = true
	k.mu.Unlock()
	k.fire(cause)
}

// patientTimeout is context.WithTimeoutCause(ctx, d, cause), except that
// while waiting() reports a person being waited on the time does not run:
// the deadline moves to d after the last check that found them waiting.
func patientTimeout(ctx context.Context, d time.Duration, cause error, waiting func() bool) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	var mu sync.Mutex
	var t *time.Timer
	check := func() {
		mu.Lock()
		defer mu.Unlock()
		if waiting() {
			t.Reset(d)
			return
		}
		cancel(cause)
	}
	mu.Lock()
	t = time.AfterFunc(d, check)
	mu.Unlock()
	return ctx, func() {
		mu.Lock()
		t.Stop()
		mu.Unlock()
		cancel(context.Canceled)
	}
}

// connectTimeout is the cause that ends Connect's context after d.
func connectTimeout(d time.Duration) error {
	return fmt.Errorf("%w: no answer within %v (the connect timeout)", ErrTimeout, d)
}
