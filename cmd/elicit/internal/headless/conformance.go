package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/app"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/cli"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/serverspec"
	"github.com/elicit-dev/elicit/themes/untrusted"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/oauth"
)

// ConformanceUsage is elicit conformance -h.
const ConformanceUsage = `Usage: elicit conformance URL

The client side of the official MCP conformance suite:
  npx @modelcontextprotocol/conformance client \
      --command "elicit conformance" --scenario NAME
The runner appends the server URL and sets MCP_CONFORMANCE_SCENARIO (and
MCP_CONFORMANCE_CONTEXT, MCP_CONFORMANCE_PROTOCOL_VERSION where it has
them). elicit connects over Streamable HTTP with the same engine, the same
OAuth client and the same accept-defaults policy as "elicit call", lists
the tools and calls them. The authorization step's browser is an HTTP
client that follows the authorization server's redirect to elicit's
loopback listener, as a browser would.
`

// conformanceCIMD is the client ID metadata document URL the suite's
// reference clients use (its authorization server never fetches it).
const conformanceCIMD = "https://conformance-test.local/client-metadata.json"

// toolCall is one tools/call the driver makes.
type toolCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// conformancePlans says what a person would do in a scenario, given the
// tools listed, where that is more than "call every tool with no
// arguments" (the default) or what the context's toolCalls list.
var conformancePlans = map[string]func(tools []wire.Tool) []toolCall{
	"initialize": func([]wire.Tool) []toolCall { return nil },
	"tools_call": func([]wire.Tool) []toolCall {
		return []toolCall{{"add_numbers", map[string]any{"a": 5, "b": 3}}}
	},
	// Only tools/list is served; the point is that the network $ref in
	// the listed schema is never fetched.
	"json-schema-ref-no-deref": func([]wire.Tool) []toolCall { return nil },
	// Echo the focal tool's inputSchema as elicit listed it: the suite
	// diffs it against what it sent, to find keywords a client dropped.
	"json-schema-2020-12-preservation": func(tools []wire.Tool) []toolCall {
		for _, t := range tools {
			if t.Name == "json_schema_2020_12_tool" {
				var schema map[string]any
				if json.Unmarshal(t.InputSchema, &schema) == nil {
					return []toolCall{{"json_schema_echo", map[string]any{"schema": schema}}}
				}
			}
		}
		return nil
	},
}

// conformanceLoadsSkills are the scenarios in which a person picks the
// server's skills to use (the SEP-2640 verification ones): elicit loads
// each, verifying its files. Elsewhere skills are listed and left unread,
// as a person browsing them would.
var conformanceLoadsSkills = map[string]bool{
	"sep-2640-client-verify-digest":      true,
	"sep-2640-client-verify-size":        true,
	"sep-2640-client-verify-frontmatter": true,
}

// plan is the calls to make for scenario.
func plan(scenario string, cc conformanceContext, tools []wire.Tool) []toolCall {
	if len(cc.ToolCalls) > 0 {
		return cc.ToolCalls
	}
	if p, ok := conformancePlans[scenario]; ok {
		return p(tools)
	}
	calls := make([]toolCall, 0, len(tools))
	for _, t := range tools {
		calls = append(calls, toolCall{t.Name, map[string]any{}})
	}
	return calls
}

// conformanceContext is MCP_CONFORMANCE_CONTEXT: what a scenario hands
// the client (credentials, keys).
type conformanceContext struct {
	Name             string `json:"name"`
	ClientID         string `json:"client_id"`
	ClientSecret     string `json:"client_secret"`
	PrivateKeyPEM    string `json:"private_key_pem"`
	SigningAlgorithm string `json:"signing_algorithm"`
	// The workload identity scenario's assertion.
	ValidJWT string `json:"valid_jwt"`
	// Enterprise-managed authorization: the IdP and the person's ID token.
	IdPClientID      string `json:"idp_client_id"`
	IdPIDToken       string `json:"idp_id_token"`
	IdPTokenEndpoint string `json:"idp_token_endpoint"`
	// ToolCalls are calls the scenario wants made, with their arguments.
	ToolCalls []toolCall `json:"toolCalls"`
}

// Conformance is elicit conformance: the client the MCP conformance suite
// runs against a scenario's server.
func (e Env) Conformance(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("conformance", stderr, ConformanceUsage)
	pos, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return exit.Usagef("conformance needs the server URL as its last argument")
	}
	scenario := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	var cc conformanceContext
	if raw := os.Getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &cc); err != nil {
			return exit.Usagef("MCP_CONFORMANCE_CONTEXT: %v", err)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 25*time.Second)
	defer cancel()
	logf := func(format string, a ...any) {
		fmt.Fprintf(stderr, "%s oauth: %s\n", time.Now().Format("15:04:05.000"), untrusted.Line(fmt.Sprintf(format, a...)))
	}
	grant, err := cc.grant()
	if err != nil {
		return exit.Usagef("MCP_CONFORMANCE_CONTEXT: %v", err)
	}
	auth, err := oauth.New(oauth.Config{
		Grant:             grant,
		Resource:          pos[0],
		ClientID:          cc.ClientID,
		ClientSecret:      cc.ClientSecret,
		ClientMetadataURL: conformanceCIMD,
		Open:              fetchingBrowser(logf),
		OnState:           func(s oauth.State) { logf("%s", s) },
		Timeout:           15 * time.Second,
		Logf:              logf,
		Secrets:           serverspec.SecretsOf(stderr), // the frames and log lines go to stderr
	})
	if err != nil {
		return exit.Fail(exit.Connect, "%w", err)
	}
	// The suite judges the client, so no findings or recording: the
	// frames are logged to stderr (masked, as every stderr is).
	w := &app.Wiring{
		Name:     "conformance",
		Version:  e.Version,
		Elicit:   client.ElicitBoth,
		Prompter: question.AcceptDefaults,
		OnFrame: func(f transport.Frame) {
			fmt.Fprintf(stderr, "%s %s %s\n", f.Time.Format("15:04:05.000"), f.Dir, untrusted.Line(string(f.Raw)))
		},
	}
	sess, err := w.Connect(ctx, &transport.HTTP{URL: pos[0], Observer: w.TransportObserver(), Client: &http.Client{Transport: auth}})
	if err != nil {
		return exit.Fail(exit.Connect, "connect to %s: %w", pos[0], err)
	}
	defer sess.Close()
	if sess.ServerCapabilities().HasSkills() {
		skills, err := sess.Skills().List(ctx)
		if err != nil {
			return exit.Fail(exit.ToolError, "skills/list: %w", err)
		}
		for _, sk := range skills {
			fmt.Fprintf(stdout, "skill %s\n", untrusted.Line(sk.URI))
			if !conformanceLoadsSkills[scenario] {
				continue
			}
			loaded, err := sess.Skills().Load(ctx, sk)
			if err != nil {
				return exit.Fail(exit.ToolError, "%w", err)
			}
			fmt.Fprintf(stdout, "loaded %s: %d files verified\n", untrusted.Line(sk.URI), len(loaded.Order))
		}
	}
	tools, err := sess.ListTools(ctx)
	if err != nil && !errors.Is(err, client.ErrUndeclared) { // no tools: nothing to call
		return exit.Fail(exit.ToolError, "tools/list: %w", err)
	}
	for _, c := range plan(scenario, cc, tools) {
		args := c.Arguments
		if args == nil {
			args = map[string]any{}
		}
		res, err := sess.CallTool(ctx, c.Name, args, nil)
		if err != nil {
			return exit.Fail(exit.ToolError, "tools/call %s: %w", c.Name, err)
		}
		fmt.Fprintf(stdout, "%s: %s\n", c.Name, untrusted.Line(string(res.Raw)))
	}
	return nil
}

// grant maps what the context hands over to the grant a person would
// configure for it: a private key means private_key_jwt client
// credentials, a workload JWT the JWT bearer grant, an IdP ID token
// enterprise-managed authorization; otherwise the authorization code
// flow (or client credentials, where the server offers only those).
func (cc conformanceContext) grant() (oauth.Grant, error) {
	fixed := func(s string) func() (string, error) { return func() (string, error) { return s, nil } }
	switch {
	case cc.PrivateKeyPEM != "":
		key, err := oauth.ParsePrivateKey([]byte(cc.PrivateKeyPEM))
		if err != nil {
			return nil, err
		}
		return &oauth.ClientCredentials{ClientID: cc.ClientID, Key: key}, nil
	case cc.ValidJWT != "":
		return &oauth.JWTBearer{ClientID: cc.ClientID, Assertion: fixed(cc.ValidJWT)}, nil
	case cc.IdPIDToken != "":
		return &oauth.Enterprise{
			IdPTokenEndpoint: cc.IdPTokenEndpoint, IdPClientID: cc.IdPClientID, IDToken: fixed(cc.IdPIDToken),
			ClientID: cc.ClientID, ClientSecret: cc.ClientSecret,
		}, nil
	}
	return nil, nil
}

// fetchingBrowser is the conformance suite's "browser": it GETs the
// authorization URL and follows the redirects, the last of which is
// elicit's own loopback callback, exactly as a browser would after a
// person approved.
func fetchingBrowser(logf func(string, ...any)) func(context.Context, oauth.Authorization) error {
	return func(ctx context.Context, a oauth.Authorization) error {
		logf("opening %s", a.URL)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.URL, nil)
		if err != nil {
			return err
		}
		c := &http.Client{Timeout: 10 * time.Second}
		resp, err := c.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return nil // the callback came: the flow no longer waits on us
			}
			return fmt.Errorf("browser: %w", err)
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		return nil
	}
}
