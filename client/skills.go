package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/client/skills"
	"github.com/elicit-dev/elicit/client/wire"
)

// HasSkills reports whether the server declared the skills extension
// (capabilities.extensions, in every era).
func (c ServerCapabilities) HasSkills() bool {
	ok, _ := c.skillsDeclared()
	return ok
}

// skillsDeclared reads capabilities.extensions[skills.Ext]: declared when
// it is an object, and its directoryRead when that is true.
func (c ServerCapabilities) skillsDeclared() (declared, directoryRead bool) {
	var e struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if json.Unmarshal(c.Raw, &e) != nil {
		return false, false
	}
	var ext map[string]json.RawMessage
	if raw, ok := e.Extensions[skills.Ext]; !ok || json.Unmarshal(raw, &ext) != nil || ext == nil {
		return false, false
	}
	var dir bool
	_ = json.Unmarshal(ext["directoryRead"], &dir) // anything but true is false
	return true, dir
}

// Skills is the skills extension (package client/skills) on this session:
// it reaches the session only through skills/list, skills/get,
// resources/directory/read and resources/read, and asks none of them of
// a server that did not declare the extension.
func (s *Session) Skills() *skills.Skills {
	return skills.New(skills.Handle{
		Declared: func() (bool, bool) { return s.ServerCapabilities().skillsDeclared() },
		List: func(ctx context.Context) ([]skills.Skill, error) {
			return listAll[skills.Skill](ctx, s, wire.MethodSkillsList, "skills")
		},
		Get: func(ctx context.Context, uri string) (skills.Skill, error) {
			var res struct {
				Skill skills.Skill `json:"skill"`
			}
			if err := s.do(ctx, &call{method: wire.MethodSkillsGet, name: uri}, map[string]string{"uri": uri}, &res); err != nil {
				return skills.Skill{}, fmt.Errorf("%s %s: %w", wire.MethodSkillsGet, uri, err)
			}
			return res.Skill, nil
		},
		ReadDirectory: func(ctx context.Context, uri string) ([]wire.Resource, error) {
			return listAllOf[wire.Resource](ctx, s, wire.MethodResourcesDirectoryRead, "resources", map[string]string{"uri": uri})
		},
		Read: s.ReadResource,
	})
}
