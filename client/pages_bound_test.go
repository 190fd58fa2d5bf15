package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// servePages answers every tools/list with page(n) until the test ends
// the returned wait, which says how many pages were served; after
// lastPage pages, with an empty last one (so that an unbounded list
// fails the test at once instead of paging on).
const lastPage = 150

func servePages(t *testing.T, p *peer, page func(n int) string) (wait func() int) {
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan int, 1)
	go func() {
		n := 0
		defer func() { served <- n }()
		for {
			m, err := msgOf(p.conn.Read(ctx))
			if err != nil {
				return
			}
			if m.Method != "tools/list" {
				continue
			}
			result := `{"tools":[]}`
			if n < lastPage {
				result = page(n)
			}
			if p.conn.Write(ctx, &jsonrpc.Message{ID: m.ID, Result: json.RawMessage(result)}, nil) != nil {
				return
			}
			n++
		}
	}()
	return func() int { cancel(); return <-served }
}

// A list that pages for ever, each cursor new, was followed until the
// page bound (10,000 pages): with 20,000 resources a page, elicit held
// 1.4 GB after 40 s and grew on. What a list keeps across its pages is
// bounded in items and bytes; past it the list stops with what it has
// and says why.
func TestPaginationBoundedItems(t *testing.T) {
	t.Parallel()
	s, p, _ := pipePeer(t, "2025-11-25", nil, nil)
	var page strings.Builder
	page.WriteString(`{"tools":[`)
	for i := range 1000 {
		if i > 0 {
			page.WriteString(",")
		}
		fmt.Fprintf(&page, `{"name":"t%d","inputSchema":{"type":"object"}}`, i)
	}
	page.WriteString(`],"nextCursor":"c%d"}`)
	wait := servePages(t, p, func(n int) string { return fmt.Sprintf(page.String(), n) })
	tools, err := s.ListTools(context.Background())
	pages := wait()
	if err == nil || !strings.Contains(err.Error(), "more than 100000 items") || len(tools) > 100_000 || pages > 101 {
		t.Fatalf("after %d pages: %d tools, err %v", pages, len(tools), err)
	}
}

// Few items, but large: a description (or a cursor) of 1 MiB a page.
func TestPaginationBoundedBytes(t *testing.T) {
	t.Parallel()
	s, p, _ := pipePeer(t, "2025-11-25", nil, nil)
	big := strings.Repeat("x", 1<<20)
	wait := servePages(t, p, func(n int) string {
		return fmt.Sprintf(`{"tools":[{"name":"t%d","inputSchema":{"type":"object"}}],"nextCursor":"%s%d"}`, n, big, n)
	})
	_, err := s.ListTools(context.Background())
	pages := wait()
	if err == nil || !strings.Contains(err.Error(), "more than 64 MiB") || pages > 65 {
		t.Fatalf("after %d pages: err %v", pages, err)
	}
}
