package ui

import (
	"charm.land/huh/v2"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms"
)

// A sampling question's pane is a forms.NewSampling form: the request
// read-only above the reply's fields. ctrl+x rejects it and Esc dismisses
// it, as any pane (the engine sends the spec's -1 for both and journals
// them apart). Its images and audio are type/size lines naming saveKey,
// which writes them to files (sampling_save.go).

// samplingForm builds the pane's form for a sampling question q.
func samplingForm(q *question.Question, saveKey string, theme huh.Theme) *forms.Form {
	smp := q.Sampling
	p := smp.Params
	req := &forms.SamplingRequest{
		SystemPrompt: p.SystemPrompt, IncludeContext: p.IncludeContext,
		MaxTokens: p.MaxTokens, Temperature: p.Temperature, StopSequences: p.StopSequences,
		ToolChoice: smp.ToolChoice(),
	}
	for _, m := range p.Messages {
		req.Messages = append(req.Messages, forms.SamplingMessage{Role: m.Role, Blocks: sampleBlocks(m.Content, saveKey)})
	}
	model := "person"
	if mp := p.ModelPreferences; mp != nil {
		for _, h := range mp.Hints {
			req.ModelHints = append(req.ModelHints, h.Name)
		}
		req.CostPriority, req.SpeedPriority, req.IntelligencePriority = mp.CostPriority, mp.SpeedPriority, mp.IntelligencePriority
		if len(mp.Hints) > 0 && mp.Hints[0].Name != "" {
			model = mp.Hints[0].Name
		}
	}
	for _, t := range smp.Tools {
		req.Tools = append(req.Tools, forms.SamplingTool{Name: t.Name, Description: t.Description, Input: t.Input})
	}
	return forms.NewSampling(req, model, forms.Options{Theme: theme})
}

func sampleBlocks(bs []wire.SamplingBlock, saveKey string) []forms.SamplingBlock {
	out := make([]forms.SamplingBlock, 0, len(bs))
	for _, b := range bs {
		fb := forms.SamplingBlock{Type: b.Type, Text: b.Text, MimeType: b.MimeType, ID: b.ID, Name: b.Name,
			Input: string(b.Input), ToolUseID: b.ToolUseID, IsError: b.IsError, Content: sampleBlocks(b.Content, saveKey)}
		switch b.Type {
		case wire.BlockImage, wire.BlockAudio:
			fb.Size, fb.SaveKey = b.Size(), saveKey
		case "resource_link":
			fb.Name = b.URI
		case "resource":
			if b.Resource != nil {
				fb.Name = b.Resource.URI
			}
		}
		out = append(out, fb)
	}
	return out
}

// acceptSample is the Accept a submitted sampling form sends: the reply
// the person wrote.
func acceptSample(_ *question.Question, content map[string]any) question.Outcome {
	text, model, stop, tool, input := forms.SamplingAnswer(content)
	r := &question.SampleReply{Text: text, Model: model, StopReason: stop}
	if tool != "" {
		r.ToolUses = []question.ToolUse{{Name: tool, Input: input}}
	}
	return question.Outcome{Kind: question.Accept, Sample: r}
}
