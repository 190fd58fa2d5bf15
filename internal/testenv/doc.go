// Package testenv is what tests share about the machine they run on: a
// test that needs a peer or tool the machine lacks (tmux, Node, an npm
// package, the conformance suite) skips when run by hand, and fails under
// CI (CI=true), where .ci/run installs them all, so that CI cannot be
// green with those tests left out.
//
// Only tests import it (cmd/elicit/layers_test.go); it imports nothing of
// ours.
package testenv
