package demo

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestStateCodec: a sealed state opens only with the key, tool and
// arguments it was sealed for, within its lifetime and round limit.
func TestStateCodec(t *testing.T) {
	t.Parallel()
	c := newStateCodec()
	now := time.Unix(1_800_000_000, 0)
	payload := statePayload{Format: stateFormat, Tool: "wizard", Args: "digest", Round: 1, Issued: now.Unix(),
		Data: json.RawMessage(`{"environment":"staging"}`)}
	seal := func(p statePayload) string {
		s, err := c.seal(p)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	good := seal(payload)

	p, err := c.open(good, "wizard", "digest", now.Add(time.Minute))
	if err != nil || string(p.Data) != `{"environment":"staging"}` || p.Round != 1 {
		t.Fatalf("open = %+v, %v", p, err)
	}

	late, many := payload, payload
	late.Issued = now.Add(-stateTTL - time.Second).Unix()
	many.Round = maxRounds
	cases := []struct {
		name, state, tool, args string
		want                    string
	}{
		{"other key", func() string { s, _ := newStateCodec().seal(payload); return s }(), "wizard", "digest", "not issued by this server"},
		{"truncated", good[:len(good)-1], "wizard", "digest", "not issued by this server"},
		{"no signature", strings.Split(good, ".")[0], "wizard", "digest", "not issued by this server"},
		{"other tool", good, "deploy", "digest", `issued for the tool "wizard"`},
		{"other arguments", good, "wizard", "other", "other arguments"},
		{"expired", seal(late), "wizard", "digest", "expired"},
		{"too many rounds", seal(many), "wizard", "digest", "rounds"},
		{"huge", strings.Repeat("a", maxStateLen+1), "wizard", "digest", "bytes long"},
	}
	for _, tc := range cases {
		_, err := c.open(tc.state, tc.tool, tc.args, now)
		if !errors.Is(err, errStateRefused) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestArgsDigest: equal arguments digest alike whatever their key order;
// different ones do not.
func TestArgsDigest(t *testing.T) {
	t.Parallel()
	var a, b any
	_ = json.Unmarshal([]byte(`{"x":1,"y":"z"}`), &a)
	_ = json.Unmarshal([]byte(`{ "y": "z", "x": 1 }`), &b)
	da, _ := argsDigest(a)
	db, _ := argsDigest(b)
	dc, _ := argsDigest(map[string]any{"x": 2, "y": "z"})
	if da != db || da == dc {
		t.Errorf("digests %s %s %s", da, db, dc)
	}
}

// TestCheckAnswer covers the checks the 2026-07-28 era relies on, and the
// defaults it fills in.
func TestCheckAnswer(t *testing.T) {
	t.Parallel()
	schema := json.RawMessage(showcaseSchemaJSON)
	got, err := checkAnswer(schema, map[string]any{
		"name": "Ada", "email": "ada@example.com", "age": float64(36), "color": "red", "languages": []any{"go"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got["size"] != "m" || got["color"] != "red" || got["subscribe"] != true {
		t.Errorf("defaults not filled in, or answers overwritten: %v", got)
	}
	base := ShowcaseDefaults()
	for name, change := range map[string][2]any{
		"integer with a fraction": {"age", 36.5},
		"number above maximum":    {"rating", float64(6)},
		"string for a number":     {"age", "36"},
		"bad uri":                 {"website", "no scheme here"},
		"bad date":                {"birthday", "1815-13-10"},
		"bad date-time":           {"meeting", "tomorrow"},
		"enumNames value":         {"plan", "Pro"},
		"unknown anyOf item":      {"toppings", []any{"pineapple"}},
		"empty multi-select":      {"languages", []any{}},
		"boolean as string":       {"subscribe", "yes"},
		"name too long":           {"name", strings.Repeat("é", 41)},
	} {
		content := ShowcaseDefaults()
		content[change[0].(string)] = change[1]
		if _, err := checkAnswer(schema, content); err == nil {
			t.Errorf("%s: accepted %v", name, change[1])
		}
	}
	if _, err := checkAnswer(schema, base); err != nil {
		t.Errorf("the defaults themselves are refused: %v", err)
	}
}
