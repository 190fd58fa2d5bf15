package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/elicit-dev/elicit/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type stormArgs struct {
	N int `json:"n"`
}

// newStormServer has a tool "storm" that asks n questions at once
// ("storm <i>", field "token") and returns how many answers came back
// with the token of their own question ("ok <n>"), or the first mismatch.
func newStormServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "storm", Version: "1"}, legacyOpts(nil))
	mcp.AddTool(srv, &mcp.Tool{Name: "storm"}, func(ctx context.Context, req *mcp.CallToolRequest, in stormArgs) (*mcp.CallToolResult, any, error) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, bad := 0, ""
		for i := range in.N {
			wg.Go(func() {
				res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{
					Message:         fmt.Sprintf("storm %d", i),
					RequestedSchema: json.RawMessage(`{"type":"object","properties":{"token":{"type":"string"}},"required":["token"]}`),
				})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err != nil:
					bad = fmt.Sprintf("question %d: %v", i, err)
				case res.Action != "accept" || res.Content["token"] != "t"+strconv.Itoa(i):
					bad = fmt.Sprintf("question %d got %s %v", i, res.Action, res.Content)
				default:
					ok++
				}
			})
		}
		wg.Wait()
		text := fmt.Sprintf("ok %d", ok)
		if bad != "" {
			text = "mismatch: " + bad
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
	})
	return srv
}

// shuffler answers "storm <i>" with token t<i> after a random delay, so
// answers go out in random order.
func shuffler(maxDelay time.Duration) question.Prompter {
	return question.PrompterFunc(func(ctx context.Context, p *question.Question) question.Outcome {
		if maxDelay > 0 {
			t := time.NewTimer(rand.N(maxDelay))
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
			}
		}
		return question.Outcome{Kind: question.Accept, Content: map[string]any{"token": "t" + strings.TrimPrefix(p.Message, "storm ")}}
	})
}

func TestStormEveryAnswerFindsItsQuestion(t *testing.T) {
	t.Parallel()
	s := servePipe(t, newStormServer(), &client.Options{Prompter: shuffler(2 * time.Millisecond)}, nil)
	res, err := s.CallTool(t.Context(), "storm", stormArgs{N: 200}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Text() != "ok 200" {
		t.Fatalf("storm: %s", res.Text())
	}
	waitJournal(t, s, 200)
	if c := s.Journal().Counts(); c[question.Accept] != 200 {
		t.Errorf("journal %v", c)
	}
	if out, in := s.Pending(); out != 0 || in != 0 {
		t.Errorf("Pending = %d, %d", out, in)
	}
}

// TestDemoStorm runs the demo server's storm tool with AcceptDefaults:
// question i's default is i, so every value matching proves the answers
// were not crossed.
func TestDemoStorm(t *testing.T) {
	t.Parallel()
	conn, sr, sw := transport.PipeIO(nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- demo.ServeIO(ctx, sr, sw, nil) }()
	defer func() { cancel(); <-done }()
	s, err := client.Connect(t.Context(), connTransport{conn}, &client.Options{Name: "demo", Prompter: question.AcceptDefaults})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := s.CallTool(t.Context(), "storm", map[string]any{"n": 200}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		N          int   `json:"n"`
		Accepted   int   `json:"accepted"`
		Mismatched []int `json:"mismatched"`
	}
	if err := json.Unmarshal(res.StructuredContent, &sum); err != nil {
		t.Fatalf("structured content %s: %v", res.StructuredContent, err)
	}
	if sum.N != 200 || sum.Accepted != 200 || len(sum.Mismatched) != 0 {
		t.Errorf("storm summary %+v", sum)
	}
}

// BenchmarkConcurrentElicitations: 1,000 elicitations in flight at once
// through one session, answered in random order; every answer must reach
// its own request.
func BenchmarkConcurrentElicitations(b *testing.B) {
	const n = 1000
	s := servePipe(b, newStormServer(), &client.Options{Prompter: shuffler(time.Millisecond), Journal: question.NewJournal(n)}, nil)
	b.ReportAllocs()
	iters := 0
	for b.Loop() {
		iters++
		res, err := s.CallTool(context.Background(), "storm", stormArgs{N: n}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res.Text() != fmt.Sprintf("ok %d", n) {
			b.Fatalf("storm: %s", res.Text())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(iters*n), "ns/prompt")
}
