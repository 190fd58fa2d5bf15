package client_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/skills"
	"github.com/elicit-dev/elicit/transport"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

const (
	skillMD   = "---\nname: pdf-processing\ndescription: Extract PDF text\n---\n\nBody.\n"
	skillForm = "Supporting file.\n"
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// skillsPeer is a 2026-07-28 server with the skills extension, serving
// one skill whose SKILL.md is md (the entry says what skillMD is), and
// recording what was read.
func skillsPeer(t *testing.T, md, entryFrontmatter string) (*client.Session, func() []string) {
	t.Helper()
	cc, sc := transport.Pipe(nil)
	var mu sync.Mutex
	var reads []string
	go func() {
		for {
			m, err := msgOf(sc.Read(context.Background()))
			if err != nil {
				return
			}
			var result string
			switch m.Method {
			case "server/discover":
				result = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"resources":{},"extensions":{"io.modelcontextprotocol/skills":{}}}}`
			case "skills/list":
				entry := map[string]any{
					"uri":         "skill://pdf-processing/SKILL.md",
					"frontmatter": json.RawMessage(entryFrontmatter),
					"resources": []map[string]any{
						{"uri": "skill://pdf-processing/SKILL.md", "digest": sha(skillMD), "size": len(skillMD)},
						{"uri": "skill://pdf-processing/FORMS.md", "digest": sha(skillForm), "size": len(skillForm)},
					},
				}
				b, _ := json.Marshal(map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "skills": []any{entry}})
				result = string(b)
			case "resources/read":
				var p struct{ URI string }
				_ = json.Unmarshal(m.Params, &p)
				mu.Lock()
				reads = append(reads, p.URI)
				mu.Unlock()
				text := md
				if strings.HasSuffix(p.URI, "FORMS.md") {
					text = skillForm
				}
				b, _ := json.Marshal(map[string]any{"resultType": "complete", "ttlMs": 0, "cacheScope": "private",
					"contents": []map[string]string{{"uri": p.URI, "mimeType": "text/markdown", "text": text}}})
				result = string(b)
			default:
				result = `{"resultType":"complete"}`
			}
			_ = sc.Write(context.Background(), &jsonrpc.Message{ID: m.ID, Result: json.RawMessage(result)}, nil)
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
		return append([]string(nil), reads...)
	}
}

func TestSkillsListedUnreadThenLoadedVerified(t *testing.T) {
	s, reads := skillsPeer(t, skillMD, `{"name":"pdf-processing","description":"Extract PDF text"}`)
	if !s.ServerCapabilities().HasSkills() {
		t.Fatal("the skills extension was not seen")
	}
	listed, err := s.Skills().List(t.Context())
	if err != nil || len(listed) != 1 {
		t.Fatalf("Skills().List: %v, %v", listed, err)
	}
	if r := reads(); len(r) != 0 {
		t.Fatalf("listing read %v", r)
	}
	loaded, err := s.Skills().Load(t.Context(), listed[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Order) != 2 || loaded.Order[0] != listed[0].URI || string(loaded.Files[loaded.Order[1]]) != skillForm {
		t.Errorf("loaded %v", loaded.Order)
	}
}

// A SKILL.md that fails its entry is not used, and no other file of the
// skill is read after it.
func TestSkillThatFailsVerificationIsNotLoaded(t *testing.T) {
	good := `{"name":"pdf-processing","description":"Extract PDF text"}`
	for _, tc := range []struct{ name, md, frontmatter, want string }{
		{"digest", strings.Replace(skillMD, "Body.", "Evil.", 1), good, "sha256"},
		{"size", skillMD + "more\n", good, "bytes"},
		{"frontmatter value", skillMD, `{"name":"pdf-processing","description":"Exfiltrate credentials"}`, `"description" differs`},
		{"frontmatter field missing from the entry", skillMD, `{"name":"pdf-processing"}`, `"description" is not in the entry`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, reads := skillsPeer(t, tc.md, tc.frontmatter)
			listed, err := s.Skills().List(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.Skills().Load(t.Context(), listed[0])
			if !errors.Is(err, skills.ErrSkillVerification) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if r := reads(); len(r) != 1 || !strings.HasSuffix(r[0], "SKILL.md") {
				t.Errorf("read %v after a failed SKILL.md", r)
			}
		})
	}
}
