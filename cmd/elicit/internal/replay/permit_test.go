package replay

import (
	"testing"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
)

// TestPermitRefusal: which recorded answers a replay gives to a live
// permission request, by the kind the agent sends now.
func TestPermitRefusal(t *testing.T) {
	opts := []question.PermissionOption{{ID: "a", Kind: question.OptionAllowOnce}, {ID: "r", Kind: question.OptionRejectOnce}}
	live := func(kind string) (*question.Question, *record.Question) {
		q := &question.Question{Kind: question.KindPermission, Permission: &question.Permission{Options: opts}}
		return q, &record.Question{Kind: "permission", Permission: &record.Permission{Title: "t", ToolKind: kind}}
	}
	recorded := func(kind string) record.Answer {
		return record.Answer{Question: &record.Question{Kind: "permission", Permission: &record.Permission{Title: "t", ToolKind: kind,
			Options: []record.PermissionOption{{ID: "a", Kind: question.OptionAllowOnce}}}}, Given: &record.Given{Kind: "accept", Option: "a"}}
	}
	allow := question.Outcome{Kind: question.Accept, Option: "a"}
	for _, c := range []struct {
		name         string
		p            permitPolicy
		recKind, now string
		out          question.Outcome
		refused      bool
	}{
		{"demo agent", permitPolicy{}, "execute", "execute", allow, false},
		{"execute, no word", permitPolicy{guard: true}, "execute", "execute", allow, true},
		{"no kind, no word", permitPolicy{guard: true}, "", "", allow, true},
		{"read", permitPolicy{guard: true}, "read", "read", allow, false},
		{"read recorded, execute now, confirmed", permitPolicy{guard: true, confirmed: true}, "read", "execute", allow, true},
		{"execute confirmed", permitPolicy{guard: true, confirmed: true}, "execute", "execute", allow, false},
		{"flag", permitPolicy{guard: true, trusted: true}, "read", "execute", allow, false},
		{"reject", permitPolicy{guard: true}, "execute", "execute", question.Outcome{Kind: question.Accept, Option: "r"}, false},
	} {
		q, rq := live(c.now)
		if got := c.p.refusal(q, rq, recorded(c.recKind), c.out) != ""; got != c.refused {
			t.Errorf("%s: refused %v, want %v", c.name, got, c.refused)
		}
	}
}
