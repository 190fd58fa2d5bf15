package ui

import (
	"context"
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"
	"github.com/yosida95/uritemplate/v3"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// Resource templates (resources/templates/list) in the resources view:
// listed after the resources, marked as templates. Enter opens a form of
// the template's RFC 6570 variables; what it expands to is read with
// resources/read in the view's pager. The expansion is
// github.com/yosida95/uritemplate/v3 (levels 1–4, the library go-sdk uses).

// resourceItem is one row of the resources view: a resource, or a
// template when tmpl is set.
type resourceItem struct {
	res  wire.Resource
	tmpl *wire.ResourceTemplate
}

// filterFields is what the list filter searches (listfilter.go).
func (it *resourceItem) filterFields() filterFields {
	if t := it.tmpl; t != nil {
		return filterFields{t.Name, []string{t.Title, t.URITemplate}, []string{t.Description, "template"}}
	}
	return fieldsOf(&it.res)
}

// listResources asks for a server's resources, then its templates. A
// failed templates/list leaves the resources shown and says why.
func listResources(eng Engine, ctx context.Context, server string) tea.Msg {
	res, err := eng.ListResources(ctx, server)
	if err != nil {
		return resourcesMsg{server: server, err: err}
	}
	tmpls, terr := eng.ListResourceTemplates(ctx, server)
	items := make([]resourceItem, 0, len(res)+len(tmpls))
	for _, r := range res {
		items = append(items, resourceItem{res: r})
	}
	for i := range tmpls {
		items = append(items, resourceItem{tmpl: &tmpls[i]})
	}
	return resourcesMsg{server: server, items: items, tmplErr: terr}
}

// templateVars parses a URI template and lists its variables, in order,
// each once.
func templateVars(uriTemplate string) (*uritemplate.Template, []string, error) {
	t, err := uritemplate.New(uriTemplate)
	if err != nil {
		return nil, nil, fmt.Errorf("not an RFC 6570 URI template: %w", err)
	}
	var names []string
	for _, n := range t.Varnames() {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return t, names, nil
}

// expandTemplate fills the template with the values given; a variable
// left empty is undefined, so its part of the URI goes (RFC 6570 §2.3).
func expandTemplate(t *uritemplate.Template, values map[string]any) (string, error) {
	vals := uritemplate.Values{}
	for name, v := range values {
		if s, ok := v.(string); ok && s != "" {
			vals.Set(name, uritemplate.String(s))
		}
	}
	uri, err := t.Expand(vals)
	if err != nil {
		return "", fmt.Errorf("expanding the template: %w", err)
	}
	return uri, nil
}

// openTemplate opens the form of tp's variables, or reads it at once when
// it has none.
func (r *resourcesView) openTemplate(c *viewCtx, tp wire.ResourceTemplate) tea.Cmd {
	_, names, err := templateVars(tp.URITemplate)
	if err != nil {
		return notice(untrusted.Line(tp.Name) + ": " + err.Error())
	}
	if len(names) == 0 {
		return r.expandRead(c, tp, nil)
	}
	args := make([]wire.PromptArgument, 0, len(names))
	for _, n := range names {
		args = append(args, wire.PromptArgument{Name: n})
	}
	ti, err := schema.ParseToolInput(argsSchema(args)) // templates.go: a form of strings
	if err != nil {
		return notice(fmt.Sprintf("%s: cannot build its form: %v", untrusted.Line(tp.Name), err))
	}
	return r.openArgs(c, ti, tp)
}

// expandRead expands tp with the form's values and reads the URI.
func (r *resourcesView) expandRead(c *viewCtx, tp wire.ResourceTemplate, values map[string]any) tea.Cmd {
	t, _, err := templateVars(tp.URITemplate)
	if err != nil {
		return notice(untrusted.Line(tp.Name) + ": " + err.Error())
	}
	uri, err := expandTemplate(t, values)
	if err != nil {
		return notice(untrusted.Line(tp.Name) + ": " + err.Error())
	}
	return r.readURI(c, wire.Resource{URI: uri, Name: tp.Name, Title: tp.Title, MimeType: tp.MimeType})
}

// renderTemplateForm draws the open form of a template's variables.
func (r *resourcesView) renderTemplateForm(c *viewCtx) string {
	st, tp := c.st, r.args.of
	head := wrapLine(st.Title.Render("variables of "+untrusted.Line(tp.Name))+"  "+
		st.Pane.URL.Render(untrusted.Line(tp.URITemplate))+
		st.Muted.Render("  (empty: left out"+r.completeHint()+" · esc closes)"), c.width)
	if tp.Description != "" {
		head += "\n" + st.Muted.Render(untrusted.Line(tp.Description))
	}
	return head + "\n" + r.argsView(c)
}

// templateResLine is a template's row: marked, name (and title), the URI
// template, MIME type and description.
func templateResLine(c *viewCtx, tp *wire.ResourceTemplate, selected bool) string {
	st := c.st
	san := untrusted.Line
	line := st.List.Badge.Render("template") + " " + san(orDash(tp.Name))
	if tp.Title != "" {
		line += " — " + san(tp.Title)
	}
	line += "  " + st.Pane.URL.Render(san(tp.URITemplate))
	if tp.MimeType != "" {
		line += "  " + st.List.Badge.Render(san(tp.MimeType))
	}
	if tp.Description != "" {
		line += "  " + st.List.Desc.Render(san(tp.Description))
	}
	return listLine(c, line, selected)
}
