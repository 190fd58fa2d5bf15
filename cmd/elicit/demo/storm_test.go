package demo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/demo"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stormSummary decodes the storm tool's structured content.
func stormSummary(t *testing.T, res *mcp.CallToolResult) demo.StormSummary {
	t.Helper()
	if res.IsError {
		t.Fatalf("storm: tool error: %s", textOf(t, res))
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var s demo.StormSummary
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("decoding summary: %v", err)
	}
	return s
}

// barrier holds every handler until n of them are waiting at once, which
// only happens if the server really asks in parallel.
func barrier(n int) func(context.Context) error {
	var mu sync.Mutex
	waiting := 0
	all := make(chan struct{})
	return func(ctx context.Context) error {
		mu.Lock()
		waiting++
		if waiting == n {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// TestStormCorrelated: 50 questions at once, all open together, answered
// with their defaults; every value must come back to its own question.
func TestStormCorrelated(t *testing.T) {
	t.Parallel()
	const n = 50
	for _, kind := range transports {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			wait := barrier(n)
			cs := connect(t, kind, nil, elicitWith(func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				if err := wait(ctx); err != nil {
					return nil, err
				}
				return &mcp.ElicitResult{Action: "accept", Content: defaultsOfRequest(req)}, nil
			}), pinned)

			s := stormSummary(t, call(t, cs, "storm", map[string]any{"n": n}))
			if s.N != n || s.Accepted != n || s.Declined+s.Cancelled+s.Errors != 0 || len(s.Mismatched) != 0 {
				t.Fatalf("summary = %+v", s)
			}
			for i, v := range s.Values {
				if v == nil || *v != i+1 {
					t.Errorf("question %d got value %v", i+1, v)
				}
			}
		})
	}
}

// TestStormMixed answers by question number, so the counts and mismatches
// depend on the answers really reaching their questions.
func TestStormMixed(t *testing.T) {
	t.Parallel()
	const n = 30
	cs := connect(t, "memory", nil, elicitWith(func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		var i, total int
		if _, err := fmt.Sscanf(req.Params.Message, "Storm question %d of %d", &i, &total); err != nil || total != n {
			return nil, fmt.Errorf("unexpected question %q", req.Params.Message)
		}
		switch {
		case i%5 == 0:
			return &mcp.ElicitResult{Action: "decline"}, nil
		case i%7 == 0:
			return &mcp.ElicitResult{Action: "cancel"}, nil
		case i == 13:
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"value": 31}}, nil
		default:
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"value": i}}, nil
		}
	}), pinned)

	s := stormSummary(t, call(t, cs, "storm", map[string]any{"n": n}))
	// Declined: 5,10,...,30 (6); cancelled: 7,14,21,28 (4); accepted: the other 20.
	want := struct{ accepted, declined, cancelled, errors int }{20, 6, 4, 0}
	got := struct{ accepted, declined, cancelled, errors int }{s.Accepted, s.Declined, s.Cancelled, s.Errors}
	if got != want {
		t.Errorf("counts = %+v, want %+v", got, want)
	}
	if diff := cmp.Diff([]int{13}, s.Mismatched); diff != "" {
		t.Errorf("mismatched (-want +got):\n%s", diff)
	}
	if s.Values[12] == nil || *s.Values[12] != 31 || s.Values[4] != nil || s.Values[6] != nil {
		t.Errorf("values = %v", s.Values)
	}
}

func TestStormDefaultAndBounds(t *testing.T) {
	t.Parallel()
	cs := connect(t, "memory", nil, answer(nil), pinned)
	if s := stormSummary(t, call(t, cs, "storm", nil)); s.N != 10 || s.Accepted != 10 {
		t.Errorf("default storm = %+v, want 10 accepted", s)
	}
	for _, n := range []int{0, demo.MaxStorm + 1} {
		if res := call(t, cs, "storm", map[string]any{"n": n}); !res.IsError {
			t.Errorf("storm n=%d: want a tool error", n)
		}
	}
}

func BenchmarkStorm(b *testing.B) {
	for _, n := range []int{10, 200} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ctx := b.Context()
			st, ct := mcp.NewInMemoryTransports()
			ss, err := demo.New(nil).Connect(ctx, st, nil)
			if err != nil {
				b.Fatal(err)
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, answer(nil)).Connect(ctx, ct, pinned)
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = cs.Close(); _ = ss.Wait() }()
			for b.Loop() {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "storm", Arguments: map[string]any{"n": n}})
				if err != nil || res.IsError {
					b.Fatalf("storm: %v %+v", err, res)
				}
			}
		})
	}
}
