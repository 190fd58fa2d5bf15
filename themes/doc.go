// Package themes holds elicit's look and the one gate through which server
// text reaches the terminal.
//
// It is a leaf over lipgloss, huh and x/ansi: it must not import client,
// transport, forms or ui. Colours come from a Palette of semantic tokens;
// the named themes, the lipgloss Styles for each part of the UI and the huh
// form theme are all built from one Palette, for a dark or a light
// background.
//
// # Server text
//
// Everything a server sends (elicitation messages, titles, descriptions,
// enum labels, tool descriptions, log lines, error messages) is untrusted.
// It must go through [Sanitize], or [SanitizeLine] in one-line contexts,
// before it is rendered. They neutralise terminal escape sequences (colour
// codes, OSC 52 clipboard writes, OSC 8 links, title changes), cursor
// tricks with CR and BS, C1 controls, bidi overrides and invalid UTF-8 by
// replacing them with visible stand-ins such as "␛" and "<U+202E>", so an
// attack is shown rather than silently hidden or executed.
//
// Everything in this package is safe for concurrent use: there is no
// package-level mutable state.
package themes
