package ui

import (
	"charm.land/huh/v2"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/forms/schema"
)

// FormFactory builds the form of a form-mode prompt.
type FormFactory func(p *question.Question, theme huh.Theme) Form

var _ Form = (*forms.Form)(nil)

// newPromptForm is the default FormFactory: forms.New with the server's
// message above the fields (forms sanitizes it).
func newPromptForm(p *question.Question, theme huh.Theme) Form {
	return forms.New(p.Schema, forms.Options{Message: p.Message, Theme: theme})
}

// ToolFormFactory builds the argument form of a tool.
type ToolFormFactory func(ti *schema.ToolInput, theme huh.Theme) Form

// newToolForm is the default ToolFormFactory.
func newToolForm(ti *schema.ToolInput, theme huh.Theme) Form {
	return forms.NewToolArgs(ti, forms.Options{Theme: theme})
}
