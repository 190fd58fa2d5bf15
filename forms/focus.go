package forms

import tea "charm.land/bubbletea/v2"

// The focused field's text, read and replaced from outside the form: what
// a completion list (ui) needs to follow what is typed and to put a picked
// value in. Only one-line text fields (string properties) take part.

// FocusedText returns the property name and the current text of the
// focused field; ok is false when no field has focus or the focused one
// is not a one-line text field. The text is what is typed, kept on every
// keystroke (huh writes through the field's pointer).
func (f *Form) FocusedText() (name, text string, ok bool) {
	if f.submitted {
		return "", "", false
	}
	tf := f.focusedText()
	if tf == nil {
		return "", "", false
	}
	return tf.p.Name, tf.text, true
}

// SetFocusedText replaces the focused text field's text, with the cursor
// at its end, as if the person had typed it; a CharLimit (maxLength) cuts
// it as typing would. It reports false, and changes nothing, when the
// focused field is not a one-line text field. Run the command like any
// other of the form's.
func (f *Form) SetFocusedText(text string) (tea.Cmd, bool) {
	if f.submitted {
		return nil, false
	}
	tf := f.focusedText()
	if tf == nil || tf.in == nil {
		return nil, false
	}
	// huh.Input.Value re-reads the pointer into its textinput, whose
	// SetValue keeps the cursor where it was unless the text was empty:
	// going through "" puts the cursor at the end (bubbles v2.1.1).
	tf.text = ""
	tf.in.Value(&tf.text)
	tf.text = text
	tf.in.Value(&tf.text)
	// A message no field knows makes huh render again, and the focused
	// Input writes its (possibly cut) text back through the pointer.
	return f.Update(restyleMsg{}), true
}

// focusedText is the text field that has focus, nil if none does.
func (f *Form) focusedText() *textField {
	hf := f.form.GetFocusedField()
	if hf == nil {
		return nil
	}
	key := hf.GetKey()
	for _, fl := range f.fields {
		if tf, ok := fl.(*textField); ok && tf.p.Name == key {
			return tf
		}
	}
	return nil
}
