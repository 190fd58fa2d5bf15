// Package themes holds elicit's look.
//
// It is a leaf over lipgloss, huh and x/ansi: it must not import client,
// transport, forms or ui. Colours come from a Palette of semantic tokens;
// the named themes, the lipgloss Styles for each part of the UI and the huh
// form theme are all built from one Palette, for a dark or a light
// background.
//
// # Server text
//
// Everything a server sends is untrusted and reaches the terminal only
// through package themes/untrusted ([untrusted.Text], [untrusted.Line]).
//
// Everything in this package is safe for concurrent use: there is no
// package-level mutable state.
package themes
