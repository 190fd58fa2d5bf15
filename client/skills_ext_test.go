package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/skills"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// extPeer is a server of the given era declaring capabilities caps and
// answering each method with its handler's result (nil: -32601); it
// records every method it was sent.
func extPeer(t *testing.T, era, caps string, handlers map[string]func(params json.RawMessage) string) (*client.Session, func() []string) {
	t.Helper()
	cc, sc := transport.Pipe(nil)
	var mu sync.Mutex
	var seen []string
	go func() {
		for {
			m, err := msgOf(sc.Read(context.Background()))
			if err != nil {
				return
			}
			if m.Kind() != jsonrpc.KindRequest {
				continue
			}
			mu.Lock()
			seen = append(seen, m.Method)
			mu.Unlock()
			out := &jsonrpc.Message{ID: m.ID}
			modern := era == "2026-07-28"
			switch {
			case m.Method == "server/discover" && modern:
				out.Result = json.RawMessage(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":` + caps + `}`)
			case m.Method == "initialize" && !modern:
				out.Result = json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":` + caps + `,"serverInfo":{"name":"skills","version":"1"}}`)
			case handlers[m.Method] != nil:
				res := handlers[m.Method](m.Params)
				if modern {
					res = `{"resultType":"complete","ttlMs":0,"cacheScope":"private",` + strings.TrimPrefix(res, "{")
				}
				out.Result = json.RawMessage(res)
			default:
				out.Error = &jsonrpc.Error{Code: -32601, Message: "method not found"}
			}
			_ = sc.Write(context.Background(), out, nil)
		}
	}()
	s, err := client.Connect(t.Context(), connTransport{cc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); sc.Close() })
	return s, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

const skillsCaps = `{"resources":{},"extensions":{"io.modelcontextprotocol/skills":{}}}`

func entryJSON(uri, name string, files ...[2]string) string {
	var rs []map[string]any
	for _, f := range files {
		rs = append(rs, map[string]any{"uri": f[0], "digest": sha(f[1]), "size": len(f[1])})
	}
	e := map[string]any{"uri": uri, "frontmatter": map[string]string{"name": name, "description": "d " + name}, "resources": rs}
	if files == nil {
		e["resources"] = "dynamic"
	}
	b, _ := json.Marshal(e)
	return string(b)
}

// A skill whose resources are "dynamic" is listed as such, next to the
// others: it does not fail the whole list.
func TestSkillsDynamicEntryIsListed(t *testing.T) {
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) {
			list := `{"skills":[` + entryJSON("skill://gen/SKILL.md", "gen") + `,` +
				entryJSON("skill://pdf/SKILL.md", "pdf", [2]string{"skill://pdf/SKILL.md", skillMD}) + `]}`
			s, seen := extPeer(t, era, skillsCaps, map[string]func(json.RawMessage) string{
				"skills/list": func(json.RawMessage) string { return list },
			})
			got, err := s.Skills().List(t.Context())
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			if len(got) != 2 || !got[0].Resources.Dynamic || got[1].Resources.Dynamic || len(got[1].Resources.Files) != 1 {
				t.Fatalf("listed %+v", got)
			}
			if name, desc := got[0].Meta(); name != "gen" || desc != "d gen" {
				t.Errorf("Meta() = %q, %q", name, desc)
			}
			if slices.Contains(seen(), "resources/read") {
				t.Errorf("listing read a file: %v", seen())
			}
		})
	}
}

// Nothing of the extension is asked of a server that did not declare it
// under capabilities.extensions (a "skills" capability elsewhere is not
// the extension), and resources/directory/read only with directoryRead.
func TestSkillsAskedOnlyWhenDeclared(t *testing.T) {
	answer := map[string]func(json.RawMessage) string{
		"skills/list":              func(json.RawMessage) string { return `{"skills":[]}` },
		"skills/get":               func(json.RawMessage) string { return `{"skill":` + entryJSON("skill://gen/SKILL.md", "gen") + `}` },
		"resources/directory/read": func(json.RawMessage) string { return `{"resources":[]}` },
	}
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		for _, caps := range []string{`{"resources":{}}`, `{"resources":{},"skills":{},"experimental":{"io.modelcontextprotocol/skills":{}}}`} {
			t.Run(era+caps, func(t *testing.T) {
				s, seen := extPeer(t, era, caps, answer)
				k := s.Skills()
				_, err1 := k.List(t.Context())
				_, err2 := k.Get(t.Context(), "skill://gen/SKILL.md")
				_, err3 := k.ReadDirectory(t.Context(), "skill://gen/")
				for _, err := range []error{err1, err2, err3} {
					if !errors.Is(err, skills.ErrNotDeclared) {
						t.Errorf("error %v, want ErrNotDeclared", err)
					}
				}
				for _, m := range seen() {
					if strings.HasPrefix(m, "skills/") || m == "resources/directory/read" {
						t.Errorf("asked %s of a server without the extension", m)
					}
				}
			})
		}
		t.Run(era+" without directoryRead", func(t *testing.T) {
			s, seen := extPeer(t, era, skillsCaps, answer)
			if _, err := s.Skills().ReadDirectory(t.Context(), "skill://gen/"); !errors.Is(err, skills.ErrNotDeclared) {
				t.Errorf("ReadDirectory: %v, want ErrNotDeclared", err)
			}
			if slices.Contains(seen(), "resources/directory/read") {
				t.Error("resources/directory/read sent without directoryRead: true")
			}
		})
	}
}

// skills/get returns the entry; resources/directory/read follows every
// page, sending the uri with each cursor.
func TestSkillsGetAndDirectoryRead(t *testing.T) {
	caps := `{"resources":{},"extensions":{"io.modelcontextprotocol/skills":{"directoryRead":true}}}`
	var gotParams []string
	var mu sync.Mutex
	s, _ := extPeer(t, "2025-11-25", caps, map[string]func(json.RawMessage) string{
		"skills/get": func(p json.RawMessage) string {
			var q struct{ URI string }
			_ = json.Unmarshal(p, &q)
			return `{"skill":` + entryJSON(q.URI, "gen") + `}`
		},
		"resources/directory/read": func(p json.RawMessage) string {
			mu.Lock()
			gotParams = append(gotParams, string(p))
			mu.Unlock()
			if strings.Contains(string(p), `"cursor":"2"`) {
				return `{"resources":[{"uri":"skill://gen/b.md","name":"b.md"}]}`
			}
			return `{"resources":[{"uri":"skill://gen/a.md","name":"a.md"}],"nextCursor":"2"}`
		},
	})
	sk, err := s.Skills().Get(t.Context(), "skill://gen/SKILL.md")
	if err != nil || sk.URI != "skill://gen/SKILL.md" || !sk.Resources.Dynamic {
		t.Fatalf("Get: %+v, %v", sk, err)
	}
	dir, err := s.Skills().ReadDirectory(t.Context(), "skill://gen/")
	if err != nil || len(dir) != 2 || dir[0].URI != "skill://gen/a.md" || dir[1].URI != "skill://gen/b.md" {
		t.Fatalf("ReadDirectory: %+v, %v", dir, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(gotParams) != 2 || !strings.Contains(gotParams[1], `"uri":"skill://gen/"`) {
		t.Errorf("directory read params %q", gotParams)
	}
}

// skills/get answering another skill than the one asked is refused: its
// files would be read as the asked one's.
func TestSkillsGetOfAnotherSkillRefused(t *testing.T) {
	s, _ := extPeer(t, "2025-11-25", skillsCaps, map[string]func(json.RawMessage) string{
		"skills/get": func(json.RawMessage) string { return `{"skill":` + entryJSON("skill://other/SKILL.md", "other") + `}` },
	})
	if sk, err := s.Skills().Get(t.Context(), "skill://gen/SKILL.md"); err == nil {
		t.Fatalf("Get answered %+v", sk)
	}
}
