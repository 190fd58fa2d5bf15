package client

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHeaderValue: go-sdk's unmarshalPrimitive and primitiveToString, case
// by case. The end-to-end twin (TestParamHeaderValuesAgainstGoSDK) checks
// the same values against a go-sdk server's own verdict.
func TestHeaderValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		raw  string
		want string
		ok   bool
	}{
		{`"us-west1"`, "us-west1", true},
		{`"Zürich"`, "Zürich", true}, // the transport base64-encodes it
		{`" padded "`, " padded ", true},
		{`""`, "", true},
		{`"42"`, "42", true},
		{`true`, "true", true},
		{`false`, "false", true},
		{`42`, "42", true},
		{`-7`, "-7", true},
		{`0`, "0", true},
		{`-0`, "0", true},
		{`1.0`, "1", true},
		{`1e3`, "1000", true},
		{`9007199254740991`, "9007199254740991", true},
		{`-9007199254740991`, "-9007199254740991", true},
		{`9007199254740992`, "", false}, // past 2^53-1
		{`-9007199254740993`, "", false},
		{`1e300`, "", false},
		{`2.5`, "", false},
		{`-0.1`, "", false},
		{`null`, "", false},
		{`{}`, "", false},
		{`{"a":1}`, "", false},
		{`["a"]`, "", false},
		{`nonsense`, "", false},
	} {
		got, ok := headerValue(json.RawMessage(tc.raw))
		if got != tc.want || ok != tc.ok {
			t.Errorf("headerValue(%s) = %q, %v; want %q, %v", tc.raw, got, ok, tc.want, tc.ok)
		}
	}
}

func TestToolBindings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		schema string
		want   []headerBinding
		err    string // part of the error; "" for none
	}{
		{"none", `{"type":"object","properties":{"a":{"type":"string"}}}`, nil, ""},
		{"not an object", `"string"`, nil, ""},
		{"no properties", `{"type":"object"}`, nil, ""},
		{"top level", `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`,
			[]headerBinding{{[]string{"region"}, "Region"}}, ""},
		{"nested, sorted by header", `{"type":"object","properties":{
			"target":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"},
				"deep":{"type":"object","properties":{"n":{"type":"integer","x-mcp-header":"N"}}}}},
			"dry":{"type":"boolean","x-mcp-header":"Dry-Run"}}}`,
			[]headerBinding{{[]string{"dry"}, "Dry-Run"}, {[]string{"target", "deep", "n"}, "N"}, {[]string{"target", "zone"}, "Zone"}}, ""},
		{"root annotation is not a property", `{"type":"object","x-mcp-header":"Root","properties":{}}`, nil, ""},
		{"under items is not reached", `{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string","x-mcp-header":"Id"}}}}`, nil, ""},
		{"under anyOf is not reached", `{"type":"object","properties":{"t":{"anyOf":[{"type":"string","x-mcp-header":"T"}]}}}`, nil, ""},
		{"another property's type list hides nothing",
			`{"type":"object","properties":{"opt":{"type":["string","null"]},"region":{"type":"string","x-mcp-header":"Region"}}}`,
			[]headerBinding{{[]string{"region"}, "Region"}}, ""},
		{"number", `{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}`, nil, `"n", of type "number"`},
		{"object", `{"type":"object","properties":{"o":{"type":"object","x-mcp-header":"O"}}}`, nil, "only string, integer and boolean"},
		{"no type", `{"type":"object","properties":{"r":{"x-mcp-header":"R"}}}`, nil, "of type none"},
		{"type list", `{"type":"object","properties":{"r":{"type":["string","null"],"x-mcp-header":"R"}}}`, nil, "only string"},
		{"empty name", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":""}}}`, nil, "not a non-empty string"},
		{"null name", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":null}}}`, nil, "not a non-empty string"},
		{"number name", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":5}}}`, nil, "not a non-empty string"},
		{"space in name", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"Region Name"}}}`, nil, "not an HTTP header name"},
		{"CRLF in name", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"R\r\nX-Evil: 1"}}}`, nil, "not an HTTP header name"},
		{"non-ASCII name", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"Région"}}}`, nil, "not an HTTP header name"},
		{"duplicate ignoring case", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region"},
			"b":{"type":"object","properties":{"c":{"type":"string","x-mcp-header":"REGION"}}}}}`, nil, `"a" and "b.c"`},
	} {
		got, err := toolBindings(json.RawMessage(tc.schema))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: error %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.err)
		}
		if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(headerBinding{})); diff != "" {
			t.Errorf("%s: bindings (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestMirror(t *testing.T) {
	t.Parallel()
	b := []headerBinding{
		{[]string{"region"}, "Region"},
		{[]string{"target", "zone"}, "Zone"},
		{[]string{"replicas"}, "Replicas"},
		{[]string{"dry"}, "Dry-Run"},
	}
	args := func(s string) map[string]json.RawMessage {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, tc := range []struct {
		args string
		want map[string]string
	}{
		{`{"region":"eu-west1","target":{"zone":"b"},"replicas":3,"dry":false}`,
			map[string]string{"Mcp-Param-Region": "eu-west1", "Mcp-Param-Zone": "b", "Mcp-Param-Replicas": "3", "Mcp-Param-Dry-Run": "false"}},
		// Absent and null get no header; so does a value of another kind.
		{`{"region":null,"replicas":2.5,"dry":true}`, map[string]string{"Mcp-Param-Dry-Run": "true"}},
		{`{"target":null}`, nil},
		{`{"target":"zone"}`, nil},
		{`{"target":{"zone":{"x":1}}}`, nil},
		{`{}`, nil},
	} {
		if diff := cmp.Diff(tc.want, mirror(b, args(tc.args))); diff != "" {
			t.Errorf("mirror(%s) (-want +got):\n%s", tc.args, diff)
		}
	}
}
