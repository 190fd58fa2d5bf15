package client

// listFreshnessOf is the freshness func of s's lists (listFlights): the
// session's initialize generation (a new one may list other things) and
// what tells of changes of kind, nil if nothing
// does: before 2026-07-28 the server's declared listChanged
// (statefulWatch); in 2026-07-28, where they come only on a
// subscriptions/listen, the open one of ours that agreed to them. An
// answer is given again only under the same watch it was asked under: a
// change while none was open went unheard.
func listFreshnessOf(s *Session) func(kind listKind) (gen int, watch any) {
	return func(kind listKind) (gen int, watch any) {
		s.mu.Lock()
		defer s.mu.Unlock()
		caps := s.neg.caps
		if s.neg.kind == eraStateless {
			for _, c := range s.peer.Calls() {
				if l := c.listen; l != nil {
					if acked, agreed := l.state(); acked && listAgreed(agreed, kind) {
						return s.life.generation(), l
					}
				}
			}
			return s.life.generation(), nil
		}
		var declared bool
		switch kind {
		case listTools:
			declared = caps.ToolsListChanged
		case listResources, listTemplates:
			declared = caps.ResourcesListChanged
		case listPrompts:
			declared = caps.PromptsListChanged
		}
		if !declared {
			return s.life.generation(), nil
		}
		return s.life.generation(), statefulWatch{}
	}
}
