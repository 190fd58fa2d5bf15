package client

import (
	"context"
	"encoding/json"

	"github.com/elicit-dev/elicit/client/skills"
	"github.com/elicit-dev/elicit/client/wire"
)

// HasSkills reports whether the server declared the skills extension.
func (c ServerCapabilities) HasSkills() bool {
	var e struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if json.Unmarshal(c.Raw, &e) != nil {
		return false
	}
	_, ok := e.Extensions[skills.Ext]
	return ok
}

// Skills is the skills extension (package client/skills) on this session:
// List and Load, reaching the session only through skills/list and
// resources/read.
func (s *Session) Skills() *skills.Skills {
	return skills.New(skills.Handle{
		List: func(ctx context.Context) ([]skills.Skill, error) {
			return listAll[skills.Skill](ctx, s, wire.MethodSkillsList, "skills")
		},
		Read: s.ReadResource,
	})
}
