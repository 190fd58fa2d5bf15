package proxy

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/client/findings"
	"github.com/elicit-dev/elicit/client/question"
	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// hostAsked is a server request given to the host: what the host's
// answer is judged against.
type hostAsked struct {
	method   string
	mode     question.Mode // elicitation only
	declared caps          // what the server had been told
}

// hostFinding records a violation by the host, and says it.
func (p *proxy) hostFinding(rule string, m *jsonrpc.Message, format string, args ...any) {
	detail := fmt.Sprintf(format, args...)
	p.notice("finding (the host's) %s: %s", rule, detail)
	p.mu.Lock()
	version := p.version
	p.mu.Unlock()
	p.cfg.Findings.ReportHost(p.cfg.Name, version, rule,
		findings.FrameRef{ID: m.ID.Raw(), Method: m.Method, Time: time.Now()}, "%s", detail)
}

// judgeHostAnswer checks the host's answer m to the server's request of
// asked: an elicitation answered by a host that did not declare its mode
// (elicit was told not to fill it in), and an answer of the wrong shape.
// The answer goes to the server all the same: it is the host's, and the
// server's handling of it is what is being tried.
func (p *proxy) judgeHostAnswer(asked hostAsked, m *jsonrpc.Message) {
	if asked.method != wire.MethodElicit || m.Result == nil {
		return
	}
	declared := asked.declared.form
	if asked.mode == question.ModeURL {
		declared = asked.declared.url
	}
	if !declared {
		p.hostFinding(findings.HostElicitUndeclared, m, "the host answered elicitation %s (%s mode) without declaring %s mode", m.ID, asked.mode, asked.mode)
	}
	var action string
	actionRaw := member(m.Result, "action")
	content := member(m.Result, "content")
	switch {
	case json.Unmarshal(actionRaw, &action) != nil || (action != "accept" && action != "decline" && action != "cancel"):
		p.hostFinding(findings.HostReplyShape, m, "the host's answer to elicitation %s has action %s: want \"accept\", \"decline\" or \"cancel\"", m.ID, orAbsent(actionRaw))
	case content != nil && action != "accept":
		p.hostFinding(findings.HostReplyShape, m, "the host's answer to elicitation %s carries content with action %q: content goes with accept only", m.ID, action)
	case content != nil && !isObject(content):
		p.hostFinding(findings.HostReplyShape, m, "the host's answer to elicitation %s has content %s: want an object", m.ID, content)
	}
}

func orAbsent(raw json.RawMessage) string {
	if raw == nil {
		return "absent"
	}
	return string(raw)
}
