package ui

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/themes/untrusted"
)

// listFilter narrows a server list to the items whose name, title or
// description (a resource's URI too) holds its text, without regard to
// case, and ranks them: name matches first (the whole name, then its
// start, then the start of a word in it, then anywhere), then title and
// URI matches, then description matches, each rank in the server's
// order. The cursor stays an index into the whole list, so the views
// that read l.items[cursor] need not know a filter exists; it only ever
// rests on an item the filter shows, and on the best one when the text
// changes: /allowed on server-filesystem put it on read_text_file, whose
// description says "allowed directories", and list_allowed_directories
// came last (issue 26).
type listFilter struct {
	text    string
	editing bool // the person is typing it: every key is text

	// vis caches the matching indices, best first, for one list and one
	// text: a list may be long and the filter is asked on every frame.
	vis     []int
	visFor  any
	visText string
}

// filterFields is what the filter searches in an item, by rank.
type filterFields struct {
	name string   // matched first
	alts []string // title, URI: next
	desc []string // description and the rest: last
}

// fieldsOf is what the filter searches in an item.
func fieldsOf(item any) filterFields {
	switch v := item.(type) {
	case *wire.Tool:
		return filterFields{v.Name, []string{v.Title, v.Annotations.Title}, []string{v.Description}}
	case *wire.Resource:
		return filterFields{v.Name, []string{v.Title, v.URI}, []string{v.Description}}
	case *wire.Prompt:
		return filterFields{v.Name, []string{v.Title}, []string{v.Description}}
	case interface{ filterFields() filterFields }:
		return v.filterFields()
	}
	return filterFields{}
}

// How a field holds the needle, best first; noMatch when it does not.
const (
	matchExact = iota
	matchPrefix
	matchWord
	matchInside
	matchKinds
	noMatch = -1
)

// matchKind is how field holds needle (both lower-cased).
func matchKind(field, needle string) int {
	i := strings.Index(field, needle)
	switch {
	case i < 0:
		return noMatch
	case field == needle:
		return matchExact
	case i == 0:
		return matchPrefix
	}
	for ; i > 0; i = nextIndex(field, needle, i) {
		if r := rune(field[i-1]); !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return matchWord
		}
	}
	return matchInside
}

// nextIndex is the next place after i where needle is in field, or -1.
func nextIndex(field, needle string, i int) int {
	if j := strings.Index(field[i+1:], needle); j >= 0 {
		return i + 1 + j
	}
	return -1
}

// filterRank is how well an item's fields hold needle, lower is better;
// noMatch when none does.
func filterRank(f filterFields, needle string) int {
	best := noMatch
	try := func(tier int, field string) {
		if k := matchKind(strings.ToLower(field), needle); k != noMatch && (best == noMatch || tier*matchKinds+k < best) {
			best = tier*matchKinds + k
		}
	}
	try(0, f.name)
	for _, a := range f.alts {
		try(1, a)
	}
	if best != noMatch {
		return best
	}
	for _, d := range f.desc {
		if strings.Contains(strings.ToLower(d), needle) {
			return 2 * matchKinds
		}
	}
	return noMatch
}

// visible returns the indices of the items the filter shows, best first.
func (s *serverLists[T]) visible() []int {
	l := s.current()
	if l == nil {
		return nil
	}
	f := &s.filter
	if f.visFor == any(l) && f.visText == f.text && f.vis != nil {
		return f.vis
	}
	vis := make([]int, 0, len(l.items))
	needle := strings.ToLower(f.text)
	var ranks []int
	if needle != "" {
		ranks = make([]int, len(l.items))
	}
	for i := range l.items {
		if needle == "" {
			vis = append(vis, i)
			continue
		}
		if ranks[i] = filterRank(fieldsOf(&l.items[i]), needle); ranks[i] != noMatch {
			vis = append(vis, i)
		}
	}
	if ranks != nil {
		slices.SortStableFunc(vis, func(a, b int) int { return cmp.Compare(ranks[a], ranks[b]) })
	}
	f.vis, f.visFor, f.visText = vis, any(l), f.text
	return vis
}

// selected returns the item under the cursor, nil when there is none (no
// list, an empty one, or a filter that matches nothing).
func (s *serverLists[T]) selected() *T {
	l := s.current()
	if l == nil || s.cursor >= len(l.items) || !s.shows(s.cursor) {
		return nil
	}
	return &l.items[s.cursor]
}

// shows reports whether the filter shows item i.
func (s *serverLists[T]) shows(i int) bool {
	for _, v := range s.visible() {
		if v == i {
			return true
		}
	}
	return false
}

// snap keeps the cursor on a shown item: where it is if the filter shows
// it, else the first one shown after it, else the last one before it.
func (s *serverLists[T]) snap() {
	vis := s.visible()
	if len(vis) == 0 || s.shows(s.cursor) {
		return
	}
	for _, v := range vis {
		if v > s.cursor {
			s.cursor = v
			return
		}
	}
	s.cursor = vis[len(vis)-1]
}

// typing: while the filter is typed, plain letters (and ?) are its text.
func (s *serverLists[T]) typing() bool { return s.filter.editing }

// filterKey handles / (start typing the filter), the keys while it is
// typed, and Esc, which clears a filter that is set. It reports whether k
// was one of them.
func (s *serverLists[T]) filterKey(c *viewCtx, k tea.KeyPressMsg) bool {
	f := &s.filter
	if !f.editing {
		switch {
		case key.Matches(k, c.keys.ListFilter):
			f.editing = true
			return true
		case key.Matches(k, c.keys.Back) && f.text != "":
			f.text = ""
			return true
		}
		return false
	}
	was := f.text
	switch k.String() {
	case "enter":
		f.editing = false
	case "esc":
		f.editing, f.text = false, ""
	case "backspace":
		if r := []rune(f.text); len(r) > 0 {
			f.text = string(r[:len(r)-1])
		}
	case "ctrl+u":
		f.text = ""
	case "up", "down", "pgup", "pgdown":
		// The arrows still move among the matches while typing.
		s.moveKey(c, k)
		return true
	default:
		if k.Text != "" && !strings.ContainsFunc(k.Text, unicode.IsControl) {
			f.text += k.Text
		}
	}
	if vis := s.visible(); f.text != was && f.text != "" && len(vis) > 0 {
		s.cursor = vis[0] // a new text: its best match
		return true
	}
	s.snap()
	return true
}

// moveKey moves the cursor among the shown items by a list key; it
// reports whether k was one.
func (s *serverLists[T]) moveKey(c *viewCtx, k tea.KeyPressMsg) bool {
	vis := s.visible()
	pos := 0
	for i, v := range vis {
		if v == s.cursor {
			pos = i
		}
	}
	if !moveCursor(c.keys, k, &pos, len(vis), s.listRows(c)) {
		return false
	}
	if len(vis) > 0 {
		s.cursor = vis[pos]
	}
	return true
}

// filterSegment is the title line's part about the filter: the key when
// none is set, else its text and how many items it shows of how many.
func (s *serverLists[T]) filterSegment(c *viewCtx) string {
	st := c.st
	f := &s.filter
	if !f.editing && f.text == "" {
		return st.Muted.Render("/ filter · ")
	}
	n, m := len(s.visible()), 0
	if l := s.current(); l != nil {
		m = len(l.items)
	}
	seg := st.Warning.Render("filter: "+untrusted.Line(f.text)) + st.Muted.Render(" ("+strconv.Itoa(n)+" of "+strconv.Itoa(m)+")")
	if f.editing {
		return st.Warning.Render("filter: "+untrusted.Line(f.text)+"▏") + st.Muted.Render(" ("+strconv.Itoa(n)+" of "+strconv.Itoa(m)+")  type to filter · ↑↓ move · enter keeps · esc clears")
	}
	return seg + st.Muted.Render(" esc clears · ")
}
