package forms

import "charm.land/huh/v2"

// cachedTheme builds huh's styles once per background instead of on every
// style lookup: huh v2 calls Theme(isDark) for each field it renders, and
// the built-in themes rebuild every style on each call (a third of the CPU
// of a frame; ui/AGENTS.md, charm v2 facts: theme cost).
//
// It is owned by one Form and used only from that form's Update and View,
// which the bubbletea event loop never runs concurrently.
type cachedTheme struct {
	base        huh.Theme
	dark, light *huh.Styles
}

// Theme implements huh.Theme.
func (c *cachedTheme) Theme(isDark bool) *huh.Styles {
	if isDark {
		if c.dark == nil {
			c.dark = c.base.Theme(true)
		}
		return c.dark
	}
	if c.light == nil {
		c.light = c.base.Theme(false)
	}
	return c.light
}

// defaultTheme is the theme used when Options.Theme is nil.
func defaultTheme() huh.Theme {
	return &cachedTheme{base: huh.ThemeFunc(huh.ThemeCharm)}
}

// themeSwitch is the theme every field of a Form holds. huh keeps the
// first theme a field is given and ignores later WithTheme calls, so the
// form hands out this indirection once and SetTheme changes what it
// points to.
type themeSwitch struct{ cur huh.Theme }

// Theme implements huh.Theme.
func (t *themeSwitch) Theme(isDark bool) *huh.Styles { return t.cur.Theme(isDark) }
