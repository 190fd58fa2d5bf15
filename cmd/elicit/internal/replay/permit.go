package replay

import (
	"context"
	"fmt"

	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/record"
	"github.com/elicit-dev/elicit/cmd/elicit/internal/trust"
)

// A recorded "allow" to an ACP permission request is the consent of
// whoever made the recording, not of the person replaying it. Replayed
// against an agent that is not elicit's demo agent (the person's own,
// named with -- AGENT, or one the recording names), the recording's
// prompts drive a real agent, and an allow answered as recorded would let
// the file run commands or edit files on the person's machine. So an
// allow of a tool call that may change things is answered as recorded
// only with the person's word, as the trust rule asks for a command:
// --trust-recorded-command, or y on a terminal to the allows shown
// whole. Otherwise the replay rejects it (the reject_once option; else
// cancelled) and the outcome differs, saying why. The demo agent's tool
// calls change nothing (its file writes are --allow-fs's, which the cwd
// rule covers).

// changesThings reports whether an ACP tool call of this kind may change
// the person's machine or send out what it read: every kind but read,
// search and think (fetch sends a request, switch_mode may leave
// permissions behind). An absent or unknown kind is not known harmless;
// a permission request's tool call may omit it (it is an update).
func changesThings(toolKind string) bool {
	switch toolKind {
	case "read", "search", "think":
		return false
	}
	return true
}

// allowsChange reports whether the recorded answer a allowed a tool call
// that changes things: an accept naming an allow option.
func allowsChange(a record.Answer) bool {
	q := a.Question
	if q == nil || q.Permission == nil || a.Given == nil || a.Given.Kind != question.Accept.String() ||
		!changesThings(q.Permission.ToolKind) {
		return false
	}
	for _, o := range q.Permission.Options {
		if o.ID == a.Given.Option {
			return o.Kind == question.OptionAllowOnce || o.Kind == question.OptionAllowAlways
		}
	}
	return false
}

// recordedAllows are the lines showing what the recording allows for
// the person on agent's side, one a recorded allow (untrusted.Line
// is applied by who shows them).
func recordedAllows(rec *record.Recording, agent string) []string {
	var out []string
	for _, a := range rec.Answers {
		if a.Server != agent || !allowsChange(a) {
			continue
		}
		kind := cmpOr(a.Question.Permission.ToolKind, "no kind")
		out = append(out, fmt.Sprintf("answers allow (option %s) to the permission request %q (%s), as recorded", trust.Quote(a.Given.Option), a.Question.Permission.Title, kind))
	}
	return out
}

// permitPolicy is what a replay's answers to one agent's permission
// requests may allow.
type permitPolicy struct {
	guard     bool // the agent is not elicit's demo agent
	trusted   bool // --trust-recorded-command
	confirmed bool // the person said y to the recorded allows shown
}

// refusal is why the recorded answer a, about to be given as out to the
// live permission request q, is not given ("": it may be).
func (p permitPolicy) refusal(q *question.Question, rq *record.Question, a record.Answer, out question.Outcome) string {
	if !p.guard || p.trusted || q.Kind != question.KindPermission || q.Permission == nil || out.Kind != question.Accept {
		return ""
	}
	o, ok := q.Permission.Option(out.Option)
	if !ok || o.Kind != question.OptionAllowOnce && o.Kind != question.OptionAllowAlways {
		return ""
	}
	kind := ""
	if rq != nil && rq.Permission != nil {
		kind = rq.Permission.ToolKind
	}
	if !changesThings(kind) || p.confirmed && allowsChange(a) {
		return ""
	}
	return fmt.Sprintf("the recording allows a tool call of kind %s, which may change things, and you did not say it may: rejected "+
		"(--trust-recorded-command, or y on a terminal, answers it as recorded)", cmpOr(kind, "(none)"))
}

// agentPermits are the policies of the replay's agents (specs[i] stands
// for agent i; demos[i]: elicit's demo agent), once the trust gate let
// them start. An agent the recording names was confirmed with its
// recorded allows shown (agentLaunches), or the flag given; for agents
// the person named, the allows are asked here, and without a terminal or
// the flag they are rejected (said on stderr), not refused outright: the
// replay still says how the agent behaves.
func agentPermits(ctx context.Context, g trust.Gate, rec *record.Recording, demos []bool, named bool) ([]permitPolicy, error) {
	out := make([]permitPolicy, len(rec.Settings.Agents))
	var ask []string
	for i, ra := range rec.Settings.Agents {
		allows := recordedAllows(rec, ra.Name)
		out[i] = permitPolicy{guard: !demos[i], trusted: g.Trusted, confirmed: !named && len(allows) > 0}
		if named && !demos[i] {
			for _, s := range allows {
				ask = append(ask, fmt.Sprintf("agent %q (the one you named) %s", ra.Name, s))
			}
		}
	}
	if len(ask) == 0 {
		return out, nil
	}
	yes, err := g.Permit(ctx, ask)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].confirmed = out[i].confirmed || yes
	}
	return out, nil
}
