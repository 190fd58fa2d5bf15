package tui

import (
	"context"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/client/skills"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/shown"
	"github.com/elicit-dev/elicit/ui"
)

// Skills implements ui.Engine: skills/list, none of the files read.
func (e *engine) Skills(ctx context.Context, server string) ([]skills.Skill, error) {
	s, err := e.session(server)
	if err != nil {
		return nil, err
	}
	rc := e.rec.Begin(server, wire.MethodSkillsList, "", nil, nil)
	list, err := s.Skills().List(ctx)
	rc.End(list, err)
	return shown.Value(e.secretsNow(), list), e.shownErr(err)
}

// ReadSkillFile implements ui.Engine: the file is checked on the bytes
// the server sent, then what is shown has the run's secrets masked; a
// file whose check failed is not shown at all.
func (e *engine) ReadSkillFile(ctx context.Context, server string, sk skills.Skill, uri string) (ui.SkillFileRead, error) {
	s, err := e.session(server)
	if err != nil {
		return ui.SkillFileRead{}, err
	}
	rc := e.rec.Begin(server, wire.MethodResourcesRead, uri, recording.URIParams{URI: uri}, nil)
	f, err := s.Skills().ReadFile(ctx, sk, uri)
	rc.End(f.Contents, err)
	if err != nil {
		return ui.SkillFileRead{}, e.shownErr(err)
	}
	out := ui.SkillFileRead{URI: f.URI, Check: f.Check, Why: f.Why, Size: len(f.Bytes)}
	switch {
	case f.Check != skills.Verified && f.Check != skills.Unverifiable:
	case !utf8.Valid(f.Bytes):
		out.Binary = true
	default:
		out.Text = string(f.Bytes)
	}
	return shown.Value(e.secretsNow(), out), nil
}
