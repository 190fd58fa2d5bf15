package themes

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"charm.land/lipgloss/v2"
)

// Charm is the Charm palette (the default).
func Charm() Palette {
	return Palette{
		Name:      "charm",
		Text:      Hex("235", "252"),
		Muted:     Hex("243", "245"),
		Subtle:    Hex("250", "238"),
		Accent:    Hex("#5A56E0", "#7571F9"),
		Highlight: Hex("#F780E2", "#F780E2"),
		Success:   Hex("#02BA84", "#02BF87"),
		Warning:   Hex("#C77700", "#F2C94C"),
		Error:     Hex("#FF4672", "#ED567A"),
		Info:      Hex("#0A7BCA", "#6EC1FF"),
		Surface:   Hex("254", "236"),
		OnSurface: Hex("235", "254"),
	}
}

// Dracula is the Dracula palette; it is a dark theme on both backgrounds,
// like huh's.
func Dracula() Palette {
	return Palette{
		Name:      "dracula",
		Text:      Hex("#282a36", "#f8f8f2"),
		Muted:     Same(lipgloss.Color("#6272a4")),
		Subtle:    Hex("#bfc3d6", "#44475a"),
		Accent:    Hex("#7c4dcc", "#bd93f9"),
		Highlight: Hex("#c0498f", "#ff79c6"),
		Success:   Hex("#1f9e45", "#50fa7b"),
		Warning:   Hex("#a68a00", "#f1fa8c"),
		Error:     Same(lipgloss.Color("#ff5555")),
		Info:      Hex("#1b8fa6", "#8be9fd"),
		Surface:   Hex("#e6e6f0", "#44475a"),
		OnSurface: Hex("#282a36", "#f8f8f2"),
	}
}

// Catppuccin is Catppuccin Latte on light backgrounds and Mocha on dark.
func Catppuccin() Palette {
	return Palette{
		Name:      "catppuccin",
		Text:      Hex("#4c4f69", "#cdd6f4"),
		Muted:     Hex("#6c6f85", "#a6adc8"),
		Subtle:    Hex("#9ca0b0", "#6c7086"),
		Accent:    Hex("#8839ef", "#cba6f7"),
		Highlight: Hex("#ea76cb", "#f5c2e7"),
		Success:   Hex("#40a02b", "#a6e3a1"),
		Warning:   Hex("#df8e1d", "#f9e2af"),
		Error:     Hex("#d20f39", "#f38ba8"),
		Info:      Hex("#1e66f5", "#89b4fa"),
		Surface:   Hex("#ccd0da", "#313244"),
		OnSurface: Hex("#4c4f69", "#cdd6f4"),
	}
}

// Base16 uses the terminal's own 16 ANSI colours, so it follows whatever
// scheme the terminal is set to.
func Base16() Palette {
	return Palette{
		Name:      "base16",
		Text:      Same(lipgloss.Color("7")),
		Muted:     Same(lipgloss.Color("8")),
		Subtle:    Same(lipgloss.Color("8")),
		Accent:    Same(lipgloss.Color("6")),
		Highlight: Same(lipgloss.Color("3")),
		Success:   Same(lipgloss.Color("2")),
		Warning:   Same(lipgloss.Color("3")),
		Error:     Same(lipgloss.Color("9")),
		Info:      Same(lipgloss.Color("4")),
		Surface:   Same(lipgloss.Color("0")),
		OnSurface: Same(lipgloss.Color("15")),
	}
}

// HighContrast is black and white with pure primaries, for low vision and
// bright rooms.
func HighContrast() Palette {
	return Palette{
		Name:      "high-contrast",
		Text:      Hex("#000000", "#ffffff"),
		Muted:     Hex("#000000", "#ffffff"),
		Subtle:    Hex("#000000", "#ffffff"),
		Accent:    Hex("#0000cc", "#ffff00"),
		Highlight: Hex("#cc00cc", "#00ffff"),
		Success:   Hex("#006600", "#00ff00"),
		Warning:   Hex("#884400", "#ffaa00"),
		Error:     Hex("#cc0000", "#ff5555"),
		Info:      Hex("#0000cc", "#55aaff"),
		Surface:   Hex("#000000", "#ffffff"),
		OnSurface: Hex("#ffffff", "#000000"),
	}
}

// palettes lists the built-in palettes by name. It is a function, not a
// variable, so there is no package-level mutable state.
func palettes() map[string]func() Palette {
	return map[string]func() Palette{
		"charm":         Charm,
		"dracula":       Dracula,
		"catppuccin":    Catppuccin,
		"base16":        Base16,
		"high-contrast": HighContrast,
	}
}

// Names returns the built-in theme names, sorted.
func Names() []string {
	m := palettes()
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Lookup returns the named built-in theme ("" means charm). It honours
// NO_COLOR (https://no-color.org): when the variable is set and not empty
// the theme draws no colours at all, only bold, underline and reverse.
func Lookup(name string) (*Theme, error) {
	return LookupEnv(name, os.Getenv)
}

// LookupEnv is Lookup with the environment supplied, for tests.
func LookupEnv(name string, getenv func(string) string) (*Theme, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	if key == "" {
		key = "charm"
	}
	f, ok := palettes()[key]
	if !ok {
		return nil, fmt.Errorf("themes: unknown theme %q (have %s)", name, strings.Join(Names(), ", "))
	}
	return New(f(), Options{NoColor: getenv("NO_COLOR") != ""}), nil
}
