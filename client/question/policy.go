package question

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/elicit-dev/elicit/forms/schema"
)

// Headless prompters: policies that answer without a person.

// Policy is a headless Prompter that answers every prompt the same way.
type Policy int

// The policies.
const (
	// AcceptDefaults accepts every form with the schema's defaults. A
	// required field without a default gets the simplest valid value (the
	// first option, the minimum, an example address) so that headless runs
	// can get through forms such as server-everything's; the outcome's
	// Reason names those fields. If no simple value fits (a pattern, say),
	// the form is declined with a reason. URL mode needs a person, so it is
	// cancelled.
	AcceptDefaults Policy = iota
	// DeclineAll declines every prompt.
	DeclineAll
	// CancelAll cancels every prompt.
	CancelAll
	// AcceptAll accepts forms as AcceptDefaults does and URL-mode
	// questions too: consent only, for a run where someone opens the URL
	// (printed by the caller) or the server needs no more than consent.
	AcceptAll
)

func (p Policy) String() string {
	switch p {
	case AcceptDefaults:
		return "accept-defaults"
	case DeclineAll:
		return "decline"
	case CancelAll:
		return "cancel"
	case AcceptAll:
		return "accept"
	default:
		return "unknown"
	}
}

// Prompt implements Prompter.
func (p Policy) Prompt(_ context.Context, pr *Question) Outcome {
	switch p {
	case AcceptDefaults:
		return fill(pr, nil)
	case AcceptAll:
		if pr.Mode == ModeURL { // an elicitation's: no other kind has a URL mode
			return Outcome{Kind: Accept, Reason: "policy: accept (consent only; nobody opened the URL here)"}
		}
		return fill(pr, nil)
	case DeclineAll:
		return Outcome{Kind: Decline, Reason: "policy: decline all"}
	default:
		return Outcome{Kind: Cancel, Reason: "policy: cancel all"}
	}
}

// fill answers a form with the schema defaults overlaid by answers;
// required fields left empty get a placeholder (see AcceptDefaults).
func fill(p *Question, answers map[string]any) Outcome {
	if why := p.Kind.spec().notForm; why != "" {
		return Outcome{Kind: Decline, Reason: why}
	}
	if p.Mode == ModeURL {
		return Outcome{Kind: Cancel, Reason: "URL mode needs a person"}
	}
	content, _ := Merge(p, answers)
	if p.Schema != nil {
		var filled []string
		for _, prop := range p.Schema.Properties {
			if _, ok := content[prop.Name]; ok || !prop.Required {
				continue
			}
			v := placeholder(prop)
			if schema.ValidateValue(prop, v) != nil {
				return Outcome{Kind: Decline, Reason: fmt.Sprintf("required field %s has no default and no simple valid value", prop.Name)}
			}
			content[prop.Name] = v
			filled = append(filled, prop.Name)
		}
		if len(filled) > 0 {
			return Outcome{Kind: Accept, Content: content,
				Reason: "required without default, placeholder sent: " + strings.Join(filled, ", ")}
		}
	}
	return Outcome{Kind: Accept, Content: content}
}

// Merge is the content a set of field values gives a form: the schema's
// defaults overlaid by answers, as answer files fill a form and as elicit
// answer --accept does. unknown are the answers' names that are no field
// of it (sorted), left out of content.
func Merge(q *Question, answers map[string]any) (content map[string]any, unknown []string) {
	content = map[string]any{}
	if q.Schema != nil {
		content = q.Schema.Defaults()
	}
	for k, v := range answers {
		if q.Schema != nil && q.Schema.Property(k) != nil {
			content[k] = v
		} else {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	return content, unknown
}

// placeholder is the simplest value a required field without a default
// can take; fill checks it against the field before using it.
func placeholder(p *schema.Property) any {
	switch p.Kind {
	case schema.Boolean:
		return false
	case schema.Enum:
		if len(p.Options) > 0 {
			return p.Options[0].Value
		}
	case schema.MultiEnum:
		n := 1
		if p.MinItems != nil && *p.MinItems > n {
			n = *p.MinItems
		}
		var out []string
		for i := 0; i < n && i < len(p.Options); i++ {
			out = append(out, p.Options[i].Value)
		}
		return out
	case schema.Integer:
		switch {
		case p.Minimum != nil && *p.Minimum > 0:
			return int64(math.Ceil(*p.Minimum))
		case p.Maximum != nil && *p.Maximum < 0:
			return int64(math.Floor(*p.Maximum))
		}
		return int64(0)
	case schema.Number:
		switch {
		case p.Minimum != nil && *p.Minimum > 0:
			return *p.Minimum
		case p.Maximum != nil && *p.Maximum < 0:
			return *p.Maximum
		}
		return float64(0)
	}
	switch p.Format {
	case "email":
		return "user@example.com"
	case "uri":
		return "https://example.com/"
	case "date":
		return "2000-01-01"
	case "date-time":
		return "2000-01-01T00:00:00Z"
	}
	n := 1
	if p.MinLength != nil && *p.MinLength > n {
		n = *p.MinLength
	}
	return strings.Repeat("x", n)
}

// Answers answers forms from a file of values, merged over the schema's
// defaults. See AnswerFile for the format.
type Answers struct {
	fields   map[string]any
	tools    map[string]map[string]any
	messages map[string]map[string]any
	flat     bool // the file was flat: its keys are field names alone

	mu   sync.Mutex
	used map[string]bool // entries (see entryName) that filled a field
}

// AnswerFile loads answers from a JSON file, in one of two shapes:
//
//	{"env": "prod", "replicas": 3}                  flat: field -> value
//	{"fields":   {"env": "prod"},                   structured: any of
//	 "tools":    {"deploy": {"replicas": 3}},        fields for every form,
//	 "messages": {"Priority": {"priority": "high"}}} per owning tool, per
//	                                                 message substring
//
// A file whose only top-level members are "fields", "tools" and "messages",
// each an object, is structured; anything else is flat. Values are merged
// in that order, later winning: schema defaults, fields, the tool's
// entry, then every message entry whose key occurs in the prompt's
// message (in key order). Fields the form does not ask for are ignored; a
// required field still empty gets a placeholder, as with AcceptDefaults.
// URL mode is cancelled. A file that cannot be read or is not such JSON
// is an error here, not at the first prompt.
func AnswerFile(path string) (*Answers, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("answer file: %w", err)
	}
	a, err := ParseAnswers(b)
	if err != nil {
		return nil, fmt.Errorf("answer file %s: %w", path, err)
	}
	return a, nil
}

// ParseAnswers parses the contents of an answer file (see AnswerFile).
func ParseAnswers(data []byte) (*Answers, error) {
	var top map[string]json.RawMessage
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return nil, fmt.Errorf("must be a JSON object")
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	a := &Answers{}
	if !structured(top) {
		if err := json.Unmarshal(data, &a.fields); err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", err)
		}
		a.flat = true
		return a, nil
	}
	if raw, ok := top["fields"]; ok {
		if err := json.Unmarshal(raw, &a.fields); err != nil || a.fields == nil {
			return nil, fmt.Errorf(`"fields" must be an object of field values`)
		}
	}
	for _, k := range []string{"tools", "messages"} {
		raw, ok := top[k]
		if !ok {
			continue
		}
		var m map[string]map[string]any
		if err := json.Unmarshal(raw, &m); err != nil || m == nil {
			return nil, fmt.Errorf("%q must be an object whose members are objects of field values", k)
		}
		for name, v := range m {
			if v == nil {
				return nil, fmt.Errorf("%q: %q must be an object of field values", k, name)
			}
		}
		if k == "tools" {
			a.tools = m
		} else {
			a.messages = m
		}
	}
	return a, nil
}

// structured reports whether top uses the structured shape.
func structured(top map[string]json.RawMessage) bool {
	if len(top) == 0 {
		return false
	}
	for k, v := range top {
		switch k {
		case "fields", "tools", "messages":
			if t := bytes.TrimSpace(v); len(t) == 0 || t[0] != '{' {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// Prompt implements Prompter.
func (a *Answers) Prompt(_ context.Context, p *Question) Outcome {
	merged := map[string]any{}
	var applied []string // entries whose field the form asks for
	take := func(group, sub string, m map[string]any) {
		for k, v := range m {
			merged[k] = v
			if p.Schema != nil && p.Schema.Property(k) != nil {
				applied = append(applied, a.entryName(group, sub, k))
			}
		}
	}
	take("fields", "", a.fields)
	if p.Origin.Kind == OriginToolCall {
		take("tools", p.Origin.Name, a.tools[p.Origin.Name])
	}
	for _, k := range slices.Sorted(maps.Keys(a.messages)) {
		if strings.Contains(p.Message, k) {
			take("messages", k, a.messages[k])
		}
	}
	a.mu.Lock()
	if a.used == nil {
		a.used = map[string]bool{}
	}
	for _, e := range applied {
		a.used[e] = true
	}
	a.mu.Unlock()
	return fill(p, merged)
}

// entryName names one entry of the file as a person finds it there:
// "priority" (flat), "fields.priority", "tools.deploy.replicas",
// `messages["Priority"].priority`.
func (a *Answers) entryName(group, sub, field string) string {
	switch {
	case a.flat:
		return field
	case group == "fields":
		return "fields." + field
	case group == "tools":
		return "tools." + sub + "." + field
	default:
		return fmt.Sprintf("messages[%q].%s", sub, field)
	}
}

// Unused lists, sorted, the file's entries that filled no field of any
// question answered so far: a misspelt key ("priorty") would otherwise
// leave the default in place without a word.
func (a *Answers) Unused() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	note := func(group, sub string, m map[string]any) {
		for k := range m {
			if e := a.entryName(group, sub, k); !a.used[e] {
				out = append(out, e)
			}
		}
	}
	note("fields", "", a.fields)
	for name, m := range a.tools {
		note("tools", name, m)
	}
	for sub, m := range a.messages {
		note("messages", sub, m)
	}
	slices.Sort(out)
	return out
}

// Immediate marks a Prompter that answers without waiting for anything
// (no person, no I/O), so the engine may call it on the prompt's own
// goroutine; see settle.
type Immediate interface{ immediate() }

// immediateFor is a Prompter that is Immediate for some questions only
// (Route).
type immediateFor interface{ immediateFor(q *Question) bool }

// isImmediate reports whether p answers q without waiting.
func isImmediate(p Prompter, q *Question) bool {
	if r, ok := p.(immediateFor); ok {
		return r.immediateFor(q)
	}
	_, ok := p.(Immediate)
	return ok
}

func (Policy) immediate()   {}
func (*Answers) immediate() {}

var (
	_ Prompter  = AcceptDefaults
	_ Prompter  = (*Answers)(nil)
	_ Immediate = AcceptDefaults
	_ Immediate = (*Answers)(nil)
)
