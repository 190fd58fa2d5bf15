package forms

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"charm.land/huh/v2"

	"github.com/elicit-dev/elicit/forms/schema"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// A sampling form: a server's sampling/createMessage shown read-only above
// the fields a person answers it with (the reply's text, the model named,
// the stop reason, and optionally a tool use of one of the offered tools,
// whose input is filled in with the tool-argument fields of NewToolArgs).
// It is a Form like any other: the parent drives it the same way, and
// Content returns the answer, which SamplingAnswer reads.

// SamplingRequest is what a sampling form shows and offers. Every string
// is as the server sent it; the form sanitizes what it shows.
type SamplingRequest struct {
	Messages       []SamplingMessage
	SystemPrompt   string
	IncludeContext string
	MaxTokens      *float64
	Temperature    *float64
	StopSequences  []string
	ModelHints     []string
	// The model priorities, 0..1; nil when not given.
	CostPriority, SpeedPriority, IntelligencePriority *float64
	Tools                                             []SamplingTool
	// ToolChoice is "auto", "required" or "none".
	ToolChoice string
	// StopReasons are the stop reasons to offer, the first preselected
	// (default: endTurn, stopSequence, maxTokens, and toolUse when tools
	// are offered).
	StopReasons []string
}

// SamplingMessage is one message of the conversation.
type SamplingMessage struct {
	Role   string
	Blocks []SamplingBlock
}

// SamplingBlock is one content block: text, image and audio (shown as a
// type/size line; SaveKey, if set, is the key the parent offers to save
// it), tool_use, tool_result (with its Content), resource_link, resource.
type SamplingBlock struct {
	Type     string
	Text     string
	MimeType string
	Size     int
	SaveKey  string
	// ID, Name and Input (JSON text): tool_use; ToolUseID and IsError:
	// tool_result; Name: a resource's URI.
	ID, Name, Input string
	ToolUseID       string
	IsError         bool
	Content         []SamplingBlock
}

// SamplingTool is one offered tool; Input nil takes any JSON object.
type SamplingTool struct {
	Name, Description string
	Input             *schema.ToolInput
}

// The Content members of a sampling form's answer.
const (
	SampleText       = "text"
	SampleModel      = "model"
	SampleStopReason = "stopReason"
	SampleTool       = "tool"
	SampleToolInput  = "input"
)

// requestLines caps how many lines of the request the form shows, and
// blockLines how many of one text block, so the fields stay in view; the
// traffic view has the request whole.
const (
	requestLines = 18
	blockLines   = 4
)

// NewSampling builds the form for a sampling request. model pre-fills the
// model's name (the first hint, say).
func NewSampling(req *SamplingRequest, model string, opts Options) *Form {
	opts.Message = SamplingSummary(req)
	sf := &samplingForm{req: req}
	sf.text = &replyField{p: &schema.Property{Name: SampleText, Title: "Reply", Description: "the assistant's message (may stay empty when a tool is used)"}}
	sf.model = newTextField(&schema.Property{Name: SampleModel, Title: "Model", Kind: schema.String, Required: true, Default: model,
		Description: "the model the reply is said to come from"}, false)
	stops := req.StopReasons
	if len(stops) == 0 {
		stops = []string{"endTurn", "stopSequence", "maxTokens"}
		if len(req.Tools) > 0 {
			stops = append(stops, "toolUse")
		}
	}
	stopOpts := make([]schema.Option, 0, len(stops))
	for _, s := range stops {
		stopOpts = append(stopOpts, schema.Option{Value: s})
	}
	sf.stop = newEnumField(&schema.Property{Name: SampleStopReason, Title: "Stop reason", Kind: schema.Enum, Required: true,
		Options: stopOpts, Default: stops[0], Description: "with a tool use, toolUse"}, false)
	fields := []field{sf.text, sf.model, sf.stop}
	if len(req.Tools) > 0 && req.ToolChoice != "none" {
		toolOpts := make([]schema.Option, 0, len(req.Tools))
		for _, t := range req.Tools {
			toolOpts = append(toolOpts, schema.Option{Value: t.Name})
		}
		sf.tool = newEnumField(&schema.Property{Name: SampleTool, Title: "Use a tool", Kind: schema.Enum,
			Required: req.ToolChoice == "required", Options: toolOpts,
			Description: "toolChoice " + untrusted.Line(req.ToolChoice) + "; its input comes next"}, false)
		fields = append(fields, sf.tool)
		for _, t := range req.Tools {
			sf.inputs = append(sf.inputs, newToolInput(t))
		}
	}
	f := newForm(fields, func(map[string]any) error { return nil }, opts)
	f.groups, f.content = sf.groups, sf.content
	f.form = f.build()
	return f
}

// samplingForm is what NewSampling adds to a Form.
type samplingForm struct {
	req    *SamplingRequest
	text   *replyField
	model  *textField
	stop   *enumField
	tool   *enumField // nil without tools
	inputs []*toolInput
}

// toolInput is one offered tool's input: its argument fields, or a JSON
// text when its schema could not be read.
type toolInput struct {
	tool   SamplingTool
	fields []field
}

func newToolInput(t SamplingTool) *toolInput {
	ti := &toolInput{tool: t}
	if t.Input == nil {
		ti.fields = []field{newJSONField(&schema.Property{Name: SampleToolInput, Title: "Input (JSON object)", Kind: schema.JSON, Required: true}, true)}
		return ti
	}
	for _, p := range t.Input.Fields {
		if p.Required {
			ti.fields = append(ti.fields, newField(p, true))
		}
	}
	for _, p := range t.Input.Fields {
		if !p.Required {
			ti.fields = append(ti.fields, newField(p, true))
		}
	}
	return ti
}

// picked is the tool chosen, "" for none.
func (sf *samplingForm) picked() string {
	if sf.tool == nil {
		return ""
	}
	v, ok, _ := sf.tool.value()
	if !ok {
		return ""
	}
	s, _ := v.(string)
	return s
}

// groups lays the form out: the request and the reply's fields, then one
// page per tool with its input, shown only when that tool is picked.
func (sf *samplingForm) groups(f *Form) []*huh.Group {
	main := make([]huh.Field, 0, 4)
	for _, fl := range f.fields {
		main = append(main, fl.build(f.theme))
	}
	gs := []*huh.Group{titled(huh.NewGroup(main...), f)}
	for _, in := range sf.inputs {
		hf := make([]huh.Field, 0, len(in.fields)+1)
		if len(in.fields) == 0 {
			hf = append(hf, themed(huh.NewNote(), f.theme).Title("The tool takes no input.").Next(true).NextLabel("Submit"))
		}
		for _, fl := range in.fields {
			hf = append(hf, fl.build(f.theme))
		}
		name := in.tool.Name
		g := huh.NewGroup(hf...).Title("Input for " + untrusted.Line(name) + "\n").
			WithHideFunc(func() bool { return sf.picked() != name })
		if d := strings.TrimSpace(untrusted.Text(in.tool.Description)); d != "" {
			g.Description(d + "\n")
		}
		gs = append(gs, g)
	}
	return gs
}

// content is the answer: text, model, stop reason, and the tool use.
func (sf *samplingForm) content(*Form) (map[string]any, error) {
	out := map[string]any{}
	text := sf.text.text
	model, _, err := sf.model.value()
	if err != nil {
		return nil, err
	}
	stop, _, err := sf.stop.value()
	if err != nil {
		return nil, err
	}
	out[SampleText], out[SampleModel], out[SampleStopReason] = text, model, stop
	if m, _ := model.(string); strings.TrimSpace(m) == "" {
		return nil, errors.New("name the model")
	}
	name := sf.picked()
	if sf.tool != nil {
		if _, _, err := sf.tool.value(); err != nil {
			return nil, err
		}
	}
	if name == "" {
		if text == "" {
			return nil, errors.New("write a reply, or use a tool")
		}
		if stop == "toolUse" {
			return nil, errors.New("stop reason toolUse needs a tool use")
		}
		return out, nil
	}
	for _, in := range sf.inputs {
		if in.tool.Name != name {
			continue
		}
		args, err := in.args()
		if err != nil {
			return nil, fmt.Errorf("input for %s: %w", untrusted.Line(name), err)
		}
		out[SampleTool], out[SampleToolInput] = name, args
	}
	return out, nil
}

// args reads the tool's input and checks it against its schema.
func (in *toolInput) args() (map[string]any, error) {
	if in.tool.Input == nil {
		v, _, err := in.fields[0].value()
		if err != nil {
			return nil, err
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, errors.New("the input must be a JSON object")
		}
		return obj, nil
	}
	args := map[string]any{}
	for _, fl := range in.fields {
		v, ok, err := fl.value()
		if err != nil {
			return nil, err
		}
		if ok {
			args[fl.property().Name] = v
		}
	}
	if err := in.tool.Input.Validate(args); err != nil {
		return nil, err
	}
	return args, nil
}

// SamplingAnswer reads a sampling form's Content: the reply's text, the
// model, the stop reason, and the tool use (tool "" for none).
func SamplingAnswer(content map[string]any) (text, model, stopReason, tool string, input map[string]any) {
	text, _ = content[SampleText].(string)
	model, _ = content[SampleModel].(string)
	stopReason, _ = content[SampleStopReason].(string)
	tool, _ = content[SampleTool].(string)
	input, _ = content[SampleToolInput].(map[string]any)
	return text, model, stopReason, tool, input
}

// replyField is the reply's text: a multi-line Text, sent as typed.
type replyField struct {
	p    *schema.Property
	text string
}

func (f *replyField) property() *schema.Property { return f.p }

func (f *replyField) build(theme huh.Theme) huh.Field {
	return themed(huh.NewText(), theme).Key(f.p.Name).Title(f.p.Title).Description(f.p.Description).Lines(4).Value(&f.text)
}

func (f *replyField) value() (any, bool, error) { return f.text, f.text != "", nil }

// SamplingSummary renders the request for a person, sanitized: the
// system prompt, every message and block (text cut to a few lines; image
// and audio as a type/size line with the key that saves them), the model
// preferences, the limits, and the tools offered.
func SamplingSummary(req *SamplingRequest) string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	add("The server asks for a model's reply (sampling). You write it.")
	if req.SystemPrompt != "" {
		add("system: %s", cut(req.SystemPrompt, blockLines, "        "))
	}
	for _, m := range req.Messages {
		for i, b := range m.Blocks {
			who := "        "
			if i == 0 {
				who = fmt.Sprintf("%-8s", untrusted.Line(m.Role)+":")
			}
			add("%s%s", who, blockLine(b, "        "))
		}
	}
	var prefs []string
	if len(req.ModelHints) > 0 {
		hints := make([]string, len(req.ModelHints))
		for i, h := range req.ModelHints {
			hints[i] = untrusted.Line(h)
		}
		prefs = append(prefs, "hints "+strings.Join(hints, ", "))
	}
	for _, p := range []struct {
		name string
		v    *float64
	}{{"cost", req.CostPriority}, {"speed", req.SpeedPriority}, {"intelligence", req.IntelligencePriority}} {
		if p.v != nil {
			prefs = append(prefs, p.name+" "+num(*p.v))
		}
	}
	if len(prefs) > 0 {
		add("model:  %s", strings.Join(prefs, " · "))
	}
	var limits []string
	if req.MaxTokens != nil {
		limits = append(limits, "maxTokens "+num(*req.MaxTokens))
	}
	if req.Temperature != nil {
		limits = append(limits, "temperature "+num(*req.Temperature))
	}
	if len(req.StopSequences) > 0 {
		seqs := make([]string, len(req.StopSequences))
		for i, s := range req.StopSequences {
			seqs[i] = strconv.Quote(untrusted.Line(s))
		}
		limits = append(limits, "stop at "+strings.Join(seqs, ", "))
	}
	if req.IncludeContext != "" && req.IncludeContext != "none" {
		limits = append(limits, "includeContext "+untrusted.Line(req.IncludeContext)+" (ignored: no context is shared)")
	}
	if len(limits) > 0 {
		add("limits: %s", strings.Join(limits, " · "))
	}
	if len(req.Tools) > 0 {
		names := make([]string, len(req.Tools))
		for i, t := range req.Tools {
			names[i] = untrusted.Line(t.Name)
		}
		add("tools:  %s (toolChoice %s)", strings.Join(names, ", "), untrusted.Line(req.ToolChoice))
	}
	text := strings.Join(lines, "\n")
	if all := strings.Split(text, "\n"); len(all) > requestLines {
		text = strings.Join(all[:requestLines-1], "\n") + fmt.Sprintf("\n… %d more lines (the traffic view has the whole request)", len(all)-requestLines+1)
	}
	return text
}

// blockLine renders one block; indent starts its continuation lines.
func blockLine(b SamplingBlock, indent string) string {
	switch b.Type {
	case "text":
		return cut(b.Text, blockLines, indent)
	case "image", "audio", "blob":
		s := fmt.Sprintf("[%s %s, %s]", b.Type, untrusted.Line(b.MimeType), sizeText(b.Size))
		if b.SaveKey != "" {
			s += " " + untrusted.Line(b.SaveKey) + " saves it"
		}
		return s
	case "tool_use":
		return fmt.Sprintf("[tool_use %s %s] %s", untrusted.Line(b.Name), untrusted.Line(b.ID), cut(b.Input, 1, indent))
	case "tool_result":
		head := "[tool_result for " + untrusted.Line(b.ToolUseID)
		if b.IsError {
			head += ", an error"
		}
		head += "]"
		for _, c := range b.Content {
			head += "\n" + indent + "  " + blockLine(c, indent+"  ")
		}
		return head
	case "resource_link", "resource":
		return fmt.Sprintf("[%s %s]", b.Type, untrusted.Line(b.Name))
	}
	return "[" + untrusted.Line(b.Type) + "]"
}

// cut sanitizes s and keeps its first n lines, indenting the later ones.
func cut(s string, n int, indent string) string {
	lines := strings.Split(strings.TrimRight(untrusted.Text(s), "\n"), "\n")
	more := ""
	if len(lines) > n {
		more = fmt.Sprintf(" … (%d more lines)", len(lines)-n)
		lines = lines[:n]
	}
	return strings.Join(lines, "\n"+indent) + more
}

func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
