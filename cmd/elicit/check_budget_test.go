package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/headless"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func init() { testServers["deaf-reads"] = serveDeafReads }

// serveDeafReads is a go-sdk server on stdio that lists 50 resources and
// 50 prompts, then answers none of their reads and gets: each handler
// waits on its context (our cancel, or the connection ending).
func serveDeafReads(*bufio.Scanner, *json.Encoder) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "deaf-reads", Version: "1"}, nil)
	for i := range 50 {
		srv.AddResource(&mcp.Resource{URI: fmt.Sprintf("test://r%d", i), Name: fmt.Sprint("r", i), MIMEType: "text/plain"},
			func(ctx context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			})
		srv.AddPrompt(&mcp.Prompt{Name: fmt.Sprint("p", i)},
			func(ctx context.Context, _ *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			})
	}
	_ = srv.Run(context.Background(), &mcp.StdioTransport{})
}

// TestCheckBudget: against a server that lists 50 resources and 50
// prompts and answers none of their reads, check ends within its
// --budget (100 reads at 3s each, 8 at a time, cannot fit in 5s; the
// request timeout is long enough for a loaded machine's handshake) and
// says of every read and get that it was not checked, and why; the exit
// code is the findings' alone.
func TestCheckBudget(t *testing.T) {
	t.Parallel()
	code, out, errs := runHostile(t, "deaf-reads", "check", "--request-timeout", "3s", "--budget", "5s", "--json")
	got := checkJSON(t, out)
	if want := map[bool]int{false: exit.OK, true: exit.Findings}[got.Errors > 0]; code != want {
		t.Errorf("exit %d, want %d for %d error-level findings; stderr %s", code, want, got.Errors, errs)
	}
	if got.Budget != "5s" {
		t.Errorf("budget %q", got.Budget)
	}
	reads, gets, why := 0, 0, map[string]int{}
	for _, st := range got.Steps {
		method, _, _ := strings.Cut(st.Step, " ")
		switch method {
		case "resources/read":
			reads++
		case "prompts/get":
			gets++
		default:
			if !st.OK {
				t.Errorf("step %+v failed", st)
			}
			continue
		}
		why[st.NotChecked]++
		if st.OK || st.Error == "" || st.NotChecked != headless.NotCheckedTimeout && st.NotChecked != headless.NotCheckedBudget {
			t.Errorf("step %+v: want it not checked, saying why", st)
		}
	}
	if reads != headless.MaxChecked || gets != headless.MaxChecked || got.NotChecked != reads+gets || why[headless.NotCheckedBudget] == 0 {
		t.Errorf("%d reads, %d gets, %d not checked (%v); want every one reported, some for the budget", reads, gets, got.NotChecked, why)
	}

	_, table, _ := runHostile(t, "deaf-reads", "check", "--request-timeout", "3s", "--budget", "5s")
	for _, want := range []string{"SKIP  resources/read test://r49", "not asked: the budget (--budget 5s) ran out", "100 step(s) not checked"} {
		if !strings.Contains(string(table), want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	if code, _, _ := runCLI(t, "check", "--demo", "--budget", "-1s"); code != exit.Usage {
		t.Errorf("--budget -1s: exit %d, want %d", code, exit.Usage)
	}
	if _, _, help := runCLI(t, "check", "-h"); !strings.Contains(help, "-budget") || !strings.Contains(help, "3 times --request-timeout") {
		t.Errorf("check -h does not document --budget:\n%s", help)
	}
}
