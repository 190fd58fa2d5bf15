// Package peers holds the programs behind scripts/bench-peers: a bench
// server (benchserver), the go-sdk client doing the same work as elicit's
// headless commands (gosdk), and the paired whole-process driver (pair).
// It is a module of its own so that go-sdk's client is built from the
// module proxy at the version named here, apart from elicit's build, and
// so that nothing in it is linked into elicit.
package peers
