package client_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/internal/testenv"
	"github.com/elicit-dev/elicit/transport"
)

// TestCompleteEverything asks server-everything (which declares
// completions) for its completable-prompt's values: the names depend on
// the department given as context; and for its dynamic resource template's
// resourceId, which it checks is an integer.
func TestCompleteEverything(t *testing.T) {
	path := testenv.Getenv(t, "ELICIT_SERVER_EVERYTHING", "path to server-everything's dist/index.js")
	testenv.LookPath(t, "node")
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	s, err := client.Connect(ctx, &transport.Stdio{Command: "node", Args: []string{path, "stdio"}},
		&client.Options{Name: "everything", Protocol: wire.Protocol2025_11_25})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.ServerCapabilities().Completions {
		t.Fatal("server-everything declares completions")
	}
	prompt := wire.CompleteRef{Type: wire.RefPrompt, Name: "completable-prompt"}
	dep, err := s.Complete(ctx, prompt, "department", "S", nil)
	if err != nil || !slices.Contains(dep.Values, "Sales") || slices.Contains(dep.Values, "Engineering") {
		t.Fatalf("department S: %+v, %v", dep, err)
	}
	sales, err := s.Complete(ctx, prompt, "name", "", map[string]string{"department": "Sales"})
	if err != nil {
		t.Fatal(err)
	}
	eng, err := s.Complete(ctx, prompt, "name", "", map[string]string{"department": "Engineering"})
	if err != nil {
		t.Fatal(err)
	}
	if len(sales.Values) == 0 || slices.Equal(sales.Values, eng.Values) {
		t.Errorf("names do not follow the context: Sales %q, Engineering %q", sales.Values, eng.Values)
	}
	res, err := s.Complete(ctx, wire.CompleteRef{Type: wire.RefResource, URI: "demo://resource/dynamic/text/{resourceId}"}, "resourceId", "7", nil)
	// It echoes an integer back (and nothing for anything else).
	if err != nil || !slices.Equal(res.Values, []string{"7"}) {
		t.Errorf("resourceId: %+v, %v", res, err)
	}
	t.Logf("department S %q; Sales %q; Engineering %q; resourceId %q", dep.Values, sales.Values, eng.Values, res.Values)
}
