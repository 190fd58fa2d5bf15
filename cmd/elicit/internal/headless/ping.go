package headless

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
)

// PingUsage is elicit ping -h.
const PingUsage = `Usage: elicit ping [flags] [-- CMD ARGS...]

Connects (the handshake: initialize, or server/discover in 2026-07-28),
sends ping and prints JSON on stdout: the server, the protocol, how long
the handshake took (connectMs) and the ping's round trip (rttMs).
2026-07-28 has no ping: there the answered handshake is the proof of
life, and "noPing" says so (exit 0).
Exit codes: 0 answered, 2 usage, 3 the server could not be started or
reached or the handshake failed, 4 the ping failed (an error answer, or
no answer within --request-timeout).
`

// PingOutput is what elicit ping prints.
type PingOutput struct {
	Server   string `json:"server"`
	Protocol string `json:"protocol"`
	Era      string `json:"era"`
	// ConnectMS is the handshake, from starting the server or dialling
	// its URL to the session being ready.
	ConnectMS float64 `json:"connectMs"`
	// RTTMS is the ping's round trip; absent when none was sent.
	RTTMS *float64 `json:"rttMs,omitempty"`
	// NoPing says why no ping was sent (2026-07-28 has none).
	NoPing string `json:"noPing,omitempty"`
	Error  string `json:"error,omitempty"`
	// Findings are the server's spec violations seen meanwhile.
	Findings jsonList[findings.Finding] `json:"findings"`
	Failure  *exit.Failure              `json:"failure,omitempty"`
	Repaired string                     `json:"repaired,omitempty"`
}

func (o *PingOutput) SetRepaired(note string) { o.Repaired = note }

// Ping is elicit ping.
func (e Env) Ping(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	r, err := e.parse("ping", PingUsage, args, stderr, !withLogLevel, nil)
	if err != nil {
		return err
	}
	if err := r.noArgs(); err != nil {
		return err
	}
	start := time.Now()
	if err := r.connect(ctx); err != nil {
		return err
	}
	defer r.close()
	sess := r.sess
	out := PingOutput{Server: sess.Name(), Protocol: sess.Protocol(), Era: sess.Era(), ConnectMS: millis(time.Since(start))}
	rc := r.rec.Begin(sess.Name(), wire.MethodPing, "", nil, nil)
	sent := time.Now()
	err = sess.Ping(ctx)
	rtt := time.Since(sent)
	rc.End(nil, err)
	switch {
	case errors.Is(err, client.ErrNoPing):
		out.NoPing = err.Error()
		err = nil
	case err != nil:
		out.Error = err.Error()
		err = exit.Fail(exit.ToolError, "%w", err) // it names ping and the server
	default:
		ms := millis(rtt)
		out.RTTMS = &ms
	}
	out.Findings = FindingsOf(r.findings)
	out.Failure = exit.FailureOf(err)
	if werr := WriteJSON(stdout, &out); werr != nil {
		return werr
	}
	return err
}

// millis is d in milliseconds to the microsecond: a ping over stdio
// takes a fraction of one.
func millis(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}
