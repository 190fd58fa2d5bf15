package main

import "github.com/elicit-dev/elicit/themes"

// sanitizeLine makes server text safe to print on a terminal.
func sanitizeLine(s string) string { return themes.SanitizeLine(s) }
