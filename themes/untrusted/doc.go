// Package untrusted is the one gate through which a peer's text (an MCP
// server's, an ACP agent's: messages, titles, descriptions, labels, log
// lines, error messages, results) reaches a terminal, in the TUI and on
// stdout/stderr alike. Text and Line neutralise terminal escape sequences
// (colour codes, OSC 52 clipboard writes, OSC 8 links, title changes),
// cursor tricks with CR and BS, C1 controls, bidi overrides and invalid
// UTF-8 by replacing them with visible stand-ins such as "␛" and
// "<U+202E>", so an attack is shown rather than silently hidden or
// executed.
//
// It is a leaf on the standard library alone, so the headless CLI prints
// safely without importing charm. It has no state.
package untrusted
