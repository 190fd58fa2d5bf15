package lint

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/client/findings"
)

// InputUndeclared reads an inputRequests entry's method by exact name, as
// the engine reads the entry (client's inputEntry): a "Method" is not the
// method, and only the two kinds a client may leave undeclared count.
func TestInputUndeclaredReadsTheMethodByExactName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		entry string
		want  string // the finding's detail, "" for none
	}{
		{`{"method":"sampling/createMessage","params":{}}`, "an input request sampling/createMessage needs sampling, which the client did not declare in 2026-07-28"},
		{`{"method":"roots/list"}`, "an input request roots/list needs roots, which the client did not declare in 2026-07-28"},
		{`{"Method":"sampling/createMessage"}`, ""},
		{`{"method":"elicitation/create"}`, ""},
		{`{"method":7}`, ""},
		{`{}`, ""},
		{`[]`, ""},
		{`{"method":"roots/list"`, ""},
	} {
		caps := map[string]string{"sampling/createMessage": "sampling", "roots/list": "roots"}
		rec := findings.NewRecorder(nil)
		l := New(rec, Handle{
			Server:       "s",
			Protocol:     func() string { return "2026-07-28" },
			CapabilityOf: func(method string) string { return caps[method] },
		})
		l.InputUndeclared(json.RawMessage(tc.entry), time.Now())
		got := ""
		if all := rec.All(); len(all) == 1 && all[0].Rule == findings.CapabilityUndeclared {
			got = all[0].Detail
		} else if len(all) > 0 {
			t.Errorf("%s: findings %+v", tc.entry, all)
			continue
		}
		if got != tc.want {
			t.Errorf("%s: finding %q, want %q", tc.entry, got, tc.want)
		}
	}
}
