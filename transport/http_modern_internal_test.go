package transport

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// The spec's value encoding table, and the edges around it.
func TestHTTPHeaderValue(t *testing.T) {
	for in, want := range map[string]string{
		"us-west1":           "us-west1",
		"Hello, 世界":          "=?base64?SGVsbG8sIOS4lueVjA==?=",
		" padded ":           "=?base64?IHBhZGRlZCA=?=",
		"line1\nline2":       "=?base64?bGluZTEKbGluZTI=?=",
		"=?base64?literal?=": "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
		"tab\tinside":        "=?base64?dGFiCWluc2lkZQ==?=",
		"del\x7f":            "=?base64?ZGVsfw==?=",
		"inner space ok":     "inner space ok",
		"=?base64?only":      "=?base64?only",
		"":                   "",
		"42":                 "42",
	} {
		if got := httpHeaderValue(in); got != want {
			t.Errorf("httpHeaderValue(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValidHeaderName(t *testing.T) {
	for name, want := range map[string]bool{
		"Mcp-Param-Region": true, "Mcp-Param-x_y.z~1": true, "": false,
		"Bad Name": false, "Bad:Name": false, "Bad\r\nX": false, "Ünï": false,
	} {
		if got := ValidHeaderName(name); got != want {
			t.Errorf("ValidHeaderName(%q) = %v", name, got)
		}
	}
}

func TestHTTPPeekParams(t *testing.T) {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`
	for _, c := range []struct {
		method, params string
		version, name  string
		hasName        bool
	}{
		{"tools/call", `{` + meta + `,"name":"t"}`, "2026-07-28", "t", true},
		{"prompts/get", `{"name":"p"}`, "", "p", true},
		{"resources/read", `{"uri":"file:///x","name":"no"}`, "", "file:///x", true},
		{"tasks/update", `{"taskId":"k"}`, "", "k", true},
		{"tools/list", `{` + meta + `,"name":"t"}`, "2026-07-28", "", false},
		{"tools/call", `{"name":7,` + meta + `}`, "2026-07-28", "", false},
		{"tools/call", `{"_meta":[],"name":"t"}`, "", "t", true},
		{"tools/call", `{"_meta":{"io.modelcontextprotocol/protocolVersion":2026}}`, "", "", false},
		{"tools/call", `[1,2]`, "", "", false},
		{"tools/call", `{broken`, "", "", false},
		{"tools/call", ``, "", "", false},
	} {
		v, n, ok := httpPeekParams(c.method, json.RawMessage(c.params))
		if v != c.version || n != c.name || ok != c.hasName {
			t.Errorf("%s %s = %q %q %v, want %q %q %v", c.method, c.params, v, n, ok, c.version, c.name, c.hasName)
		}
	}
}

func TestHTTPBodyError(t *testing.T) {
	id := jsonrpc.IntID(3)
	for body, want := range map[string]int64{
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32020,"message":"m"}}`:                    -32020,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"m"}}`:                 -32022,
		`{"jsonrpc":"2.0","error":{"code":-32601,"message":"m"}}`:                           -32601,
		"\xEF\xBB\xBF" + `{"jsonrpc":"2.0","id":3.0,"error":{"code":-32021,"message":"m"}}`: -32021,
		`{"jsonrpc":"2.0","id":"3","error":{"code":-32020,"message":"m"}}`:                  0, // another id
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32020,"message":"m"}}`:                    0,
		`{"jsonrpc":"1.0","id":3,"error":{"code":-32020,"message":"m"}}`:                    0,
		`{"jsonrpc":"2.0","id":3,"result":{}}`:                                              0,
		`{"jsonrpc":"2.0","id":3,"error":{"code":1.5,"message":"m"}}`:                       0,
		`{"jsonrpc":"2.0","id":3,"error":null}`:                                             0,
		`{"jsonrpc":"2.0","id":3,"method":"x","error":{"code":1,"message":""}}`:             0,
		`Bad Request`: 0,
		``:            0,
	} {
		e := httpBodyError([]byte(body), id)
		switch {
		case want == 0 && e != nil:
			t.Errorf("%s: got %v, want none", body, e)
		case want != 0 && (e == nil || e.Code != want):
			t.Errorf("%s: got %v, want code %d", body, e, want)
		}
	}
}

func TestSameOrigin(t *testing.T) {
	base, _ := url.Parse("http://Example.com/sse")
	for raw, want := range map[string]bool{
		"http://example.com:80/m": true, "http://EXAMPLE.com/m?x=1": true,
		"https://example.com/m": false, "http://example.com:8080/m": false, "http://other.com/m": false,
	} {
		u, _ := url.Parse(raw)
		if got := sameOrigin(base, u); got != want {
			t.Errorf("sameOrigin(%s, %s) = %v", base, raw, got)
		}
	}
}
