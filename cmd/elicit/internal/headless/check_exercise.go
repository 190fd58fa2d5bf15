package headless

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/recording"
)

// MaxChecked bounds how many resources and prompts check reads: a server
// with thousands of resources is judged on its first ones.
const MaxChecked = 50

// checkConcurrency is how many reads and gets check has in flight at
// once: a server that answers nothing costs a request timeout per
// checkConcurrency of them, not per one.
const checkConcurrency = 8

// checkBudgetTimeouts is the default --budget in request timeouts: the
// lists, then the reads and gets in checkConcurrency lanes.
const checkBudgetTimeouts = 3

// Why a step was not checked (CheckStep.NotChecked).
const (
	NotCheckedTimeout = "timeout" // the server did not answer within --request-timeout
	NotCheckedBudget  = "budget"  // --budget ran out before or while it was asked
)

// errBudgetSpent is the cause of the run's context ending at --budget.
var errBudgetSpent = errors.New("check's --budget ran out")

// exercise is one check run's listing and reading of a server, within
// its budget: ctx ends with errBudgetSpent when the budget runs out.
type exercise struct {
	ctx    context.Context
	s      *client.Session
	rec    *record.Recorder
	budget time.Duration
}

// stepOf is how one request went: ok with its note, failed, or not
// checked (timed out, or the budget ran out while it waited).
func (e *exercise) stepOf(name string, n int, err error, what string) CheckStep {
	st := CheckStep{Step: name, OK: err == nil}
	switch {
	case err == nil:
		st.Note = fmt.Sprintf("%d %s", n, what)
	case errors.Is(err, client.ErrTimeout):
		st.Error, st.NotChecked = err.Error(), NotCheckedTimeout
	case errors.Is(context.Cause(e.ctx), errBudgetSpent):
		st.Error, st.NotChecked = fmt.Sprintf("the budget (--budget %s) ran out while it waited", e.budget), NotCheckedBudget
	default:
		st.Error = err.Error()
	}
	return st
}

// spent is the step of a request not asked: the budget was gone.
func (e *exercise) spent(name string) (CheckStep, bool) {
	if !errors.Is(context.Cause(e.ctx), errBudgetSpent) {
		return CheckStep{}, false
	}
	return CheckStep{Step: name, Error: fmt.Sprintf("not asked: the budget (--budget %s) ran out", e.budget), NotChecked: NotCheckedBudget}, true
}

// run lists what the server declared, then reads what needs no
// arguments, checkConcurrency at a time: a person's first minute with
// it. Each request is a call of the recording (--record), so a replay of
// a check lists and reads again and says what changed. Steps come in a
// fixed order (the lists, the reads, the gets), however the reads
// interleave.
func (e *exercise) run() []CheckStep {
	caps := e.s.ServerCapabilities()
	var steps []CheckStep
	var jobs []func() CheckStep
	if caps.Tools {
		_, st := listStep(e, wire.MethodToolsList, "tools", e.s.ListTools)
		steps = append(steps, st)
	}
	if caps.Resources {
		res, st := listStep(e, wire.MethodResourcesList, "resources", e.s.ListResources)
		steps = append(steps, st)
		_, st = listStep(e, wire.MethodResourcesTemplatesList, "templates", e.s.ListResourceTemplates)
		steps = append(steps, st)
		for _, r := range res[:min(len(res), MaxChecked)] {
			jobs = append(jobs, func() CheckStep { return e.read(r.URI) })
		}
	}
	if caps.Prompts {
		prompts, st := listStep(e, wire.MethodPromptsList, "prompts", e.s.ListPrompts)
		steps = append(steps, st)
		got := 0
		for _, p := range prompts {
			if needsArguments(p) || got == MaxChecked {
				continue
			}
			got++
			jobs = append(jobs, func() CheckStep { return e.get(p.Name) })
		}
	}
	return append(steps, e.pool(jobs)...)
}

// listStep runs one list, unless the budget is gone.
func listStep[T any](e *exercise, method, what string, list func(context.Context) ([]T, error)) ([]T, CheckStep) {
	if st, gone := e.spent(method); gone {
		return nil, st
	}
	rc := e.rec.Begin(e.s.Name(), method, "", nil, nil)
	items, err := list(e.ctx)
	rc.End(items, err)
	return items, e.stepOf(method, len(items), err, what)
}

func (e *exercise) read(uri string) CheckStep {
	name := wire.MethodResourcesRead + " " + uri
	if st, gone := e.spent(name); gone {
		return st
	}
	rc := e.rec.Begin(e.s.Name(), wire.MethodResourcesRead, uri, recording.URIParams{URI: uri}, nil)
	c, err := e.s.ReadResource(e.ctx, uri)
	rc.End(c, err)
	return e.stepOf(name, len(c), err, "contents")
}

func (e *exercise) get(prompt string) CheckStep {
	name := wire.MethodPromptsGet + " " + prompt
	if st, gone := e.spent(name); gone {
		return st
	}
	rc := e.rec.Begin(e.s.Name(), wire.MethodPromptsGet, prompt, recording.PromptGetParams{Name: prompt, Arguments: map[string]string{}}, nil)
	res, err := e.s.GetPrompt(e.ctx, prompt, map[string]string{})
	rc.End(res, err)
	n := 0
	if res != nil {
		n = len(res.Messages)
	}
	return e.stepOf(name, n, err, "messages")
}

// call calls tool with args (--call), unless the budget is gone.
func (e *exercise) call(tool string, args map[string]any) CheckStep {
	name := wire.MethodToolsCall + " " + tool
	if st, gone := e.spent(name); gone {
		return st
	}
	rc := e.rec.Begin(e.s.Name(), wire.MethodToolsCall, tool, recording.ToolCallParams{Name: tool, Arguments: args}, nil)
	res, err := e.s.CallTool(e.ctx, tool, args, nil)
	rc.End(recording.CallResult(res), err)
	switch {
	case err != nil:
		return e.stepOf(name, 0, err, "")
	case res.IsError:
		return CheckStep{Step: name, Note: "isError"}
	}
	st := e.stepOf(name, len(res.Content), nil, "content blocks")
	if len(res.StructuredContent) > 0 {
		st.Note += ", structuredContent"
	}
	return st
}

// pool runs jobs checkConcurrency at a time; their steps in job order.
func (e *exercise) pool(jobs []func() CheckStep) []CheckStep {
	steps := make([]CheckStep, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(checkConcurrency, len(jobs)) {
		wg.Go(func() {
			for i := range next {
				steps[i] = jobs[i]()
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return steps
}

// needsArguments reports whether a prompt has a required argument.
func needsArguments(p wire.Prompt) bool {
	for _, a := range p.Arguments {
		if a.Required {
			return true
		}
	}
	return false
}
