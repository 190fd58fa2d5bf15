package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client"
)

// cycleServer returns the server after cur in the status bar's order,
// wrapping; the first server when cur is unknown.
func cycleServer(servers []ServerStatus, cur string) string {
	if len(servers) == 0 {
		return ""
	}
	for i, s := range servers {
		if s.Name == cur {
			return servers[(i+1)%len(servers)].Name
		}
	}
	return servers[0].Name
}

// serverCaps is what server declared, as the status bar last heard.
func serverCaps(servers []ServerStatus, name string) client.ServerCapabilities {
	for _, s := range servers {
		if s.Name == name {
			return s.Caps
		}
	}
	return client.ServerCapabilities{}
}

// firstServer is the server a browsing view starts on.
func firstServer(servers []ServerStatus, cur string) string {
	if cur != "" || len(servers) == 0 {
		return cur
	}
	return servers[0].Name
}

// listTop is the first row of a list of n rows shown in rows lines with
// the cursor kept near the middle.
func listTop(cursor, rows, n int) int {
	return clamp(cursor-rows/2, 0, max(n-rows, 0))
}

// moveCursor applies a list key to cursor over n rows of which page are
// visible; it reports whether k was a list key.
func moveCursor(km keyMap, k tea.KeyPressMsg, cursor *int, n, page int) bool {
	switch {
	case key.Matches(k, km.Up):
		*cursor--
	case key.Matches(k, km.Down):
		*cursor++
	case key.Matches(k, km.PageUp):
		*cursor -= page
	case key.Matches(k, km.PageDown):
		*cursor += page
	case key.Matches(k, km.Top):
		*cursor = 0
	case key.Matches(k, km.Bottom):
		*cursor = n - 1
	default:
		return false
	}
	*cursor = clamp(*cursor, 0, max(n-1, 0))
	return true
}
