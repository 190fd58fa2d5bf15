package replay

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// What a replay does not compare, and why: each differs between two runs
// of the same server doing the same thing. A JSON-RPC id is never
// compared at all (a replay compares results and questions, not frames).
var volatileMembers = map[string]string{
	"taskId":                               "a task's id is made by the server for each run",
	"sessionId":                            "a session id is made for each connection",
	"requestId":                            "a request id is the client's, per connection",
	"elicitationId":                        "an elicitation id is made by the server for each question",
	"requestState":                         "request state is sealed by the server, often with a key of the run",
	"progressToken":                        "a progress token is the client's, per request",
	"createdAt":                            "a timestamp",
	"lastUpdatedAt":                        "a timestamp",
	"timestamp":                            "a timestamp",
	"io.modelcontextprotocol/related-task": "names a task of the run",
}

// volatileQuery are query parameter names whose values a URL in a
// question or a result carries per run (a consent page's session).
// Compiled on a replay's first use, not at every start of the binary.
var volatileQuery = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)([?&](?:[a-z0-9_.-]*(?:session|state|token|nonce|id|code|sid)[a-z0-9_.-]*)=)[^&#\s"']+`)
})

// timestampRE is an RFC 3339 date-time anywhere in a string.
var timestampRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})?`)
})

// volatileRules says what is ignored, for the report.
func volatileRules() []string {
	names := slices.Sorted(maps.Keys(volatileMembers))
	out := []string{"JSON-RPC ids: the client numbers its requests per connection; results and questions are compared, not frames"}
	for _, n := range names {
		out = append(out, fmt.Sprintf("members named %q, and their values where they recur in text: %s", n, volatileMembers[n]))
	}
	return append(out,
		"RFC 3339 timestamps inside strings: the time of the run",
		"URL query values of parameters named like session, state, token, nonce, id, code: made per run (a consent page's session)",
		"error messages elicit wrote itself (no JSON-RPC code): they name the run's ids and timings; only that the call failed is compared")
}

// normalize decodes raw and masks its volatile parts: members by name,
// their values wherever they recur in a string, timestamps and per-run
// URL query values inside strings.
// extra are more volatile values of the run, known from elsewhere (the
// ids of the call's questions).
func normalize(raw json.RawMessage, extra ...string) any {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	var seen []string
	for _, x := range extra {
		collectStrings(x, &seen)
	}
	v = maskMembers(v, &seen)
	slices.SortFunc(seen, func(a, b string) int { return len(b) - len(a) }) // a value containing another goes whole
	return maskStrings(v, seen)
}

func maskMembers(v any, seen *[]string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, m := range x {
			if _, ok := volatileMembers[k]; ok {
				collectStrings(m, seen)
				x[k] = "<" + k + ">"
				continue
			}
			x[k] = maskMembers(m, seen)
		}
	case []any:
		for i := range x {
			x[i] = maskMembers(x[i], seen)
		}
	}
	return v
}

func collectStrings(v any, seen *[]string) {
	switch x := v.(type) {
	case string:
		if len(x) >= 4 { // short values would blank out ordinary words
			*seen = append(*seen, x)
		}
	case float64:
		// a numeric id recurring in text is too likely a number of something else
	case map[string]any:
		for _, m := range x {
			collectStrings(m, seen)
		}
	case []any:
		for _, m := range x {
			collectStrings(m, seen)
		}
	}
}

func maskStrings(v any, seen []string) any {
	switch x := v.(type) {
	case string:
		return maskVolatileText(x, seen)
	case map[string]any:
		for k, m := range x {
			x[k] = maskStrings(m, seen)
		}
	case []any:
		for i := range x {
			x[i] = maskStrings(x[i], seen)
		}
	}
	return v
}

// maskVolatileText masks timestamps, per-run URL query values and the
// given volatile values in s.
func maskVolatileText(s string, seen []string) string {
	for _, v := range seen {
		s = strings.ReplaceAll(s, v, "<volatile>")
	}
	s = timestampRE().ReplaceAllString(s, "<time>")
	return volatileQuery().ReplaceAllString(s, "${1}<volatile>")
}

// maxDiffs bounds the differences listed for one value.
const maxDiffs = 20

// diffJSON lists where a and b (decoded JSON) differ, by JSON pointer.
func diffJSON(path string, a, b any, out *[]Difference, what string) {
	if len(*out) >= maxDiffs {
		return
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := slices.Sorted(maps.Keys(x))
		for k := range y {
			if _, ok := x[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := path + "/" + pointerEscape(k)
			av, aok := x[k]
			bv, bok := y[k]
			switch {
			case !aok:
				*out = append(*out, Difference{What: what, Path: p, Replayed: bv, Text: "added"})
			case !bok:
				*out = append(*out, Difference{What: what, Path: p, Recorded: av, Text: "gone"})
			default:
				diffJSON(p, av, bv, out, what)
			}
		}
		return
	case []any:
		y, ok := b.([]any)
		if !ok {
			break
		}
		if key := itemKey(x, y); key != "" {
			diffKeyed(path, key, x, y, out, what)
			return
		}
		for i := range max(len(x), len(y)) {
			p := path + "/" + strconv.Itoa(i)
			switch {
			case i >= len(x):
				*out = append(*out, Difference{What: what, Path: p, Replayed: y[i], Text: "added"})
			case i >= len(y):
				*out = append(*out, Difference{What: what, Path: p, Recorded: x[i], Text: "gone"})
			default:
				diffJSON(p, x[i], y[i], out, what)
			}
		}
		return
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		*out = append(*out, Difference{What: what, Path: path, Recorded: a, Replayed: b, Text: "changed"})
	}
}

// itemKey is the member that names each item of both lists, when every
// item is an object with a unique string "name" (tools, prompts) or
// "uri" (resources): such lists are compared item by item by that name,
// so one tool added is one difference, not a shift of all that follow.
func itemKey(a, b []any) string {
	for _, key := range []string{"name", "uri"} {
		if uniqueBy(a, key) && uniqueBy(b, key) {
			return key
		}
	}
	return ""
}

func uniqueBy(list []any, key string) bool {
	if len(list) == 0 {
		return false
	}
	seen := map[string]bool{}
	for _, it := range list {
		m, ok := it.(map[string]any)
		if !ok {
			return false
		}
		v, ok := m[key].(string)
		if !ok || seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

// diffKeyed compares two lists item by item by key; a path names an
// item as [key=value].
func diffKeyed(path, key string, a, b []any, out *[]Difference, what string) {
	index := func(list []any) (map[string]any, []string) {
		m := map[string]any{}
		var order []string
		for _, it := range list {
			v := it.(map[string]any)[key].(string)
			m[v] = it
			order = append(order, v)
		}
		return m, order
	}
	am, aorder := index(a)
	bm, border := index(b)
	names := aorder
	for _, n := range border {
		if _, ok := am[n]; !ok {
			names = append(names, n)
		}
	}
	for _, n := range names {
		p := fmt.Sprintf("%s[%s=%s]", path, key, n)
		av, aok := am[n]
		bv, bok := bm[n]
		switch {
		case !aok:
			*out = append(*out, Difference{What: what, Path: p, Text: "added"})
		case !bok:
			*out = append(*out, Difference{What: what, Path: p, Text: "gone"})
		default:
			diffJSON(p, av, bv, out, what)
		}
	}
}

func pointerEscape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// compareResult compares a call's recorded end with the replay's.
// recVol and nowVol are the volatile values of the call's questions in
// the recording and now.
func compareResult(rec *record.Result, result any, err error, recVol, nowVol []string) []Difference {
	if rec == nil {
		return []Difference{{What: "result", Text: errNoResult.Error()}}
	}
	if err != nil {
		now := record.ErrorOf(err)
		switch {
		case rec.Error == nil:
			return []Difference{{What: "error", Text: "the call failed, and did not in the recording", Replayed: now.Message}}
		case rec.Error.Code != now.Code:
			return []Difference{{What: "error", Text: "the error's code changed", Recorded: rec.Error.Code, Replayed: now.Code}}
		case now.Code != 0 && maskVolatileText(rec.Error.Message, recVol) != maskVolatileText(now.Message, nowVol):
			return []Difference{{What: "error", Text: "the error's message changed", Recorded: rec.Error.Message, Replayed: now.Message}}
		}
		return nil
	}
	if rec.Error != nil {
		return []Difference{{What: "error", Text: "the call failed in the recording, and did not now", Recorded: rec.Error.Message}}
	}
	raw, eerr := encodeResult(result)
	if eerr != nil {
		return []Difference{{What: "result", Text: eerr.Error()}}
	}
	var out []Difference
	diffJSON("", normalize(rec.Result, recVol...), normalize(raw, nowVol...), &out, "result")
	return out
}

// compareQuestions compares the recorded questions of a call with those
// of the replay.
func compareQuestions(expected []record.Answer, seen []*seenQuestion) []Difference {
	var out []Difference
	matched := map[int64]bool{}
	for _, s := range seen {
		if s.match == nil {
			out = append(out, Difference{What: "question extra", Text: describeQuestion(s.q) + " was asked; the recording has no such question (it was cancelled)"})
			continue
		}
		a := s.match.a
		matched[a.Seq] = true
		if s.changed {
			var d []Difference
			diffJSON("", normalize(a.Question.Schema), normalize(s.q.Schema), &d, "question changed")
			if a.Question.Mode != s.q.Mode {
				d = append(d, Difference{What: "question changed", Path: "mode", Recorded: a.Question.Mode, Replayed: s.q.Mode, Text: "changed"})
			}
			if maskVolatileText(a.Question.URL, nil) != maskVolatileText(s.q.URL, nil) {
				d = append(d, Difference{What: "question changed", Path: "url", Recorded: a.Question.URL, Replayed: s.q.URL, Text: "changed"})
			}
			for i := range d {
				d[i].Question = a.Question.Message
				if d[i].Path != "mode" && d[i].Path != "url" {
					d[i].Path = "schema" + d[i].Path
				}
			}
			var pd []Difference
			diffJSON("", normalize(permissionShape(a.Question.Permission)), normalize(permissionShape(s.q.Permission)), &pd, "question changed")
			for i := range pd {
				pd[i].Question, pd[i].Path = a.Question.Message, "permission"+pd[i].Path
			}
			d = append(d, pd...)
			out = append(out, d...)
		}
		switch {
		case !s.resolved:
			out = append(out, Difference{What: "outcome", Question: a.Question.Message, Text: "the question did not end within --wait", Recorded: a.Outcome})
		case s.outcome != a.Outcome || s.sent != a.Sent:
			out = append(out, Difference{What: "outcome", Question: a.Question.Message, Text: cmpOr(s.refused, "ended otherwise"),
				Recorded: outcomeText(a.Outcome, a.Sent), Replayed: outcomeText(s.outcome, s.sent)})
		case a.Outcome == "accept":
			var d []Difference
			diffJSON("", jsonValue(a.Content), jsonValue(s.content), &d, "outcome")
			for i := range d {
				d[i].Question, d[i].Path = a.Question.Message, "content"+d[i].Path
			}
			out = append(out, d...)
		}
	}
	for _, a := range expected {
		if !matched[a.Seq] {
			out = append(out, Difference{What: "question missing", Question: questionMessage(a.Question),
				Text: describeQuestion(a.Question) + " did not come", Recorded: outcomeText(a.Outcome, a.Sent)})
		}
	}
	return out
}

func jsonValue(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func outcomeText(outcome, sent string) string {
	if sent == "" || sent == outcome {
		return outcome
	}
	return outcome + " (sent " + sent + ")"
}

func questionMessage(q *record.Question) string {
	if q == nil {
		return ""
	}
	return q.Message
}

func describeQuestion(q *record.Question) string {
	if q == nil {
		return "a question"
	}
	kind := q.Kind
	if q.Mode == "url" {
		kind = "URL " + kind
	}
	return fmt.Sprintf("%s %q", kind, q.Message)
}

// The report.

type Report struct {
	File    string         `json:"file"`
	Servers []replayServer `json:"servers"`
	Calls   []callReport   `json:"calls"`
	// Unattached are differences of questions asked outside any call.
	Unattached  []Difference `json:"unattached,omitempty"`
	Differences int          `json:"differences"`
	Match       bool         `json:"match"`
	// Truncated: the recording has no end line (the process was killed).
	Truncated bool     `json:"truncated,omitempty"`
	Ignored   []string `json:"ignored"`
	// Findings are the server's spec violations seen in the replay
	// (client/findings), as a live session reports them; they do not
	// make it differ (the recording may have had them too).
	Findings []findings.Finding `json:"findings"`
}

type replayServer struct {
	Name     string `json:"name"`
	Against  string `json:"against"`
	Protocol string `json:"protocol,omitempty"`
	Error    string `json:"error,omitempty"`
}

type callReport struct {
	Call   int64  `json:"call"`
	Server string `json:"server"`
	Method string `json:"method"`
	Name   string `json:"name,omitempty"`
	// Status is same, differs or skipped (Note says why).
	Status      string       `json:"status"`
	Note        string       `json:"note,omitempty"`
	Differences []Difference `json:"differences,omitempty"`
}

type Difference struct {
	// What is result, error, question missing, question extra, question
	// changed, outcome or server.
	What     string `json:"what"`
	Question string `json:"question,omitempty"`
	Path     string `json:"path,omitempty"`
	Text     string `json:"text"`
	Recorded any    `json:"recorded,omitempty"`
	Replayed any    `json:"replayed,omitempty"`
}

func (c *callReport) add(d Difference) { c.Differences = append(c.Differences, d) }

func (c callReport) done() callReport {
	c.Status = "same"
	if len(c.Differences) > 0 {
		c.Status = "differs"
	}
	return c
}

func (r *Report) finish() {
	r.Differences = len(r.Unattached)
	for _, c := range r.Calls {
		r.Differences += len(c.Differences)
	}
	for _, s := range r.Servers {
		if s.Error != "" {
			r.Differences++
		}
	}
	r.Match = r.Differences == 0
	if r.Calls == nil {
		r.Calls = []callReport{}
	}
	if r.Findings == nil {
		r.Findings = []findings.Finding{} // a script reads [] as "none"
	}
}

// print writes the report for a person: one line a call, its
// differences under it, then the total and what was not compared.
func (r *Report) print(w io.Writer) {
	r.printCalls(w)
	fmt.Fprintf(w, "not compared, as they differ between runs by design: JSON-RPC ids; members %s (and their values where they recur in text); timestamps in text; per-run URL query values (session, state, token…); the text of elicit's own errors. Why each: --json, docs/record.md\n",
		strings.Join(slices.Sorted(maps.Keys(volatileMembers)), ", "))
}

// printCalls writes the report but for what was not compared.
func (r *Report) printCalls(w io.Writer) {
	fmt.Fprintf(w, "replay %s\n", untrusted.Line(r.File))
	for _, s := range r.Servers {
		line := fmt.Sprintf("  %s against %s", s.Name, s.Against)
		if s.Protocol != "" && !strings.Contains(s.Against, s.Protocol) {
			line += " (" + s.Protocol + ")"
		}
		if s.Error != "" {
			line += ": " + s.Error
		}
		fmt.Fprintln(w, untrusted.Line(line))
	}
	if r.Truncated {
		fmt.Fprintln(w, "  (the recording has no end line: it was cut short)")
	}
	same, differs, skipped := 0, 0, 0
	for _, c := range r.Calls {
		mark := "✓"
		switch c.Status {
		case "differs":
			mark, differs = "✗", differs+1
		case "skipped":
			mark, skipped = "-", skipped+1
		default:
			same++
		}
		line := fmt.Sprintf("%s call %d %s %s %s", mark, c.Call, c.Server, c.Method, c.Name)
		if c.Note != "" {
			line += " (" + c.Note + ")"
		}
		fmt.Fprintln(w, untrusted.Line(strings.TrimSpace(line)))
		printDiffs(w, c.Differences)
	}
	if len(r.Unattached) > 0 {
		fmt.Fprintln(w, "✗ outside any call")
		printDiffs(w, r.Unattached)
	}
	verdict := "all matched"
	if !r.Match {
		verdict = fmt.Sprintf("%d difference(s)", r.Differences)
	}
	fmt.Fprintf(w, "%d call(s): %d same, %d differ, %d skipped; %s\n", len(r.Calls), same, differs, skipped, verdict)
	for _, f := range r.Findings {
		fmt.Fprintln(w, untrusted.Line(fmt.Sprintf("finding (%s) %s %s: %s", f.Severity, f.Server, f.Rule, f.Detail)))
	}
}

func printDiffs(w io.Writer, ds []Difference) {
	for _, d := range ds {
		line := "    " + d.What
		if d.Question != "" {
			line += fmt.Sprintf(" (question %q)", d.Question)
		}
		if d.Path != "" {
			line += " " + d.Path
		}
		line += ": " + d.Text
		if d.Recorded != nil || d.Replayed != nil {
			line += "; recorded " + shortJSON(d.Recorded) + ", now " + shortJSON(d.Replayed)
		}
		fmt.Fprintln(w, untrusted.Line(line))
	}
}

// shortJSON is v in JSON, cut to a line's worth.
func shortJSON(v any) string {
	if v == nil {
		return "(none)"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := string(b)
	if len(s) > 120 {
		s = s[:117] + "…"
	}
	return s
}

// questionVolatiles are the per-run values of questions (their
// elicitation ids), which a result may quote.
func questionVolatiles(qs []*record.Question) []string {
	var out []string
	for _, q := range qs {
		if q != nil && q.ElicitationID != "" {
			out = append(out, q.ElicitationID)
		}
	}
	return out
}
