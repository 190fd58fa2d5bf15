package demo_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pendingQuestion is one elicitation the client is holding open.
type pendingQuestion struct {
	params *mcp.ElicitParams
	reply  chan *mcp.ElicitResult
}

// holdQuestions returns client options whose handler parks every question on
// the returned channel until the test replies.
func holdQuestions() (*mcp.ClientOptions, <-chan pendingQuestion) {
	arrived := make(chan pendingQuestion)
	return elicitWith(func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		q := pendingQuestion{params: req.Params, reply: make(chan *mcp.ElicitResult, 1)}
		select {
		case arrived <- q:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		select {
		case res := <-q.reply:
			return res, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}), arrived
}

// TestTicketsInParallel opens two create_ticket questions at once and answers
// them in the reverse order of arrival; each call must get its own priority.
func TestTicketsInParallel(t *testing.T) {
	t.Parallel()
	priorityFor := map[string]string{"alpha": "P1", "beta": "P4"}
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			copts, arrived := holdQuestions()
			cs := connect(t, kind, nil, copts, pinned)

			results := map[string]chan string{}
			for title := range priorityFor {
				ch := make(chan string, 1)
				results[title] = ch
				go func() {
					res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{
						Name: "create_ticket", Arguments: map[string]any{"title": title},
					})
					switch {
					case err != nil:
						ch <- "error: " + err.Error()
					case len(res.Content) == 0:
						ch <- "no content"
					default:
						ch <- res.Content[0].(*mcp.TextContent).Text
					}
				}()
			}

			// Both questions must be open at the same time.
			first := within(t, 5*time.Second, arrived, "the first question")
			second := within(t, 5*time.Second, arrived, "the second question")
			for _, q := range []pendingQuestion{second, first} {
				title := strings.TrimSuffix(strings.TrimPrefix(q.params.Message, "Priority for ticket '"), "'?")
				want, ok := priorityFor[title]
				if !ok {
					t.Fatalf("unexpected question %q", q.params.Message)
				}
				q.reply <- &mcp.ElicitResult{Action: "accept", Content: map[string]any{"priority": want}}
				got := within(t, 5*time.Second, results[title], "the result for "+title)
				if wantText := "Created ticket '" + title + "' with priority " + want + "."; got != wantText {
					t.Errorf("%s: got %q, want %q", title, got, wantText)
				}
			}
		})
	}
}

func TestTicketOutcomes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		res  *mcp.ElicitResult
		want string
	}{
		{"accept defaults", nil, "Created ticket 'x' with priority P3."},
		{"decline", &mcp.ElicitResult{Action: "decline"}, "Ticket 'x' not created: the user declined to give it a priority."},
		{"cancel", &mcp.ElicitResult{Action: "cancel"}, "Ticket 'x' not created: the question was dismissed without an answer; ask again later."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cs := connect(t, "memory", nil, answer(c.res), pinned)
			if got := okText(t, cs, "create_ticket", map[string]any{"title": "x"}); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestTicketRejectsUnknownPriority: an answer outside the oneOf never
// reaches the tool as a priority.
func TestTicketRejectsUnknownPriority(t *testing.T) {
	t.Parallel()
	cs := connect(t, "memory", nil, answer(&mcp.ElicitResult{Action: "accept", Content: map[string]any{"priority": "P9"}}), pinned)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "create_ticket", Arguments: map[string]any{"title": "x"}})
	if err == nil && !res.IsError {
		t.Fatalf("priority P9 was accepted: %s", textOf(t, res))
	}
}
