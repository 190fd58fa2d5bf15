package record

import (
	"encoding/json"
	"fmt"

	"github.com/elicit-dev/elicit/client/wire"
)

// The settings line names what a replay starts: the servers' and
// agents' commands and URLs. A person reading the file (a bug report, a
// pull request) must see what a replay would get, so what lets one thing
// be read and another run is refused: a member given twice (encoding/json
// keeps the last, and takes "Command" for "command"), two servers or
// agents of one name (a replay keeps one), a second settings line (Read).

// checkSettings refuses a settings line that says a thing twice.
func checkSettings(line []byte) error {
	d, err := wire.FindDuplicate(line, func(_ []string, name string) string { return wire.FoldName(name) }) // every object of it is a struct
	if err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if d != nil {
		where := "the settings"
		if len(d.Path) > 0 {
			where = d.Pointer()
		}
		if d.First == d.Second {
			return fmt.Errorf("%q is given twice in %s: JSON keeps only the last, silently", d.First, where)
		}
		return fmt.Errorf("%q and %q in %s are one member (names are read regardless of case): only the last would count", d.First, d.Second, where)
	}
	var s struct {
		Servers []struct{ Name string } `json:"servers"`
		Agents  []struct{ Name string } `json:"agents"`
	}
	if err := json.Unmarshal(line, &s); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	seen := map[string]string{}
	for _, l := range []struct {
		what  string
		names []struct{ Name string }
	}{{"server", s.Servers}, {"agent", s.Agents}} {
		for _, n := range l.names {
			switch prev := seen[n.Name]; {
			case prev == l.what:
				return fmt.Errorf("two %ss named %q: a replay would keep one", l.what, n.Name)
			case prev != "":
				return fmt.Errorf("a %s and an %s named %q: the calls name one of them", prev, l.what, n.Name)
			}
			seen[n.Name] = l.what
		}
	}
	return nil
}
