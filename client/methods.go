package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// What a list keeps across its pages, against a server that hands out
// new cursors for ever: pages, items, and the bytes of the items and
// cursors (a server paging 20,000 resources at a time had elicit hold
// 1.4 GB after 40 s, 10,000 pages being far off). Past a bound the list
// stops with what it has, and says so.
const (
	maxPages     = 10_000
	maxListItems = 100_000
	maxListBytes = 64 << 20 // one frame's worth (transport.DefaultLineLimit)
)

// listAll follows nextCursor to the end of a paginated list, appending the
// items under key.
func listAll[T any](ctx context.Context, s *Session, method, key string) ([]T, error) {
	return listAllOf[T](ctx, s, method, key, nil)
}

// listAllOf is listAll of a list whose every page also carries base's
// params (resources/directory/read's uri).
func listAllOf[T any](ctx context.Context, s *Session, method, key string, base map[string]string) ([]T, error) {
	var all []T
	cursor := ""
	seen := map[string]bool{}
	kept := 0 // bytes of the items and cursors kept
	for page := 0; ; page++ {
		if page >= maxPages {
			return all, fmt.Errorf("%s on %s: more than %d pages", method, s.name, maxPages)
		}
		var params any
		if cursor != "" || base != nil {
			p := map[string]string{}
			for k, v := range base {
				p[k] = v
			}
			if cursor != "" {
				p["cursor"] = cursor
			}
			params = p
		}
		var res map[string]json.RawMessage
		c := &call{method: method}
		if err := s.do(ctx, c, params, &res); err != nil {
			return all, err
		}
		id, _ := c.ids()
		s.lint.Page(method, id, res[key])
		var items []T
		if raw, ok := res[key]; ok && string(raw) != "null" {
			if err := json.Unmarshal(raw, &items); err != nil {
				return all, fmt.Errorf("%s on %s: malformed %s: %w", method, s.name, key, err)
			}
		}
		if len(all)+len(items) > maxListItems {
			return append(all, items[:maxListItems-len(all)]...), fmt.Errorf("%s on %s: more than %d items: stopped there", method, s.name, maxListItems)
		}
		all = append(all, items...)
		kept += len(res[key])
		var next string
		if raw, ok := res["nextCursor"]; ok && string(raw) != "null" {
			if err := json.Unmarshal(raw, &next); err != nil {
				return all, fmt.Errorf("%s on %s: malformed nextCursor: %w", method, s.name, err)
			}
		}
		if next == "" {
			return all, nil
		}
		if kept += len(next); kept > maxListBytes {
			return all, fmt.Errorf("%s on %s: more than %d MiB of items and cursors: stopped there", method, s.name, maxListBytes>>20)
		}
		if seen[next] {
			s.lint.Cursor(method, id, next)
			return all, fmt.Errorf("%s on %s: the server repeated cursor %q", method, s.name, next)
		}
		seen[next] = true
		cursor = next
	}
}

// ListTools returns every tool, following pagination to the end. In
// 2026-07-28 over HTTP it also caches the tools' x-mcp-header bindings and
// leaves out the tools whose bindings are invalid (see headers.go).
//
// Lists of every kind are coalesced (lists.go): however many callers ask
// and however often the server says a list changed, at most one request
// per kind is out and one waits.
func (s *Session) ListTools(ctx context.Context) ([]wire.Tool, error) {
	if err := s.ServerCapabilities().require(s.name, wire.MethodToolsList, "tools"); err != nil {
		return nil, err
	}
	return coalescedList(ctx, &s.lists, listTools, func(ctx context.Context) ([]wire.Tool, error) {
		tools, err := listAll[wire.Tool](ctx, s, wire.MethodToolsList, "tools")
		if err == nil {
			s.tasks.rememberTools(tools) // execution.taskSupport, for CallTool (tasks_call.go)
			s.lint.Tools(tools)          // names, outputSchemas (client/lint)
		}
		return s.headers.remember(tools, err == nil), err
	})
}

// ListResources returns every resource, following pagination to the end.
func (s *Session) ListResources(ctx context.Context) ([]wire.Resource, error) {
	if err := s.ServerCapabilities().require(s.name, wire.MethodResourcesList, "resources"); err != nil {
		return nil, err
	}
	return coalescedList(ctx, &s.lists, listResources, func(ctx context.Context) ([]wire.Resource, error) {
		return listAll[wire.Resource](ctx, s, wire.MethodResourcesList, "resources")
	})
}

// ListResourceTemplates returns every resource template
// (resources/templates/list), following pagination to the end.
func (s *Session) ListResourceTemplates(ctx context.Context) ([]wire.ResourceTemplate, error) {
	if err := s.ServerCapabilities().require(s.name, wire.MethodResourcesTemplatesList, "resources"); err != nil {
		return nil, err
	}
	return coalescedList(ctx, &s.lists, listTemplates, func(ctx context.Context) ([]wire.ResourceTemplate, error) {
		return listAll[wire.ResourceTemplate](ctx, s, wire.MethodResourcesTemplatesList, "resourceTemplates")
	})
}

// ListPrompts returns every prompt template, following pagination.
func (s *Session) ListPrompts(ctx context.Context) ([]wire.Prompt, error) {
	if err := s.ServerCapabilities().require(s.name, wire.MethodPromptsList, "prompts"); err != nil {
		return nil, err
	}
	return coalescedList(ctx, &s.lists, listPrompts, func(ctx context.Context) ([]wire.Prompt, error) {
		return listAll[wire.Prompt](ctx, s, wire.MethodPromptsList, "prompts")
	})
}

// CallTool calls a tool. Each call carries a progress token of its own;
// its progress goes to the Observer and to opts.OnProgress. A tool that
// failed (isError) is a result, not an error. Cancelling ctx cancels the
// call on the wire and abandons the prompts that belong to it.
//
// A call that becomes a task (see the package doc, Tasks) blocks until the
// task is terminal and returns its final result, emitting TaskChanged on
// the way; cancelling ctx then sends tasks/cancel instead.
func (s *Session) CallTool(ctx context.Context, name string, args any, opts *CallOptions) (*wire.CallToolResult, error) {
	if err := s.ServerCapabilities().require(s.name, wire.MethodToolsCall, "tools"); err != nil {
		return nil, err
	}
	c := &call{method: wire.MethodToolsCall, name: name, token: s.peer.NewToken()}
	if opts != nil {
		c.onProgress, c.onSent, c.onID = opts.OnProgress, opts.OnSent, opts.OnID
	}
	if args == nil {
		args = map[string]any{}
	}
	params := map[string]any{
		"name":      name,
		"arguments": args,
		"_meta":     map[string]any{"progressToken": c.token},
	}
	// Tasks (tasks_call.go): may ask for a task, and follows one to its end.
	design := s.tasks.prepare(ctx, c, name, opts, params)
	var raw json.RawMessage
	if err := s.do(ctx, c, params, &raw); err != nil {
		return nil, err
	}
	if res, ok, err := s.tasks.answer(ctx, c, design, raw); ok {
		if err == nil {
			s.lint.ToolResult(name, res, jsonrpc.ID{})
		}
		return res, err
	}
	res, err := toolResult(raw)
	if err != nil {
		return nil, fmt.Errorf("tools/call %q on %s: malformed result: %w", name, s.name, err)
	}
	id, _ := c.ids()
	s.lint.ToolResult(name, res, id)
	return res, nil
}

// ReadResource reads a resource.
func (s *Session) ReadResource(ctx context.Context, uri string) ([]wire.ResourceContents, error) {
	if err := s.ServerCapabilities().require(s.name, wire.MethodResourcesRead, "resources"); err != nil {
		return nil, err
	}
	var res struct {
		Contents []wire.ResourceContents `json:"contents"`
	}
	c := &call{method: wire.MethodResourcesRead, name: uri}
	if err := s.do(ctx, c, map[string]string{"uri": uri}, &res); err != nil {
		return nil, err
	}
	return res.Contents, nil
}

// GetPrompt renders a prompt template with args.
func (s *Session) GetPrompt(ctx context.Context, name string, args map[string]string) (*wire.GetPromptResult, error) {
	if err := s.ServerCapabilities().require(s.name, wire.MethodPromptsGet, "prompts"); err != nil {
		return nil, err
	}
	params := map[string]any{"name": name}
	if args != nil {
		params["arguments"] = args
	}
	var res wire.GetPromptResult
	if err := s.do(ctx, &call{method: wire.MethodPromptsGet, name: name}, params, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// SetLogLevel asks the server to send log messages at level and above
// ("debug", "info", "notice", "warning", "error", ...). In 2026-07-28,
// which has no logging/setLevel, the level rides in every later request's
// _meta instead.
func (s *Session) SetLogLevel(ctx context.Context, level string) error {
	if s.stateless() {
		s.mu.Lock()
		s.logLevel = level
		s.mu.Unlock()
		return nil
	}
	if err := s.ServerCapabilities().require(s.name, wire.MethodLoggingSetLevel, "logging"); err != nil {
		return err
	}
	return s.Request(ctx, wire.MethodLoggingSetLevel, map[string]string{"level": level}, nil)
}

// ErrNoPing is returned by Ping in 2026-07-28, which has no ping.
var ErrNoPing = errors.New("ping does not exist in protocol 2026-07-28")

// Ping sends a ping and waits for the answer.
func (s *Session) Ping(ctx context.Context) error {
	if s.stateless() {
		return fmt.Errorf("ping %s: %w", s.name, ErrNoPing)
	}
	return s.Request(ctx, wire.MethodPing, nil, nil)
}
