package tui

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/ui"
)

// TestEngineServerDetail: the server view's description of a live HTTP
// server, of one that cannot be reached, of a stdio server whose
// transport could not be built, and of the embedded demo says who each
// is and how it is reached, and carries no secret of the configuration
// anywhere (header, environment and URL values, flag values), errors
// included.
func TestEngineServerDetail(t *testing.T) {
	srv := httptest.NewServer(demo.HTTPHandler(nil))
	defer srv.Close()
	specs := map[string]serverspec.Server{
		"web": {Name: "web", URL: strings.Replace(srv.URL, "http://", "http://user:SECRET-PW@", 1) + "/mcp?token=SECRET-Q&tenant=blue",
			Header: http.Header{"Authorization": {"Bearer SECRET-H"}, "X-Tenant": {"SECRET-X"}}},
		"gone": {Name: "gone", URL: "http://127.0.0.1:1/mcp?api_key=SECRET-G"},
		"tool": {Name: "tool", Command: "server-that-is-not-there", Dir: "/srv",
			Args: []string{"--token", "SECRET-A1", "--api-key=SECRET-A2", "AUTH=SECRET-A3", "Authorization: Bearer SECRET-A4", "--verbose", "plain"},
			Env:  []string{"API_TOKEN=SECRET-E"}},
		"demo": {Name: "demo", Demo: true},
	}
	mgr := client.NewManager(nil)
	defer mgr.Close()
	e := &engine{ctx: t.Context(), m: mgr, specs: specs, pending: map[string]error{},
		sessionOpts: func(string) *client.Options { return &client.Options{Prompter: question.DeclineAll} },
		transports: func(s serverspec.Server) (transport.Transport, error) {
			if s.Command != "" {
				return nil, fmt.Errorf("start %s %s: not found", s.Command, strings.Join(s.Args, " "))
			}
			return s.Transport(nil, nil)
		},
	}
	e.connectAll(t.Context(), []string{"web", "gone", "tool", "demo"})
	details := map[string]ui.ServerDetail{}
	for name := range specs {
		d, err := e.Server(name)
		if err != nil {
			t.Fatalf("Server(%s): %v", name, err)
		}
		details[name] = d
		if dump := fmt.Sprintf("%+v %v %v %v", d, d.Err, d.LastErr, d.Session.Err); strings.Contains(dump, "SECRET") {
			t.Errorf("%s: a secret in the description: %s", name, dump)
		}
	}

	web := details["web"]
	switch tr := web.Transport; {
	case web.State != client.StateReady || web.Session.ServerInfo.Title == "" || web.Session.Conn.SessionID == "":
		t.Errorf("web: state %v, serverInfo %+v, conn %+v", web.State, web.Session.ServerInfo, web.Session.Conn)
	case tr.Kind != "Streamable HTTP" || !slices.Equal(tr.HeaderNames, []string{"Authorization", "X-Tenant"}):
		t.Errorf("web transport %+v", tr)
	case !strings.HasPrefix(tr.URL, "http://…@127.0.0.1:") || !strings.HasSuffix(tr.URL, "/mcp?tenant=…&token=…"):
		t.Errorf("web URL %q", tr.URL)
	}

	gone := details["gone"]
	if gone.State != client.StateFailed || gone.Err == nil || !strings.Contains(gone.Err.Error(), "api_key=…") || gone.LastErr == nil {
		t.Errorf("gone: state %v, err %v, last %v", gone.State, gone.Err, gone.LastErr)
	}

	tool := details["tool"]
	wantArgs := []string{"--token", "…", "--api-key=…", "AUTH=…", "Authorization: …", "--verbose", "plain"}
	switch tr := tool.Transport; {
	case tool.State != client.StateFailed || tool.Err == nil:
		t.Errorf("tool: state %v, err %v", tool.State, tool.Err)
	case tr.Kind != "stdio" || tr.Command != "server-that-is-not-there" || tr.Dir != "/srv" || !slices.Equal(tr.Args, wantArgs) ||
		!slices.Equal(tr.EnvNames, []string{"API_TOKEN"}):
		t.Errorf("tool transport %+v", tr)
	}

	if d := details["demo"]; d.Transport.Kind != "in-process" || d.State != client.StateReady || d.Session.Instructions == "" {
		t.Errorf("demo: %+v", d)
	}
	if _, err := e.Server("nobody"); !errors.Is(err, client.ErrUnknownServer) {
		t.Errorf("Server(nobody): %v", err)
	}
}
