package ui

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/elicit-dev/elicit/client"
	"github.com/elicit-dev/elicit/client/question"
)

// keyCtrlS and keyCtrlL are tools_work_test.go's.

// tileDriver is a driver at w×h with the given prompts open, in arrival
// order.
func tileDriver(t *testing.T, opts Options, w, h int, ps ...*question.Question) *driver {
	t.Helper()
	d := newDriver(t, opts)
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	for _, p := range ps {
		d.open(p)
	}
	return d
}

// shownKeys are the keys of the panes on screen, tile by tile.
func shownKeys(d *driver) []string {
	var out []string
	for _, tl := range d.m.prompts.tiling(&d.m.viewCtx).tiles {
		out = append(out, tl.pn.p.Key.String())
	}
	return out
}

// tileText is what tile i shows, its frame included, cut out of the
// screen by its cells.
func tileText(d *driver, i int) string {
	d.t.Helper()
	t := d.m.prompts.tiling(&d.m.viewCtx)
	if i >= len(t.tiles) {
		d.t.Fatalf("no tile %d: %d on screen", i, len(t.tiles))
	}
	tl := t.tiles[i]
	lines := strings.Split(d.screen(), "\n")
	var b strings.Builder
	for y := tl.y; y < tl.y+tl.h; y++ {
		b.WriteString(ansi.Cut(lines[stripRow+1+y], tl.x, tl.x+tl.w) + "\n")
	}
	return b.String()
}

func focusedKey(d *driver) string {
	if pn := d.m.prompts.focused(); pn != nil {
		return pn.p.Key.String()
	}
	return ""
}

// TestTilesAnswerSecondTileFirst: two questions at 160×48 are two tiles
// side by side, each a live form of its own size; the person answers the
// second tile first while the first keeps what was typed into it, and
// the first is answered after.
func TestTilesAnswerSecondTileFirst(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		a := formPrompt(t, "demo", 1, "Who are you?", nameSchema)
		b := formPrompt(t, "demo", 2, "Second question", nameSchema)
		d := tileDriver(t, Options{}, 160, 48, a, b)
		if got := shownKeys(d); !cmp.Equal(got, []string{"demo#1", "demo#2"}) {
			t.Fatalf("tiles = %v, want both, in arrival order:\n%s", got, d.screen())
		}
		t1, t2 := tileText(d, 0), tileText(d, 1)
		if !strings.Contains(t1, "Who are you?") || !strings.Contains(t2, "Second question") {
			t.Fatalf("each tile should show its own question:\n%s", d.screen())
		}
		if !strings.HasPrefix(t1, "┏━ 1 ") || !strings.HasPrefix(t2, "╭─ 2 ") {
			t.Errorf("the focused tile's border should be the thick one, each numbered:\n%s", d.screen())
		}
		// Each form is laid out for its own tile: 80 columns less the frame.
		for _, pn := range d.m.prompts.panes {
			if pn.sizedW != 76 || pn.sizedH != 39 {
				t.Errorf("%s sized %d×%d, want 76×39 (its tile's inside)", pn.p.Key, pn.sizedW, pn.sizedH)
			}
		}
		d.typeText("Al")
		d.keys(keyF2)
		if focusedKey(d) != "demo#2" {
			t.Fatalf("F2 focused %s, want demo#2", focusedKey(d))
		}
		d.typeText("Bob")
		if t1, t2 := tileText(d, 0), tileText(d, 1); !strings.Contains(t1, "> Al") || strings.Contains(t1, "Bob") ||
			!strings.Contains(t2, "> Bob") {
			t.Fatalf("typing went to the wrong tile:\n%s", d.screen())
		}
		if !strings.HasPrefix(tileText(d, 1), "┏━ 2 ") {
			t.Errorf("the focus highlight did not follow F2:\n%s", d.screen())
		}
		d.keys(keyEnter)
		if got := d.reply(b.Key); got.Kind != question.Accept || !cmp.Equal(got.Content, map[string]any{"name": "Bob"}) {
			t.Fatalf("second tile reply = %+v, want accept name=Bob", got)
		}
		d.noReply(a.Key)
		if !strings.Contains(tileText(d, 0), "> Al") {
			t.Fatalf("the first tile lost what was typed into it:\n%s", d.screen())
		}
		d.keys(keyF3)
		d.typeText("an")
		d.keys(keyEnter)
		if got := d.reply(a.Key); got.Kind != question.Accept || !cmp.Equal(got.Content, map[string]any{"name": "Alan"}) {
			t.Fatalf("first tile reply = %+v, want accept name=Alan", got)
		}
	})
}

// TestTilesArrivalOrderAndCycling: tiles, the strip and F2/F3 follow the
// order the questions arrived in, not their ids; the window of four
// follows the focus, and the strip lists the questions not on screen.
func TestTilesArrivalOrderAndCycling(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ids := []int64{5, 3, 9, 1, 7, 2}
		var ps []*question.Question
		for _, id := range ids {
			ps = append(ps, formPrompt(t, "demo", id, fmt.Sprintf("question %d", id), nameSchema))
		}
		d := tileDriver(t, Options{}, 160, 48, ps...)
		if got := shownKeys(d); !cmp.Equal(got, []string{"demo#5", "demo#3", "demo#9", "demo#1"}) {
			t.Fatalf("tiles = %v, want the first four to arrive", got)
		}
		strip := strings.Split(d.screen(), "\n")[stripRow]
		if !strings.Contains(strip, "1–4 in tiles") || !strings.Contains(strip, "5 demo#7") || !strings.Contains(strip, "6 demo#2") {
			t.Fatalf("the strip should list the two not on screen after the tiles: %q", strip)
		}
		if strings.Contains(strip, "demo#5") || strings.Contains(strip, "demo#1 ") {
			t.Errorf("the strip lists panes that are on screen: %q", strip)
		}
		// 2×2: first row 5 and 3, second row 9 and 1.
		if tl := d.m.prompts.tiling(&d.m.viewCtx).tiles; tl[1].y != 0 || tl[2].y == 0 || tl[2].x != 0 || tl[3].x == 0 {
			t.Errorf("want a 2×2 grid in reading order, got %+v", tl)
		}
		var order []string
		for range ids {
			order = append(order, focusedKey(d))
			d.keys(keyF2)
		}
		want := []string{"demo#5", "demo#3", "demo#9", "demo#1", "demo#7", "demo#2"}
		if !cmp.Equal(order, want) {
			t.Fatalf("F2 went %v, want arrival order %v", order, want)
		}
		if focusedKey(d) != "demo#5" {
			t.Fatalf("F2 after the last should come round to the first, got %s", focusedKey(d))
		}
		d.keys(keyF3)
		if focusedKey(d) != "demo#2" {
			t.Fatalf("F3 from the first should go to the last, got %s", focusedKey(d))
		}
		// The window moved to keep the focus on screen.
		if got := shownKeys(d); !cmp.Equal(got, []string{"demo#9", "demo#1", "demo#7", "demo#2"}) {
			t.Fatalf("tiles = %v, want the last four", got)
		}
		strip = strings.Split(d.screen(), "\n")[stripRow]
		if !strings.Contains(strip, "1 demo#5") || !strings.Contains(strip, "2 demo#3") || !strings.Contains(strip, "3–6 in tiles") ||
			strings.Index(strip, "2 demo#3") > strings.Index(strip, "3–6 in tiles") {
			t.Errorf("the strip should list 1 and 2 before the tiles: %q", strip)
		}
		var back []string
		for range ids {
			back = append(back, focusedKey(d))
			d.keys(keyF3)
		}
		if want := []string{"demo#2", "demo#7", "demo#1", "demo#9", "demo#3", "demo#5"}; !cmp.Equal(back, want) {
			t.Fatalf("F3 went %v, want %v", back, want)
		}
	})
}

// TestTilesToggle: ctrl+s shows one pane at a time and back; the strip
// then lists every question.
func TestTilesToggle(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		a := formPrompt(t, "demo", 1, "first", nameSchema)
		b := formPrompt(t, "demo", 2, "second", nameSchema)
		c := formPrompt(t, "demo", 3, "third", nameSchema)
		d := tileDriver(t, Options{}, 160, 48, a, b, c)
		if n := len(shownKeys(d)); n != 3 {
			t.Fatalf("%d tiles, want 3", n)
		}
		// Three: two above one, the one below as wide as the screen.
		if tl := d.m.prompts.tiling(&d.m.viewCtx).tiles; tl[2].w != 160 || tl[0].w != 80 {
			t.Errorf("want two tiles above one wide one, got %+v", tl)
		}
		d.keys(keyF2)
		d.keys(keyCtrlS)
		if got := shownKeys(d); !cmp.Equal(got, []string{"demo#2"}) {
			t.Fatalf("after ctrl+s on screen: %v, want the focused pane alone", got)
		}
		s := d.screen()
		if strings.Contains(s, "first") || !strings.Contains(s, "second") {
			t.Fatalf("one pane at a time should show the focused one only:\n%s", s)
		}
		strip := strings.Split(s, "\n")[stripRow]
		for _, want := range []string{"1 demo#1", "2 demo#2", "3 demo#3"} {
			if !strings.Contains(strip, want) {
				t.Errorf("the strip lacks %q: %q", want, strip)
			}
		}
		if pn := d.m.prompts.focused(); pn.sizedW != 156 {
			t.Errorf("the single pane's form is %d wide, want the whole screen's inside (156)", pn.sizedW)
		}
		d.keys(keyCtrlS)
		if got := shownKeys(d); !cmp.Equal(got, []string{"demo#1", "demo#2", "demo#3"}) {
			t.Fatalf("after ctrl+s again: %v, want the three tiles", got)
		}
		if focusedKey(d) != "demo#2" {
			t.Errorf("the toggle moved the focus to %s", focusedKey(d))
		}
		d.typeText("x")
		d.keys(keyEnter)
		if got := d.reply(b.Key); got.Kind != question.Accept {
			t.Fatalf("reply %v, want accept from the focused tile", got.Kind)
		}
	})
}

// TestTilesFallBackToSingle: at 80×24 there is room for one pane: the
// view shows the focused one and the strip all; ctrl+s says why no tiles
// come. Narrow but tall is stacked, wide but short side by side.
func TestTilesFallBackToSingle(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		a := formPrompt(t, "demo", 1, "first", nameSchema)
		b := formPrompt(t, "demo", 2, "second", nameSchema)
		d := tileDriver(t, Options{}, 80, 24, a, b)
		if got := shownKeys(d); !cmp.Equal(got, []string{"demo#1"}) {
			t.Fatalf("at 80×24 on screen: %v, want the focused pane alone", got)
		}
		s := d.screen()
		if strings.Count(s, "┏") != 1 || strings.Contains(s, "╭") || strings.Contains(s, "in tiles") {
			t.Fatalf("at 80×24 want one frame:\n%s", s)
		}
		if strip := strings.Split(s, "\n")[stripRow]; !strings.Contains(strip, "2 open, 1 new") || !strings.Contains(strip, "2 demo#2 ●") {
			t.Errorf("the strip should announce the second: %q", strip)
		}
		d.keys(keyCtrlS) // to one at a time: nothing moves
		if !strings.Contains(d.screen(), "one question at a time") {
			t.Errorf("ctrl+s said nothing:\n%s", d.screen())
		}
		d.keys(keyCtrlS) // tiles wanted, no room
		if s := d.screen(); !strings.Contains(s, "tiles need 120 cols or 31 rows (80×24 here)") {
			t.Errorf("ctrl+s should say why no tiles come:\n%s", s)
		}
		for _, tc := range []struct {
			w, h       int
			cols, rows int
		}{{100, 40, 1, 2}, {140, 24, 2, 1}, {119, 30, 1, 1}} {
			d.send(tea.WindowSizeMsg{Width: tc.w, Height: tc.h})
			tl := d.m.prompts.tiling(&d.m.viewCtx).tiles
			cols, rows := 0, 0
			for _, x := range tl {
				if x.y == 0 {
					cols++
				}
				if x.x == 0 {
					rows++
				}
			}
			if cols != tc.cols || rows != tc.rows {
				t.Errorf("%d×%d: %d×%d tiles, want %d×%d", tc.w, tc.h, cols, rows, tc.cols, tc.rows)
			}
			if v := d.m.View().Content; strings.Count(v, "\n")+1 != tc.h {
				t.Errorf("%d×%d: the view is %d lines", tc.w, tc.h, strings.Count(v, "\n")+1)
			}
			for i, line := range strings.Split(d.screen(), "\n") {
				if w := ansi.StringWidth(line); w > tc.w {
					t.Errorf("%d×%d: line %d is %d wide", tc.w, tc.h, i, w)
				}
			}
		}
	})
}

// TestTilesClearEnded: ctrl+l clears every ended pane at once; a pane
// still waiting for the server's word and the open ones stay.
func TestTilesClearEnded(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ps := []*question.Question{
			formPrompt(t, "demo", 1, "declined", nameSchema),
			formPrompt(t, "demo", 2, "withdrawn", nameSchema),
			formPrompt(t, "demo", 3, "open", nameSchema),
			formPrompt(t, "demo", 4, "answered, no verdict yet", nameSchema),
		}
		d := tileDriver(t, Options{}, 160, 48, ps...)
		d.keys(keyCtrlL)
		if !strings.Contains(d.screen(), "no ended questions to clear") {
			t.Errorf("ctrl+l with nothing ended said nothing:\n%s", d.screen())
		}
		d.keys(keyCtrlX) // tile 1
		d.send(eventMsg{e: client.PromptResolved{Key: ps[0].Key,
			Entry: question.JournalEntry{Key: ps[0].Key, Server: "demo", Kind: question.Decline}}})
		d.send(promptClosedMsg{key: ps[1].Key, cause: question.ErrWithdrawn})
		d.keys(keyF2, keyF2, keyF2, keyCtrlX) // tile 4: answered, the verdict not in
		if got := d.m.prompts.panes[3].state; got != paneAnswered {
			t.Fatalf("tile 4 state %v, want answered", got)
		}
		if s := tileText(d, 0); !strings.Contains(s, "ctrl+l clear all 2 ended") {
			t.Errorf("an ended tile should offer ctrl+l:\n%s", d.screen())
		}
		d.keys(keyCtrlL)
		var left []string
		for _, pn := range d.m.prompts.panes {
			left = append(left, pn.p.Key.String())
		}
		if !cmp.Equal(left, []string{"demo#3", "demo#4"}) {
			t.Fatalf("after ctrl+l: %v, want the open and the answered one", left)
		}
		if focusedKey(d) != "demo#4" {
			t.Errorf("focus moved to %s; it was on demo#4, which stays", focusedKey(d))
		}
		if got := shownKeys(d); !cmp.Equal(got, []string{"demo#3", "demo#4"}) {
			t.Errorf("tiles after ctrl+l: %v", got)
		}
		d.noReply(ps[2].Key)
	})
}

// TestTilesNewQuestionKeepsFocus: a question that arrives in tiles takes
// a tile, or waits on the strip when all four are taken; it never takes
// the focus or the keys from the open pane in focus (from an answered one
// it does, as with one pane at a time), and takes no answering key until
// it has been on screen for ArmDelay.
func TestTilesNewQuestionKeepsFocus(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		now := time.Unix(1_000_000, 0)
		opts := Options{ArmDelay: 300 * time.Millisecond, Now: func() time.Time { return now }}
		a := formPrompt(t, "demo", 1, "first", nameSchema)
		d := tileDriver(t, opts, 160, 48, a)
		now = now.Add(time.Second)
		d.typeText("Ad")
		b := formPrompt(t, "demo", 2, "second", nameSchema)
		d.open(b)
		if focusedKey(d) != "demo#1" {
			t.Fatalf("the new question took the focus")
		}
		if got := shownKeys(d); !cmp.Equal(got, []string{"demo#1", "demo#2"}) {
			t.Fatalf("tiles = %v, want the new one beside", got)
		}
		d.typeText("a")
		d.keys(keyEnter)
		if got := d.reply(a.Key); !cmp.Equal(got.Content, map[string]any{"name": "Ada"}) {
			t.Fatalf("reply %+v, want the first's own typing", got)
		}
		d.noReply(b.Key)
		// The first is answered; a third arrives and takes the focus, and
		// the first stays on screen beside it with its notice.
		c := formPrompt(t, "demo", 3, "third", nameSchema)
		d.open(c)
		if focusedKey(d) != "demo#3" {
			t.Fatalf("the focus stayed on the answered pane (%s), want the new question", focusedKey(d))
		}
		if got := shownKeys(d); !cmp.Equal(got, []string{"demo#1", "demo#2", "demo#3"}) ||
			!strings.Contains(tileText(d, 0), "sent accept") {
			t.Fatalf("tiles = %v, want the answered one still on screen:\n%s", got, d.screen())
		}
		// Its answering keys wait.
		d.keys(keyCtrlX, keyEsc, keyEnter)
		d.noReply(c.Key)
		if !strings.Contains(d.screen(), "just arrived") {
			t.Errorf("the held-back key is not explained:\n%s", d.screen())
		}
		now = now.Add(300 * time.Millisecond)
		d.keys(keyCtrlX)
		if got := d.reply(c.Key); got.Kind != question.Decline {
			t.Fatalf("reply %v, want decline once armed", got.Kind)
		}
		// b has been on screen since it arrived: it is armed.
		d.keys(keyF3)
		d.keys(keyCtrlX)
		if got := d.reply(b.Key); got.Kind != question.Decline {
			t.Fatalf("reply %v, want decline: the tile was on screen long enough", got.Kind)
		}
		// Four tiles taken: the fifth waits on the strip, announced.
		for i := int64(4); i <= 5; i++ {
			d.open(formPrompt(t, "demo", i, fmt.Sprintf("q%d", i), nameSchema))
		}
		if got := shownKeys(d); len(got) != 4 || got[3] != "demo#4" {
			t.Fatalf("tiles = %v, want the first four", got)
		}
		if strip := strings.Split(d.screen(), "\n")[stripRow]; !strings.Contains(strip, "5 demo#5 ●") || !strings.Contains(strip, "1 new") {
			t.Errorf("the fifth should be announced on the strip: %q", strip)
		}
		if pn := d.m.prompts.byKey[reqKey("demo", 5)]; pn.seen || pn.sizedW != 0 {
			t.Errorf("a pane off screen was seen (%v) or sized (%d)", pn.seen, pn.sizedW)
		}
	})
}

// TestTilesClick: a click on a tile focuses it; a click on a tile's
// Decline button declines that question only.
func TestTilesClick(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		a := formPrompt(t, "demo", 1, "first", nameSchema)
		b := formPrompt(t, "demo", 2, "second", nameSchema)
		d := tileDriver(t, Options{}, 160, 48, a, b)
		d.send(click(100, 10))
		if focusedKey(d) != "demo#2" {
			t.Fatalf("a click on tile 2 focused %s", focusedKey(d))
		}
		d.send(click(10, 10))
		if focusedKey(d) != "demo#1" {
			t.Fatalf("a click on tile 1 focused %s", focusedKey(d))
		}
		at := cellsOf(d.screen(), declineLabel)
		if len(at) != 2 || at[1][0] < 80 {
			t.Fatalf("want a Decline button in each tile, found %v:\n%s", at, d.screen())
		}
		d.send(click(at[1][0]+2, at[1][1]))
		if got := d.reply(b.Key); got.Kind != question.Decline {
			t.Fatalf("reply %v, want decline of the second", got.Kind)
		}
		d.noReply(a.Key)
		if focusedKey(d) != "demo#2" {
			t.Errorf("the clicked tile should have the focus, got %s", focusedKey(d))
		}
	})
}
