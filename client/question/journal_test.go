package question_test

import (
	"sync"
	"testing"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/google/go-cmp/cmp"
)

func TestJournalBoundedWithExactCounts(t *testing.T) {
	t.Parallel()
	j := question.NewJournal(10)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 250 {
				server := "a"
				if w%2 == 1 {
					server = "b"
				}
				j.Record(question.JournalEntry{
					Key:    question.Key{Server: server, RequestID: jsonrpc.IntID(int64(w*1000 + i))},
					Server: server,
					Kind:   question.OutcomeKinds[i%len(question.OutcomeKinds)],
				})
			}
		})
	}
	wg.Wait()
	if n := len(j.Entries()); n != 10 {
		t.Errorf("kept %d entries, want 10", n)
	}
	c := j.Counts()
	if c.Total() != 1000 {
		t.Errorf("total %d", c.Total())
	}
	// 250 per worker over n kinds: one more of the first 250%n kinds.
	n := len(question.OutcomeKinds)
	for i, k := range question.OutcomeKinds {
		want := 4 * (250 / n)
		if i < 250%n {
			want = 4 * (250/n + 1)
		}
		if c[k] != want {
			t.Errorf("%v: %d, want %d", k, c[k], want)
		}
	}
	bs := j.CountsByServer()
	if bs["a"].Total() != 500 || bs["b"].Total() != 500 {
		t.Errorf("by server %v", bs)
	}
}

func TestRing(t *testing.T) {
	t.Parallel()
	r := question.NewRing[int](3)
	for i := range 5 {
		r.Push(i)
	}
	if got := r.Items(); !cmp.Equal(got, []int{2, 3, 4}) {
		t.Errorf("items %v", got)
	}
	if r.Len() != 3 || r.Dropped() != 2 {
		t.Errorf("len %d dropped %d", r.Len(), r.Dropped())
	}
}

func TestJournalPermissionCountsByAgent(t *testing.T) {
	j := question.NewJournal(2) // the ring is small; the counts stay exact
	for _, e := range []question.JournalEntry{
		{Server: "a", Asked: question.KindPermission, Kind: question.Accept, Bucket: question.OptionAllowOnce},
		{Server: "a", Asked: question.KindPermission, Kind: question.Abandoned, Bucket: question.BucketCancelled},
		{Server: "b", Asked: question.KindPermission, Kind: question.Withdrawn, Bucket: question.BucketWithdrawn},
		{Server: "a", Asked: question.KindElicitation, Kind: question.Cancel},
	} {
		j.Record(e)
	}
	got := j.PermissionCountsByServer()
	if len(got) != 2 || got["a"][question.OptionAllowOnce] != 1 || got["a"][question.BucketCancelled] != 1 || got["b"][question.BucketWithdrawn] != 1 || len(got["a"]) != 2 {
		t.Fatalf("by agent: %v", got)
	}
	if j.CountsByServer()["a"][question.Cancel] != 1 || j.PermissionCounts()[question.OptionAllowOnce] != 1 {
		t.Fatalf("elicitation %v, permission %v", j.CountsByServer(), j.PermissionCounts())
	}
	got["a"][question.OptionAllowOnce] = 9
	if j.PermissionCountsByServer()["a"][question.OptionAllowOnce] != 1 {
		t.Fatal("the counts returned are the journal's own")
	}
}
