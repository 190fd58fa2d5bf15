package rpcpeer_test

import (
	"testing"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
	"github.com/elicit-dev/elicit/transport/rpcpeer"
)

type req struct{ method string }

func TestTableFates(t *testing.T) {
	tb := rpcpeer.NewTable[*req](1, 2)
	a, b := &req{"tools/call"}, &req{"ping"}
	ida, idb := tb.Add(a), tb.Add(b)
	if ida != jsonrpc.IntID(1) || idb != jsonrpc.IntID(2) {
		t.Fatalf("ids %v %v, want 1 2", ida, idb)
	}
	if v, fate, _ := tb.Resolve(ida); fate != rpcpeer.Waiting || v != a {
		t.Fatalf("first response: %v %v, want waiting a", v, fate)
	}
	if _, fate, _ := tb.Resolve(ida); fate != rpcpeer.Stray {
		t.Fatalf("duplicate response: %v, want stray", fate)
	}
	if _, fate, _ := tb.Resolve(jsonrpc.StringID("never")); fate != rpcpeer.Stray {
		t.Fatalf("unknown id: %v, want stray", fate)
	}
	if !tb.GiveUp(idb, b, b.method) {
		t.Fatal("GiveUp of a waiting request said it was not waiting")
	}
	if tb.GiveUp(idb, b, b.method) {
		t.Fatal("a second GiveUp said it was waiting")
	}
	if _, fate, m := tb.Resolve(idb); fate != rpcpeer.Late || m != "ping" {
		t.Fatalf("answer after GiveUp: %v %q, want late ping", fate, m)
	}
	if _, fate, _ := tb.Resolve(idb); fate != rpcpeer.Stray {
		t.Fatalf("second late answer: %v, want stray", fate)
	}
	if tb.Len() != 0 {
		t.Fatalf("Len %d, want 0", tb.Len())
	}
}

func TestTableForgetsOnlyItsOwn(t *testing.T) {
	tb := rpcpeer.NewTable[*req](0, 8)
	a := &req{"a"}
	id := tb.Add(a)
	tb.Forget(id, &req{"other"})
	if v, ok := tb.Get(id); !ok || v != a {
		t.Fatal("Forget of another value dropped the waiting request")
	}
	if tb.GiveUp(id, &req{"other"}, "other") {
		t.Fatal("GiveUp of another value took the waiting request")
	}
	tb.Forget(id, a)
	if _, fate, _ := tb.Resolve(id); fate != rpcpeer.Stray {
		t.Fatalf("answer after Forget: %v, want stray (not remembered)", fate)
	}
}

// The ids given up on are bounded: past lateMax they are forgotten, and a
// late answer is then a stray, never a leak.
func TestTableLateBounded(t *testing.T) {
	tb := rpcpeer.NewTable[*req](0, 2)
	var ids []jsonrpc.ID
	for range 3 {
		r := &req{"x"}
		id := tb.Add(r)
		tb.GiveUp(id, r, "x")
		ids = append(ids, id)
	}
	if _, fate, _ := tb.Resolve(ids[0]); fate != rpcpeer.Stray {
		t.Fatalf("oldest given up past the bound: %v, want stray", fate)
	}
	if _, fate, _ := tb.Resolve(ids[2]); fate != rpcpeer.Late {
		t.Fatalf("newest given up: %v, want late", fate)
	}
}

func TestTableDrainAndAll(t *testing.T) {
	tb := rpcpeer.NewTable[*req](0, 8)
	tb.Add(&req{"a"})
	tb.Add(&req{"b"})
	n := 0
	for range tb.All() {
		n++
	}
	if n != 2 {
		t.Fatalf("All yielded %d, want 2", n)
	}
	if got := tb.Drain(); len(got) != 2 || tb.Len() != 0 {
		t.Fatalf("Drain gave %d and left %d, want 2 and 0", len(got), tb.Len())
	}
}
