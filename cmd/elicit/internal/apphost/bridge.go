package apphost

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/elicit-dev/elicit/client/wire"
)

// The ext-apps protocol's methods the host serves or sends (the package's
// spec.types.d.ts), and its version.
const (
	methodInitialize     = "ui/initialize"
	methodOpenLink       = "ui/open-link"
	methodDisplayMode    = "ui/request-display-mode"
	methodToolsCall      = "tools/call"
	methodResourcesRead  = "resources/read"
	methodPing           = "ping"
	notifyLog            = "notifications/message"
	appProtocolVersion   = "2026-01-26"
	codeMethodNotFound   = -32601
	codeInvalidParams    = -32602
	codeInternal         = -32603
	hostName             = "elicit"
	displayModeInline    = "inline"
	themeLight           = "light"
	platformWeb          = "web"
	jsonrpcVersion       = "2.0"
	fromOpener           = "opener"
	fromHost             = "host"
	fromApp              = "app"
	linkSchemeHTTP       = "http"
	linkSchemeHTTPS      = "https"
	noticeLinkNotOpened  = "the app asks to open a link (shown on its page, not opened): "
	noticeAppLog         = "the app logs: "
	errToolNotForTheApp  = "the app may not call this tool (its visibility leaves out \"app\", or the server does not list it)"
	errHostHasNoModel    = "elicit has no model or chat: "
	errLinkNotHTTP       = "only http and https links are shown"
	errBadParams         = "bad params"
	errRelayNeedsMessage = "no message"
)

// reply is what the page gets back for a relayed message: the JSON-RPC
// message to hand the app, and a link to show the person.
type reply struct {
	Message json.RawMessage `json:"message,omitempty"`
	Link    string          `json:"link,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// handle answers one relayed message.
func (h *Host) handle(ctx context.Context, from string, raw json.RawMessage) *reply {
	switch from {
	case fromOpener:
		return h.opener(ctx)
	case fromHost:
		h.frame(false, raw) // the host's own notification to the app
		return nil
	case fromApp:
	default:
		return nil
	}
	h.frame(true, raw)
	m, err := wire.ExactMembers(raw)
	if err != nil {
		return nil
	}
	method, _, _ := wire.ExactString(m, "method")
	id, hasID := m["id"]
	if method == "" || !hasID {
		// A notification (size changes are the page's), or the app's
		// answer to a host request.
		if method == notifyLog {
			h.notice(noticeAppLog + string(m["params"]))
		}
		return nil
	}
	params := json.RawMessage(m["params"])
	result, rerr, link := h.serve(ctx, method, params)
	msg := map[string]any{"jsonrpc": jsonrpcVersion, "id": json.RawMessage(id)}
	if rerr != nil {
		msg["error"] = rerr
	} else {
		msg["result"] = result
	}
	out, err := json.Marshal(msg)
	if err != nil {
		return nil
	}
	h.frame(false, out)
	return &reply{Message: out, Link: link}
}

// serve is the host's answer to one request of the app.
func (h *Host) serve(ctx context.Context, method string, params json.RawMessage) (any, *rpcError, string) {
	switch method {
	case methodInitialize:
		return h.initialize(), nil, ""
	case methodPing:
		return struct{}{}, nil, ""
	case methodDisplayMode:
		return map[string]string{"mode": displayModeInline}, nil, ""
	case methodToolsCall:
		var p struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		}
		if wire.DecodeExact(params, &p) != nil || p.Name == "" {
			return nil, &rpcError{codeInvalidParams, errBadParams}, ""
		}
		if !h.appMayCall(p.Name) {
			return nil, &rpcError{codeInvalidParams, errToolNotForTheApp}, ""
		}
		res, err := h.cfg.Call(ctx, p.Name, p.Arguments)
		if err != nil {
			return nil, &rpcError{codeInternal, err.Error()}, ""
		}
		return res, nil, ""
	case methodResourcesRead:
		var p struct {
			URI string `json:"uri"`
		}
		if wire.DecodeExact(params, &p) != nil || p.URI == "" {
			return nil, &rpcError{codeInvalidParams, errBadParams}, ""
		}
		contents, err := h.cfg.Read(ctx, p.URI)
		if err != nil {
			return nil, &rpcError{codeInternal, err.Error()}, ""
		}
		return map[string]any{"contents": contents}, nil, ""
	case methodOpenLink:
		var p struct {
			URL string `json:"url"`
		}
		if wire.DecodeExact(params, &p) != nil {
			return nil, &rpcError{codeInvalidParams, errBadParams}, ""
		}
		u, err := url.Parse(p.URL)
		if err != nil || (u.Scheme != linkSchemeHTTP && u.Scheme != linkSchemeHTTPS) {
			return nil, &rpcError{codeInvalidParams, errLinkNotHTTP}, ""
		}
		h.notice(noticeLinkNotOpened + p.URL)
		return struct{}{}, nil, p.URL
	}
	return nil, &rpcError{codeMethodNotFound, errHostHasNoModel + method + " is not served"}, ""
}

// initialize is ui/initialize's result: who we are, what we do for the
// app, and the context it renders in.
func (h *Host) initialize() any {
	return map[string]any{
		"protocolVersion": appProtocolVersion,
		"hostInfo":        wire.Implementation{Name: hostName, Version: h.cfg.Version},
		"hostCapabilities": map[string]any{
			"openLinks":       struct{}{},
			"serverTools":     struct{}{},
			"serverResources": struct{}{},
			"logging":         struct{}{},
		},
		"hostContext": map[string]any{
			"theme":                 themeLight,
			"displayMode":           displayModeInline,
			"availableDisplayModes": []string{displayModeInline},
			"platform":              platformWeb,
			"toolInfo":              map[string]any{"tool": h.cfg.Tool},
		},
	}
}

// appMayCall: a tool the server lists whose visibility includes the app.
func (h *Host) appMayCall(name string) bool {
	for _, t := range h.cfg.Tools {
		if t.Name == name {
			return t.AppVisible()
		}
	}
	return false
}

// opener runs the tool whose app this is, with the command's arguments:
// the page hands the app its input, then this result.
func (h *Host) opener(ctx context.Context) *reply {
	res, err := h.cfg.Call(ctx, h.cfg.Tool.Name, h.cfg.Args)
	msg := map[string]any{}
	if err != nil {
		msg["error"] = rpcError{codeInternal, err.Error()}
	} else {
		msg["result"] = res
	}
	args := h.cfg.Args
	if args == nil {
		args = map[string]any{}
	}
	msg["arguments"] = args
	out, err := json.Marshal(msg)
	if err != nil {
		return nil
	}
	return &reply{Message: out}
}

func (h *Host) frame(in bool, raw []byte) {
	if h.cfg.OnFrame != nil {
		h.cfg.OnFrame(in, raw)
	}
}

func (h *Host) notice(s string) {
	if h.cfg.OnNotice != nil {
		h.cfg.OnNotice(s)
	}
}
