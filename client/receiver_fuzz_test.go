package client

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/wire"
)

// FuzzReceiverParams feeds server input to the decoders of receiver-side
// tasks and roots: a request's params.task (the TTL granted stays within
// its bounds), a tasks/list cursor (always a valid page or -32602), a
// result stamped with related-task (always an object naming the task),
// and a root URI (Path accepts only clean absolute file:// paths).
//
//	go test -run '^$' -fuzz FuzzReceiverParams -fuzztime 1m ./client
func FuzzReceiverParams(f *testing.F) {
	for _, s := range []string{
		`{"task":{"ttl":60000}}`, `{"task":{"ttl":null}}`, `{"task":{"ttl":1e400}}`, `{"task":{"ttl":-5}}`,
		`{"task":5}`, `{"Task":{"ttl":1}}`, `{"cursor":"3"}`, `{"cursor":"-1"}`, `{"cursor":7}`, `null`, `[]`,
		`{"action":"accept","_meta":{"x":1}}`, `{"_meta":5}`, `file:///a/../b`, `file://h/x`, `file:///%2e%2e/x`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw := json.RawMessage(s)
		ttl, ok, err := taskParam(raw)
		if ok && err == nil && (ttl < minReceiverTTL || ttl > maxReceiverTTL) {
			t.Fatalf("taskParam(%s) granted %v", s, ttl)
		}
		var r receiverTable
		r.seq = 1
		r.byID = map[string]*rtask{"a": {id: "a", seq: 1, status: TaskWorking, created: time.Now(), updated: time.Now(), ttl: time.Hour}}
		r.order = []*rtask{r.byID["a"]}
		res, rpcErr := r.list(raw)
		if (res == nil) == (rpcErr == nil) {
			t.Fatalf("list(%s): %s %v", s, res, rpcErr)
		}
		if res != nil {
			var l struct {
				Tasks []json.RawMessage `json:"tasks"`
			}
			if json.Unmarshal(res, &l) != nil || l.Tasks == nil {
				t.Fatalf("list(%s) = %s", s, res)
			}
		}
		stamped := withRelatedTask(raw, "T")
		var m struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		var rt struct {
			TaskID string `json:"taskId"`
		}
		if json.Unmarshal(stamped, &m) != nil || json.Unmarshal(m.Meta[wire.MetaRelatedTask], &rt) != nil || rt.TaskID != "T" {
			t.Fatalf("withRelatedTask(%s) = %s", s, stamped)
		}
		if p, err := (Root{URI: s}).Path(); err == nil {
			if r, err := RootFor(p, "", ""); err != nil || r.URI == "" {
				t.Fatalf("Path(%q) = %q, which RootFor refuses: %v", s, p, err)
			}
		}
	})
}
