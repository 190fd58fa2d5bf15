package client

import (
	"encoding/json"
	"time"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/transport/jsonrpc"
)

// notificationTable maps each server notification we act on to its
// handler; built per session, read-only after newSession. A handler runs
// on the read loop and must not block (see Session.readLoop).
func notificationTable() map[string]func(s *Session, m *jsonrpc.Message) {
	return map[string]func(*Session, *jsonrpc.Message){
		wire.NotifyCancelled: func(s *Session, m *jsonrpc.Message) {
			if s.stateless() {
				s.endListen(m.Params) // 2026-07-28: the end of a subscription (listen.go)
				return
			}
			s.withdraw(m.Params)
		},
		wire.NotifySubscriptionsAcknowledged: func(s *Session, m *jsonrpc.Message) { s.acknowledged(m.Params) },
		wire.NotifyProgress:                  func(s *Session, m *jsonrpc.Message) { s.onProgress(m.Params) },
		wire.NotifyMessage:                   (*Session).onLog,
		wire.NotifyTaskStatus:                func(s *Session, m *jsonrpc.Message) { s.tasks.notification(m.Method, m.Params) },
		wire.NotifyTasks:                     func(s *Session, m *jsonrpc.Message) { s.tasks.notification(m.Method, m.Params) },
		wire.NotifyToolsListChanged:          func(s *Session, m *jsonrpc.Message) { s.listChanged("tools", m.Params) },
		wire.NotifyResourcesListChanged:      func(s *Session, m *jsonrpc.Message) { s.listChanged("resources", m.Params) },
		wire.NotifyPromptsListChanged:        func(s *Session, m *jsonrpc.Message) { s.listChanged("prompts", m.Params) },
		wire.NotifyElicitationComplete:       func(s *Session, m *jsonrpc.Message) { s.elicitationComplete(m.Params) },
		wire.NotifyResourcesUpdated:          func(s *Session, m *jsonrpc.Message) { s.resourceUpdated(m.Params) },
	}
}

// handleNotification routes a notification from the server (read loop).
func (s *Session) handleNotification(m *jsonrpc.Message) {
	s.lint.Notification(m)
	if h := s.notifications[m.Method]; h != nil {
		h(s, m)
		return
	}
	s.log.Debug("notification ignored", "method", m.Method)
}

// onLog turns notifications/message into a LogMessage event. With no
// Observer (a headless session) nobody would see it, so its params are not
// even decoded: a server flooding logs costs a headless run the frame's
// decoding only (BENCHMARKS.md, "Against the peers").
func (s *Session) onLog(m *jsonrpc.Message) {
	if !s.events.observed() {
		return
	}
	var p struct {
		Level  string          `json:"level"`
		Logger string          `json:"logger"`
		Data   json.RawMessage `json:"data"`
	}
	if wire.DecodeExact(m.Params, &p) != nil {
		s.notice("skipped a malformed notifications/message")
		s.lint.Malformed(wire.NotifyMessage, "params of the wrong shape")
		return
	}
	s.events.push(LogMessage{Server: s.name, Level: p.Level, Logger: p.Logger, Data: p.Data, Time: time.Now()}, nil)
}
