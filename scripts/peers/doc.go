// Package peers holds the programs behind scripts/bench-peers: a bench
// server (benchserver), other clients doing the same work as elicit's
// headless commands (gosdk: go-sdk's client; mcpgo: mcp-go's; the
// TypeScript SDK's is ts/client.mjs, run by node), an empty Go program
// (empty, the start-up floor) and the paired whole-process driver (pair).
// It is a module of its own so that the peers are built from the module
// proxy at the versions named here, apart from elicit's build, and so
// that nothing in it is linked into elicit.
package peers
