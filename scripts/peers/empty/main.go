// Command empty does nothing: the floor for the start-up row of
// scripts/bench-peers ("elicit version" against a Go program that only
// starts and exits).
package main

func main() {}
