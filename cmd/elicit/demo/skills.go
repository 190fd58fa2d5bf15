package demo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The demo's skills (the io.modelcontextprotocol/skills extension,
// SEP-2640), for elicit skills / elicit skill to show the checks on:
// release-notes has a supporting file and a nested SKILL.md (a plain file
// of the skill, its frontmatter not the skill's); tampered declares a
// digest its data.txt does not have, so reading it fails the check. The
// files are resources, read through one resource template.

// skillsExt is the extension's key under capabilities.extensions.
const skillsExt = "io.modelcontextprotocol/skills"

// skillFileTemplate is the resource template the skills' files are read
// through.
const skillFileTemplate = "skill://{+path}"

// skillFile is one file of a demo skill: what is served, and whether its
// entry lies about its digest.
type skillFile struct {
	uri, text string
	lie       bool
}

type demoSkill struct {
	uri, name, description string
	files                  []skillFile
}

// demoSkills are the skills (a function: no package state).
func demoSkills() []demoSkill {
	return []demoSkill{
		{"skill://release-notes/SKILL.md", "release-notes", "Write release notes from merged changes", []skillFile{
			{uri: "skill://release-notes/SKILL.md", text: "---\nname: release-notes\ndescription: Write release notes from merged changes\n---\n\n" +
				"List the merged changes, group them as templates/TEMPLATE.md shows, one line each.\n"},
			{uri: "skill://release-notes/templates/TEMPLATE.md", text: "## Added\n\n## Fixed\n\n## Changed\n"},
			{uri: "skill://release-notes/templates/SKILL.md", text: "---\nname: templates\ndescription: A nested SKILL.md: a file of release-notes, not a skill of its own\n---\n\nNested.\n"},
		}},
		{"skill://tampered/SKILL.md", "tampered", "A skill whose data.txt is not what its entry declares", []skillFile{
			{uri: "skill://tampered/SKILL.md", text: "---\nname: tampered\ndescription: A skill whose data.txt is not what its entry declares\n---\n\n" +
				"Read data.txt: elicit refuses it, since its digest is not the declared one.\n"},
			{uri: "skill://tampered/data.txt", text: "These are not the bytes the entry declares.\n", lie: true},
		}},
	}
}

type skillFileEntry struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int    `json:"size"`
}

type skillEntry struct {
	URI         string            `json:"uri"`
	Frontmatter map[string]string `json:"frontmatter"`
	Resources   []skillFileEntry  `json:"resources"`
}

func (sk demoSkill) entry() skillEntry {
	e := skillEntry{URI: sk.uri, Frontmatter: map[string]string{"name": sk.name, "description": sk.description}}
	for _, f := range sk.files {
		served := f.text
		if f.lie {
			served = "the bytes the entry declares\n"
		}
		sum := sha256.Sum256([]byte(served))
		e.Resources = append(e.Resources, skillFileEntry{URI: f.uri, Digest: "sha256:" + hex.EncodeToString(sum[:]), Size: len(f.text)})
	}
	return e
}

type listSkillsParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

// modernFields are what every 2026-07-28 result carries; go-sdk adds
// them only to its own result types, not to a custom method's.
type modernFields struct {
	ResultType string `json:"resultType,omitempty"`
	TTLMs      *int   `json:"ttlMs,omitempty"`
	CacheScope string `json:"cacheScope,omitempty"`
}

func modernOf(ss *mcp.ServerSession) modernFields {
	if !modern(ss) {
		return modernFields{}
	}
	zero := 0
	return modernFields{ResultType: "complete", TTLMs: &zero, CacheScope: "private"}
}

type listSkillsResult struct {
	mcp.ResultBase
	modernFields
	Skills []skillEntry `json:"skills"`
}

type getSkillParams struct {
	mcp.ParamsBase
	URI string `json:"uri"`
}

type getSkillResult struct {
	mcp.ResultBase
	modernFields
	Skill skillEntry `json:"skill"`
}

// addSkills declares the extension and serves skills/list, skills/get
// and resources/read of the skills' files.
func addSkills(srv *mcp.Server, caps *mcp.ServerCapabilities) error {
	caps.AddExtension(skillsExt, map[string]any{})
	if err := mcp.AddReceivingCustomMethod(srv, "skills/list",
		func(_ context.Context, ss *mcp.ServerSession, _ *listSkillsParams) (*listSkillsResult, error) {
			out := &listSkillsResult{modernFields: modernOf(ss)}
			for _, sk := range demoSkills() {
				out.Skills = append(out.Skills, sk.entry())
			}
			return out, nil
		}); err != nil {
		return err
	}
	if err := mcp.AddReceivingCustomMethod(srv, "skills/get",
		func(_ context.Context, ss *mcp.ServerSession, p *getSkillParams) (*getSkillResult, error) {
			for _, sk := range demoSkills() {
				if sk.uri == p.URI {
					return &getSkillResult{modernFields: modernOf(ss), Skill: sk.entry()}, nil
				}
			}
			return nil, mcp.ResourceNotFoundError(p.URI)
		}); err != nil {
		return err
	}
	// One template for every file: listed once among the templates, so
	// the resources list stays the readme alone.
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: skillFileTemplate,
		Name:        "skill-file",
		Title:       "A file of one of the demo's skills",
		Description: "What skills/list names, e.g. skill://release-notes/SKILL.md.",
	}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		for _, sk := range demoSkills() {
			for _, f := range sk.files {
				if f.uri == req.Params.URI {
					return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: f.uri, MIMEType: "text/markdown", Text: f.text}}}, nil
				}
			}
		}
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	})
	return nil
}
