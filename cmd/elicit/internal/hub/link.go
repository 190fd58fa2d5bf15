package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/rpcpeer"
)

// linkBound bounds each of a link's requests but the ask (a person
// answers it, with no bound) and the wait for the session's stop.
const linkBound = 15 * time.Second

// framesQueued bounds the frames a link holds for the hub; more are
// dropped (what the hub shows is a view, the proxy's traffic does not
// wait for it).
const framesQueued = 1024

// Link is an elicit proxy's connection to the hub for its session
// (--session): opened with OpenLink, it lives as long as the proxy, and
// its end is the proxy's for the hub.
type Link struct {
	session string
	conn    transport.Conn
	peer    *rpcpeer.Peer[struct{}, struct{}]
	loop    chan struct{}
	stopped chan struct{} // closed when the session stopped or the hub went
	frames  chan FrameParams
	bg      sync.WaitGroup
	once    sync.Once
}

// OpenLink opens the proxied session p in the hub at paths (one must run:
// hub.Ensure starts it).
func OpenLink(ctx context.Context, paths Paths, p ProxyParams) (*Link, *StartResult, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "unix", paths.Socket)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%w (%s)", ErrNoHub, paths.Socket)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: no hub answers at %s: %w", ErrDisconnected, paths.Socket, err)
	}
	conn := transport.NewStream(nc, nc, nc, nil)
	l := &Link{session: p.Session, conn: conn, peer: rpcpeer.New[struct{}, struct{}](conn, rpcpeer.Options{}),
		loop: make(chan struct{}), stopped: make(chan struct{}), frames: make(chan FrameParams, framesQueued)}
	go l.read()
	var res StartResult
	if err := l.request(ctx, linkBound, MethodProxyOpen, p, &res); err != nil {
		l.Close()
		return nil, nil, err
	}
	l.bg.Go(func() {
		_ = l.request(context.Background(), 0, MethodProxyWait, NameParams{Session: p.Session}, nil)
		close(l.stopped)
	})
	l.bg.Go(l.sendFrames)
	return l, &res, nil
}

func (l *Link) read() {
	defer close(l.loop)
	for {
		in, err := l.conn.Read(context.Background())
		if err != nil {
			l.peer.Fail(fmt.Errorf("%w: the hub closed the connection: %w", ErrDisconnected, err))
			return
		}
		if m := in.Msg; m != nil && m.Kind() == jsonrpc.KindResponse {
			a := rpcpeer.Answer{Result: m.Result}
			if m.Error != nil {
				a.Err = m.Error
			}
			l.peer.Deliver(m.ID, a)
		}
	}
}

// request sends one request and waits for its answer into result,
// bounded by bound (0: by ctx only).
func (l *Link) request(ctx context.Context, bound time.Duration, method string, params, result any) error {
	if bound > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, bound,
			fmt.Errorf("%w: the hub did not answer %s within %s", ErrDisconnected, method, bound))
		defer cancel()
	}
	return roundTrip(ctx, l.peer, method, params, result)
}

// Stopped is closed once the session was stopped (elicit session stop)
// or the hub went: the link asks nothing any more.
func (l *Link) Stopped() <-chan struct{} { return l.stopped }

// Ask puts q (asked by method and params, with what the server was told
// is declared) to the session and waits for the answer that settles it.
// When ctx ends first the hub is told how (the cause) and ctx's end
// decides; an error is the question ended in the hub (the session
// stopped: abandoned) or the hub gone.
func (l *Link) Ask(ctx context.Context, q *question.Question, method string, params json.RawMessage, modes question.Modes, sampling bool) (question.Outcome, error) {
	p := AskParams{Session: l.session, Key: WireKeyOf(q.Key), Method: method, Params: params, Modes: modes, Sampling: sampling, Arrived: q.Arrived}
	var out question.Outcome
	err := l.request(ctx, 0, MethodAsk, p, &out)
	if ctx.Err() != nil {
		how := endingOf(context.Cause(ctx))
		wctx, cancel := context.WithTimeout(context.Background(), linkBound)
		defer cancel()
		_ = l.request(wctx, 0, MethodWithdraw, WithdrawParams{Session: l.session, Key: q.Key.String(), How: how}, nil)
		return question.Outcome{Kind: question.Cancel}, context.Cause(ctx)
	}
	return out, err
}

// Settled tells the hub how q ended and what went to the server.
func (l *Link) Settled(q *question.Question, out question.Outcome, sent string) {
	_ = l.request(context.Background(), linkBound, MethodSettled,
		SettledParams{Session: l.session, Key: WireKeyOf(q.Key), Asked: q.Kind, Outcome: out, Sent: sent, Latency: time.Since(q.Arrived)}, nil)
}

// Host tells the hub the host's clientInfo name.
func (l *Link) Host(name string) {
	l.bg.Go(func() { l.host(name) })
}

func (l *Link) host(name string) {
	_ = l.request(context.Background(), linkBound, MethodProxyHost, HostParams{Session: l.session, Host: name}, nil)
}

// Frame queues one frame between the proxy and its server for the hub;
// dropped when the queue is full or the link closed.
func (l *Link) Frame(f transport.Frame) {
	if f.Err != nil {
		return
	}
	select {
	case <-l.loop:
	case l.frames <- FrameParams{Session: l.session, In: f.Dir == transport.In, Raw: string(f.Raw), Time: f.Time}:
	default:
	}
}

func (l *Link) sendFrames() {
	for {
		select {
		case <-l.loop:
			return
		case f := <-l.frames:
			b, err := json.Marshal(f)
			if err != nil {
				continue // strings and a time: it does not fail
			}
			ctx, cancel := context.WithTimeout(context.Background(), linkBound)
			err = l.peer.WriteContext(ctx, &jsonrpc.Message{Method: MethodFrame, Params: b})
			cancel()
			if err != nil {
				return
			}
		}
	}
}

// Close ends the link: for the hub, the proxy is gone.
func (l *Link) Close() {
	l.once.Do(func() {
		l.conn.Close()
		<-l.loop
		l.bg.Wait()
	})
}
