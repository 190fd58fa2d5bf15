package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxStorm is the largest number of questions one storm call may ask.
const MaxStorm = 2000

// StormSummary is the structured result of the storm tool. Question i
// (1-based) asks for an integer whose default is i, so answering every
// question with its default yields Values[i-1] == i and no Mismatched
// entries: proof that each answer reached its own question.
type StormSummary struct {
	N         int `json:"n"`
	Accepted  int `json:"accepted"`
	Declined  int `json:"declined"`
	Cancelled int `json:"cancelled"`
	Errors    int `json:"errors"`
	// Values holds, at index i-1, the value accepted for question i, or null
	// when question i was not accepted.
	Values []*int `json:"values"`
	// Mismatched lists the questions (1-based) whose accepted value is not
	// their own number.
	Mismatched []int `json:"mismatched"`
	// FirstError is the error of the lowest-numbered failed question.
	FirstError string `json:"firstError,omitempty"`
}

// stormArgs are the storm tool's arguments; see stormInput for the schema,
// written out because inference cannot express bounds and defaults.
type stormArgs struct {
	N int `json:"n"`
}

var stormInput = json.RawMessage(fmt.Sprintf(`{
  "type": "object",
  "properties": {
    "n": {"type": "integer", "title": "Questions", "description": "How many questions to ask at once.", "minimum": 1, "maximum": %d, "default": 10}
  }
}`, MaxStorm))

func addStorm(srv *mcp.Server, cfg config) {
	rounds := multiRound(cfg.codec, "storm", stormRounds)
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "storm",
		Title: "A storm of questions",
		Description: "Asks n questions at once (\"Storm question i of n\", each with an integer whose " +
			"default is i) and summarises the answers, so you can check that every answer found its question.",
		InputSchema: stormInput,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, func(ctx context.Context, req *mcp.CallToolRequest, in stormArgs) (*mcp.CallToolResult, any, error) {
		// Not multiRound in both eras: in 2025-11-25 a failed question is
		// counted in the summary rather than failing the call.
		if modern(req.Session) {
			return rounds(ctx, req, in)
		}
		return storm(ctx, req, in)
	})
}

func stormSchema(i int) map[string]any {
	return objectSchema(map[string]any{
		"value": map[string]any{
			"type":        "integer",
			"title":       "Value",
			"description": fmt.Sprintf("Keep %d to prove this answer belongs to question %d.", i, i),
			"default":     i,
		},
	}, "value")
}

// stormAnswer is what one question of the storm produced.
type stormAnswer struct {
	action string
	value  *int
	err    error
}

func storm(ctx context.Context, req *mcp.CallToolRequest, in stormArgs) (*mcp.CallToolResult, any, error) {
	n := in.N
	if n < 1 || n > MaxStorm {
		return nil, nil, fmt.Errorf("storm: n must be between 1 and %d, got %d", MaxStorm, n)
	}
	answers := make([]stormAnswer, n) // each goroutine writes only its own slot
	var wg sync.WaitGroup
	for i := 1; i <= n; i++ {
		wg.Go(func() {
			res, err := ask(ctx, req, fmt.Sprintf("Storm question %d of %d", i, n), stormSchema(i))
			if err != nil {
				answers[i-1] = stormAnswer{err: err}
				return
			}
			answers[i-1] = stormAnswer{action: res.Action, value: intField(res.Content, "value")}
		})
	}
	wg.Wait()
	r, err := structured(summarise(answers))
	return r, nil, err
}

// stormKey is question i's inputRequests key in 2026-07-28.
func stormKey(i int) string { return fmt.Sprintf("q%d", i) }

// stormRounds is storm in 2026-07-28: all n questions in one input_required
// result, keyed q1..qn, summarised when the client retries with the answers.
func stormRounds(_ context.Context, _ *mcp.CallToolRequest, in stormArgs, r *round) (*mcp.CallToolResult, error) {
	n := in.N
	if n < 1 || n > MaxStorm {
		return nil, fmt.Errorf("storm: n must be between 1 and %d, got %d", MaxStorm, n)
	}
	if r.first() {
		questions := make(map[string]*mcp.ElicitParams, n)
		for i := 1; i <= n; i++ {
			questions[stormKey(i)] = form(fmt.Sprintf("Storm question %d of %d", i, n), stormSchema(i))
		}
		return r.ask(nil, questions)
	}
	answers := make([]stormAnswer, n)
	for i := 1; i <= n; i++ {
		res, err := r.answer(stormKey(i), stormSchema(i))
		switch {
		case err != nil:
			answers[i-1] = stormAnswer{err: err}
		case res == nil:
			answers[i-1] = stormAnswer{err: fmt.Errorf("the retry carried no answer to %s", stormKey(i))}
		default:
			answers[i-1] = stormAnswer{action: res.Action, value: intField(res.Content, "value")}
		}
	}
	return structured(summarise(answers))
}

func summarise(answers []stormAnswer) StormSummary {
	s := StormSummary{N: len(answers), Values: make([]*int, len(answers)), Mismatched: []int{}}
	for idx, a := range answers {
		i := idx + 1
		switch {
		case a.err != nil:
			s.Errors++
			if s.FirstError == "" {
				s.FirstError = fmt.Sprintf("question %d: %v", i, a.err)
			}
		case a.action == actionAccept:
			s.Accepted++
			s.Values[idx] = a.value
			if a.value == nil || *a.value != i {
				s.Mismatched = append(s.Mismatched, i)
			}
		case a.action == actionDecline:
			s.Declined++
		case a.action == actionCancel:
			s.Cancelled++
		default:
			s.Errors++
			if s.FirstError == "" {
				s.FirstError = fmt.Sprintf("question %d: %v", i, unknownAction(a.action))
			}
		}
	}
	return s
}

// intField reads an integer answer; JSON numbers arrive as float64.
func intField(content map[string]any, key string) *int {
	f, ok := content[key].(float64)
	if !ok || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		return nil
	}
	v := int(f)
	return &v
}
