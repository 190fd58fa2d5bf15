package headless

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/elicit-dev/elicit/cmd/elicit/internal/exit"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/jsontext"
)

// argsObject reads --args, which must be one JSON object (numbers kept as
// json.Number, so big integers are sent as written). Text that is not
// JSON gets the parser's reason and where it stopped; JSON that is no
// object says what it is instead.
func argsObject(text string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil && dec.More() {
		_, err = dec.Token()
		if err == nil {
			err = errors.New("more follows the object: give one JSON object")
		}
	}
	if err != nil {
		return nil, exit.Usagef("--args is not valid JSON: %s", jsontext.Where(text, err))
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, exit.Usagef(`--args must be a JSON object, not %s, e.g. --args '{"title":"x"}'`, jsontext.Kind(v))
	}
	return m, nil
}

// argsStrings reads --args of a prompt: a JSON object of strings.
func argsStrings(text string) (map[string]string, error) {
	m, err := argsObject(text)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		s, ok := m[k].(string)
		if !ok {
			return nil, exit.Usagef(`--args must be a JSON object of strings: %q is %s, e.g. --args '{"name":"Ada"}'`, k, jsontext.Kind(m[k]))
		}
		out[k] = s
	}
	return out, nil
}
