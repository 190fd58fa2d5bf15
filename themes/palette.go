package themes

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Pair is one semantic colour in its light-background and dark-background
// variants.
type Pair struct {
	Light, Dark color.Color
}

// Same returns a Pair that uses c on both backgrounds.
func Same(c color.Color) Pair { return Pair{Light: c, Dark: c} }

// Hex returns a Pair from two colour strings as lipgloss.Color reads them
// ("#5A56E0", "63").
func Hex(light, dark string) Pair {
	return Pair{Light: lipgloss.Color(light), Dark: lipgloss.Color(dark)}
}

// pick returns the variant for the background.
func (p Pair) pick(isDark bool) color.Color {
	if isDark {
		return p.Dark
	}
	return p.Light
}

// Palette is the set of semantic colours a theme is made of. Components
// never name a colour; they use the Styles built from a Palette, so every
// theme styles every part of the UI the same way.
type Palette struct {
	// Name is what Lookup finds the theme by.
	Name string
	// Text is ordinary text; Muted is secondary text (descriptions, times);
	// Subtle is borders and separators.
	Text, Muted, Subtle Pair
	// Accent marks focus and titles; Highlight marks the selected choice,
	// keys in help, and hosts in URLs.
	Accent, Highlight Pair
	// Success, Warning, Error and Info colour states and outcomes.
	Success, Warning, Error, Info Pair
	// Surface is the background of bars and the selected row; OnSurface is
	// text drawn on it.
	Surface, OnSurface Pair
}
