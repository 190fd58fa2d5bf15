package serverspec

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/themes/untrusted"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/redact"
)

// Server says how to reach one server: a command (stdio), a URL
// (Streamable HTTP), or the embedded demo.
type Server struct {
	Name    string
	Command string
	Args    []string
	Env     []string
	Dir     string
	URL     string
	Header  http.Header
	Demo    bool
	// Protocol pins this server's protocol version, over the --protocol
	// flag ("" leaves it to the flag). A demo spec also serves only that
	// era: `elicit demo` runs one demo server per era.
	Protocol string
	// LegacySSE selects the 2024-11-05 HTTP+SSE transport for URL.
	LegacySSE bool
	// Roots are offered to the server (nil: no roots capability, unless
	// the TUI declares it anyway); Warnings are what loading them found
	// (roots that do not exist), to be shown before connecting.
	Roots    []client.Root
	Warnings []string
	// OAuth configures authorization to an HTTP server (oauth.go); Auth
	// is how the person is asked, set by the mode that runs the spec.
	OAuth OAuth
	Auth  *AuthHooks
	// Broken, when set, is why this server of a config is not started (a
	// variable it names is not set): transport returns it, so the TUI
	// shows the server failed and a headless command exits with it.
	Broken error
	// written is its command, args, cwd and url as its config wrote them,
	// when a ${VAR} was expanded in them (nil: they are what was written).
	written *writtenLaunch
	// secrets are values the config took from a VS Code input or a
	// variable named as a secret, whatever they are called (secretRef).
	secrets []string
}

// Shown is s as it may be shown or recorded: command, args, cwd and url
// as written in its config, never what the environment put in them.
func (s Server) Shown() Server {
	l := shownLaunch(launch{Command: s.Command, Args: s.Args, Dir: s.Dir, URL: s.URL}, s.written)
	s.Command, s.Args, s.Dir, s.URL = l.Command, l.Args, l.Dir, l.URL
	return s
}

// Describe is the server as a person is shown it: the demo, its URL or
// its command line, as written.
func (s Server) Describe() string {
	s = s.Shown()
	switch {
	case s.Demo && s.Protocol != "":
		return "the embedded demo server (" + s.Protocol + ")"
	case s.Demo:
		return "the embedded demo server"
	case s.URL != "":
		return s.URL
	default:
		return strings.Join(append([]string{s.Command}, s.Args...), " ")
	}
}

// Transport builds the transport for the spec; obs sees every frame,
// with the run's secrets (sec, to which the spec's are added) masked.
func (s Server) Transport(obs transport.Observer, sec *redact.Secrets) (transport.Transport, error) {
	sec.Add(s.SecretValues()...)
	obs = RedactObserver(obs, sec)
	if s.Broken != nil {
		return nil, s.Broken
	}
	switch {
	case s.Demo:
		return &inProcessDemo{obs: obs, opts: &demo.Options{Protocol: s.Protocol}}, nil
	case s.URL != "":
		if _, err := transport.ParseHTTPURL(s.URL); err != nil {
			return nil, exit.Usagef("bad --url %q: want http://host[:port]/path or https://…", redact.URL(s.URL))
		}
		hc, err := s.httpClientFor(sec)
		if err != nil {
			return nil, err
		}
		if s.LegacySSE {
			return &transport.SSE{URL: s.URL, Header: s.Header, Observer: obs, Client: hc}, nil
		}
		// Streamable HTTP; the client falls back to legacy HTTP+SSE by
		// itself when initialize is refused with 400/404/405.
		return &transport.HTTP{URL: s.URL, Header: s.Header, Observer: obs, Client: hc}, nil
	case s.Command != "":
		return &transport.Stdio{Command: s.Command, Args: s.Args, Env: s.Env, Dir: s.Dir, Observer: obs}, nil
	default:
		return nil, exit.Usagef("no server given: use -- CMD ARGS..., --url URL, or --demo")
	}
}

// parseHeader turns "Key: value" or "Key=value" into a header entry. A
// header that does not parse is not quoted back: it is most often a
// secret with a slip in it, and the message goes to logs.
func parseHeader(h http.Header, kv string) error {
	i := strings.IndexAny(kv, ":=")
	if i <= 0 {
		return exit.Usagef("bad --header (%d characters, no ':' or '=' after a name): want 'Name: value'", len(kv))
	}
	name := strings.TrimSpace(kv[:i])
	if strings.ContainsAny(name, " \t\r\n") {
		return exit.Usagef("bad --header (%d characters): the name before the first ':' or '=' has spaces; want 'Name: value'", len(kv))
	}
	val := strings.TrimSpace(kv[i+1:])
	if strings.ContainsAny(val, "\r\n") {
		return exit.Usagef("bad --header %s: its value has a line break", untrusted.Line(name))
	}
	h.Add(name, val)
	return nil
}

// inProcessDemo runs the demo server in this process over a pair of pipes,
// framed exactly like stdio, so `elicit demo` needs nothing installed.
type inProcessDemo struct {
	obs  transport.Observer
	opts *demo.Options
}

func (d *inProcessDemo) Dial(ctx context.Context) (transport.Conn, error) {
	cr, sw := io.Pipe() // server writes, client reads
	sr, cw := io.Pipe() // client writes, server reads
	sctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		err := demo.ServeIO(sctx, sr, sw, d.opts)
		sw.CloseWithError(fmt.Errorf("demo server stopped: %v", err))
	}()
	closer := closerFunc(func() error {
		cancel()
		cw.Close()
		cr.Close()
		sr.Close()
		wg.Wait()
		return nil
	})
	return transport.NewStream(cr, cw, closer, d.obs), nil
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }
