package acp_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/acp"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/internal/testenv"
)

// engineAgents are the agents the engine-only cells run against: the
// demo agent (this test binary re-executed) and, when ELICIT_ACP_TS_SDK
// names @agentclientprotocol/sdk's folder, the agent on the official
// TypeScript SDK (cmd/elicit/testdata/acp-ts-agent.mjs). coder's example
// agent plays only permission paths with its own timing; the headless
// matrix (cmd/elicit TestACPMatrix) runs it.
func engineAgents(t *testing.T) map[string]func(*acp.Options) {
	t.Helper()
	agents := map[string]func(*acp.Options){"demo": nil}
	sdk := os.Getenv("ELICIT_ACP_TS_SDK")
	if sdk == "" {
		testenv.MissingPart(t, "the TypeScript agent: ELICIT_ACP_TS_SDK not set (the @agentclientprotocol/sdk folder); .ci/run sets it")
		return agents
	}
	if why := testenv.Lacks("node"); why != "" {
		testenv.MissingPart(t, "the TypeScript agent: %s", why)
		return agents
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "cmd", "elicit", "testdata", "acp-ts-agent.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	agents["ts"] = func(o *acp.Options) {
		o.Name, o.Command, o.Args, o.Env = "ts-agent", "node", []string{script, sdk}, nil
	}
	return agents
}

// TestCloseAnswersOpenQuestionsEveryAgent: shutdown answers every open
// request of the agent's -32800, a permission's and an elicitation's.
func TestCloseAnswersOpenQuestionsEveryAgent(t *testing.T) {
	for name, mod := range engineAgents(t) {
		for _, prompt := range []string{"permission", "question"} {
			t.Run(name+"/"+prompt, func(t *testing.T) {
				opened := make(chan struct{}, 1)
				p := question.PrompterFunc(func(ctx context.Context, _ *question.Question) question.Outcome {
					opened <- struct{}{}
					<-ctx.Done()
					return question.Outcome{Kind: question.Cancel}
				})
				c := start(t, "plain", p, mod)
				ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
				defer cancel()
				sid, err := c.NewSession(ctx, t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				done := make(chan struct{})
				go func() {
					defer close(done)
					c.Prompt(ctx, sid, prompt)
				}()
				select {
				case <-opened:
				case <-ctx.Done():
					t.Fatal("no question opened")
				}
				c.Close()
				<-done
				e := onlyEntry(t, c)
				if e.Sent != "error -32800" || e.Bucket != question.BucketShutdown || e.Kind != question.Abandoned {
					t.Errorf("entry %+v", e)
				}
			})
		}
	}
}

// TestAbandonTurnEveryAgent: a second Stop sends $/cancel_request for
// the prompt at once; the agent's -32800 is cancelled, not failed.
func TestAbandonTurnEveryAgent(t *testing.T) {
	for name, mod := range engineAgents(t) {
		t.Run(name, func(t *testing.T) {
			chunk := make(chan struct{}, 1)
			c := start(t, "plain", nil, func(o *acp.Options) {
				if mod != nil {
					mod(o)
				}
				o.CancelWait = time.Minute
				o.OnUpdate = func(u acp.Update) {
					if u.Kind == acp.UpdateAgentMessage {
						select {
						case chunk <- struct{}{}:
						default:
						}
					}
				}
			})
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			sid, err := c.NewSession(ctx, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			type turnEnd struct {
				res acp.TurnResult
				err error
			}
			done := make(chan turnEnd, 1)
			go func() {
				res, err := c.Prompt(context.Background(), sid, "deaf")
				done <- turnEnd{res, err}
			}()
			// The turn is under way once its first chunk arrived.
			select {
			case <-chunk:
			case <-ctx.Done():
				t.Fatal("the deaf turn never said anything")
			}
			c.AbandonTurn(sid)
			select {
			case e := <-done:
				if e.err != nil || !e.res.RequestCancelled || !e.res.Stopped || e.res.Message != "not listening…" {
					t.Fatalf("turn: %+v, %v", e.res, e.err)
				}
			case <-ctx.Done():
				t.Fatal("AbandonTurn did not abandon the prompt")
			}
		})
	}
}
