package client_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/internal/testenv"
	"github.com/elicit-dev/elicit/transport"
)

// TestSubscribeEverything subscribes to a server-everything resource and
// turns its simulated updates on (toggle-subscriber-updates, one every
// 5 s for each subscribed URI): a ResourceUpdated event names the URI.
// After Unsubscribe no more come for it.
func TestSubscribeEverything(t *testing.T) {
	path := testenv.Getenv(t, "ELICIT_SERVER_EVERYTHING", "path to server-everything's dist/index.js")
	testenv.LookPath(t, "node")
	t.Parallel()
	rec := &recorder{}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	s, err := client.Connect(ctx, &transport.Stdio{Command: "node", Args: []string{path, "stdio"}},
		&client.Options{Name: "everything", Protocol: wire.Protocol2025_11_25, Observer: rec})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const uri = "demo://resource/static/document/features.md"
	if err := s.Subscribe(ctx, uri); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CallTool(ctx, "toggle-subscriber-updates", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	waitEventWithin(t, rec, 20*time.Second, func(u client.ResourceUpdated) bool { return u.Server == "everything" && u.URI == uri })
	if err := s.Unsubscribe(ctx, uri); err != nil {
		t.Fatal(err)
	}
}

// TestSubscribeIn2026NeedsTheCapability: a 2026-07-28 session to the
// embedded demo, which declares no resources.subscribe, sends neither
// resources/subscribe (which that version does not have) nor a listen for
// the URI (TestSubscribeListenGoSDK has a server that declares it).
func TestSubscribeIn2026NeedsTheCapability(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	s := connectDemo(t, "pipe", nil, rec)
	if s.Era() != "2026-07-28 stateless" {
		t.Fatalf("era %q", s.Era())
	}
	if err := s.Subscribe(t.Context(), "demo://x"); !errors.Is(err, client.ErrNoSubscribe) {
		t.Fatalf("Subscribe = %v, want ErrNoSubscribe", err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, f := range rec.frames {
		if strings.Contains(string(f.Raw), wire.MethodResourcesSubscribe) || strings.Contains(string(f.Raw), "resourceSubscriptions") {
			t.Fatalf("sent %s", f.Raw)
		}
	}
}
