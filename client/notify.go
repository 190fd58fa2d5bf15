package client

import (
	"encoding/json"
	"time"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// notificationTable maps each server notification we act on to its
// handler; built per session, read-only after newOffers. A handler runs
// on the read loop and must not block (see Session.readLoop).
func (o *offers) notificationTable() map[string]func(m *jsonrpc.Message) {
	on := o.h.on
	return map[string]func(*jsonrpc.Message){
		wire.NotifyCancelled:                 func(m *jsonrpc.Message) { on.cancelled(m.Params) },
		wire.NotifySubscriptionsAcknowledged: func(m *jsonrpc.Message) { on.acknowledged(m.Params) },
		wire.NotifyProgress:                  func(m *jsonrpc.Message) { on.progress(m.Params) },
		wire.NotifyMessage:                   o.onLog,
		wire.NotifyTaskStatus:                func(m *jsonrpc.Message) { on.task(m.Method, m.Params) },
		wire.NotifyTasks:                     func(m *jsonrpc.Message) { on.task(m.Method, m.Params) },
		wire.NotifyToolsListChanged:          func(m *jsonrpc.Message) { on.listChanged("tools", m.Params) },
		wire.NotifyResourcesListChanged:      func(m *jsonrpc.Message) { on.listChanged("resources", m.Params) },
		wire.NotifyPromptsListChanged:        func(m *jsonrpc.Message) { on.listChanged("prompts", m.Params) },
		wire.NotifyElicitationComplete:       func(m *jsonrpc.Message) { on.elicitationComplete(m.Params) },
		wire.NotifyResourcesUpdated:          func(m *jsonrpc.Message) { on.resourceUpdated(m.Params) },
	}
}

// notify routes a notification from the server (read loop).
func (o *offers) notify(m *jsonrpc.Message) {
	o.h.lint.Notification(m)
	if h := o.notifications[m.Method]; h != nil {
		h(m)
		return
	}
	o.h.log.Debug("notification ignored", "method", m.Method)
}

// onLog turns notifications/message into a LogMessage event. With no
// Observer (a headless session) nobody would see it, so its params are not
// even decoded: a server flooding logs costs a headless run the frame's
// decoding only (BENCHMARKS.md, "Against the peers").
func (o *offers) onLog(m *jsonrpc.Message) {
	if !o.h.observed {
		return
	}
	var p struct {
		Level  string          `json:"level"`
		Logger string          `json:"logger"`
		Data   json.RawMessage `json:"data"`
	}
	if wire.DecodeExact(m.Params, &p) != nil {
		o.h.notice("skipped a malformed notifications/message")
		o.h.lint.Malformed(wire.NotifyMessage, "params of the wrong shape")
		return
	}
	o.h.emit(LogMessage{Server: o.h.server, Level: p.Level, Logger: p.Logger, Data: p.Data, Time: time.Now()})
}
