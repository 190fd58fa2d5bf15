package forms

import "testing"

// TestFocusedText: the focused text field's name and text follow typing
// and focus; a picked text replaces what was typed, the cursor ends after
// it (typing goes on from there), maxLength cuts it, and a field that is
// not one-line text takes no part.
func TestFocusedText(t *testing.T) {
	t.Parallel()
	f := NewToolArgs(parseTool(t, `{"type": "object", "properties": {
		"dept": {"type": "string"},
		"code": {"type": "string", "maxLength": 4},
		"n":    {"type": "integer"}
	}, "required": ["dept", "code", "n"]}`), Options{})
	d := drive(t, f, 80)
	if name, text, ok := f.FocusedText(); !ok || name != "dept" || text != "" {
		t.Fatalf("at start FocusedText = %q, %q, %v; want dept, empty", name, text, ok)
	}
	d.typeText("Eng")
	if name, text, ok := f.FocusedText(); !ok || name != "dept" || text != "Eng" {
		t.Fatalf("after typing FocusedText = %q, %q, %v", name, text, ok)
	}
	d.key("left", "left") // the cursor in the middle: the picked text must still end it
	cmd, ok := f.SetFocusedText("Engineering")
	if !ok {
		t.Fatal("SetFocusedText refused the focused text field")
	}
	d.run(cmd)
	d.typeText("!")
	if _, text, _ := f.FocusedText(); text != "Engineering!" {
		t.Fatalf("text after set and typing = %q, want the cursor at the end: Engineering!", text)
	}
	d.mustShow("Engineering!")

	d.key("enter")
	if name, _, ok := f.FocusedText(); !ok || name != "code" {
		t.Fatalf("after enter the focus is on %q (ok %v), want code", name, ok)
	}
	cmd, _ = f.SetFocusedText("ABCDEFG")
	d.run(cmd)
	if _, text, _ := f.FocusedText(); text != "ABCD" {
		t.Fatalf("maxLength 4: text = %q, want ABCD", text)
	}

	d.key("enter")
	if name, text, ok := f.FocusedText(); ok {
		t.Fatalf("on the integer field FocusedText = %q, %q, true; want not ok", name, text)
	}
	if cmd, ok := f.SetFocusedText("12"); ok || cmd != nil {
		t.Fatal("SetFocusedText wrote into an integer field")
	}
	d.typeText("3")
	d.submit()
	wantJSON(t, contentJSON(t, f), `{"dept": "Engineering!", "code": "ABCD", "n": 3}`)
	if _, _, ok := f.FocusedText(); ok {
		t.Fatal("a submitted form still reports a focused text")
	}
}
