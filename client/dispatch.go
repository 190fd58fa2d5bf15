package client

import "sync"

// lossyLimit is how many high-rate events (LogMessage, CallProgress) may
// wait in a dispatcher's queue; beyond it they are dropped and counted.
const lossyLimit = 1024

// dispatcher hands events to an Observer one at a time, in order, from its
// own goroutine, so that pushing never blocks (the read loop pushes). State
// events are never dropped; LogMessage and CallProgress are dropped once
// lossyLimit of them are queued, and the count rides on the next one of
// the same type that is delivered.
type dispatcher struct {
	obs Observer

	mu     sync.Mutex
	queue  []item
	lossy  int // LogMessage and CallProgress in queue
	drops  struct{ log, progress int }
	closed bool
	wake   chan struct{} // one-slot: "queue may be non-empty"
	done   chan struct{} // closed when the goroutine ends
}

// item is one queued event; progress, when set, is the call's own
// OnProgress hook, called right after the Observer.
type item struct {
	ev       Event
	progress func(CallProgress)
}

func newDispatcher(obs Observer) *dispatcher {
	d := &dispatcher{obs: obs, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go d.run()
	return d
}

// push queues e. After close it is dropped, and so is an event no one
// would receive (no Observer, no progress hook): a headless session then
// pays no hand-off per prompt.
func (d *dispatcher) push(e Event, progress func(CallProgress)) {
	if d.obs == nil {
		if _, ok := e.(CallProgress); !ok || progress == nil {
			return
		}
	}
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return
	}
	switch e.(type) {
	case LogMessage, CallProgress:
		if d.lossy >= lossyLimit {
			if _, ok := e.(LogMessage); ok {
				d.drops.log++
			} else {
				d.drops.progress++
			}
			d.mu.Unlock()
			return
		}
		d.lossy++
	}
	d.queue = append(d.queue, item{e, progress})
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// observed reports whether an Observer receives the events pushed: what
// only an Observer would see (a log message) need not be built without one.
func (d *dispatcher) observed() bool { return d.obs != nil }

// close delivers what is queued, then stops the goroutine and waits for it.
func (d *dispatcher) close() {
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
	<-d.done
}

func (d *dispatcher) run() {
	defer close(d.done)
	for {
		<-d.wake
		for {
			d.mu.Lock()
			if len(d.queue) == 0 {
				closed := d.closed
				d.queue = nil // let a burst's backing array go
				d.mu.Unlock()
				if closed {
					return
				}
				break
			}
			it := d.queue[0]
			d.queue[0] = item{}
			d.queue = d.queue[1:]
			// Drops so far ride on the next delivered event of their type
			// (the queue was full of such events when they happened).
			switch ev := it.ev.(type) {
			case LogMessage:
				d.lossy--
				ev.Dropped, d.drops.log = d.drops.log, 0
				it.ev = ev
			case CallProgress:
				d.lossy--
				ev.Dropped, d.drops.progress = d.drops.progress, 0
				it.ev = ev
			}
			d.mu.Unlock()
			d.deliver(it)
		}
	}
}

func (d *dispatcher) deliver(it item) {
	if d.obs != nil {
		d.obs.Event(it.ev)
	}
	if it.progress != nil {
		if p, ok := it.ev.(CallProgress); ok {
			it.progress(p)
		}
	}
}
