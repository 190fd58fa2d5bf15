// Package forms turns a parsed schema into a huh v2 form and the person's
// answers back into validated JSON content.
//
// It sits between forms/schema (parsing and validation, no terminal) and
// ui (panes, keys, routing). It imports forms/schema and themes only; it
// must not know client, transport or ui.
//
// # Use
//
//	s, err := schema.Parse(params.RequestedSchema, schema.Subset2025_11_25)
//	// …
//	f := forms.New(s, forms.Options{Message: params.Message})
//	cmd := f.Init()                 // must run, or keys are ignored
//	cmd = f.SetSize(paneW, paneH)   // again on every pane resize
//	// in the parent's Update, for the pane's own messages:
//	cmd = f.Update(msg)
//	if f.Submitted() {
//		content, _ := f.Content()   // typed, already validated
//	}
//
// [NewToolArgs] does the same for a tool call's arguments
// ([schema.ToolInput]). A field starts from its property's Default, so a
// form filled with earlier values is built from a ToolInput whose
// Defaults were set to them ([schema.FitValue] types them). [Form.Values]
// reads what a half-filled form holds, to carry it elsewhere (the same
// arguments as JSON text). [Form.FocusedText] and [Form.SetFocusedText]
// read and replace the focused one-line text field's text, for a list of
// suggestions kept outside the form (ui's completions).
//
// # Fields
//
//   - string: an Input, CharLimit(maxLength). Formats (email, uri, date,
//     date-time), lengths and patterns are checked as the person leaves the
//     field, with messages that say why ("2025-02-30 is not a real date
//     (February 2025 has 28 days)").
//   - number, integer: an Input read as float64 or exact int64. "2.5" is
//     not an integer, and integers beyond ±(2^53-1) are refused, never
//     rounded; a number typed with more digits than a float64 holds is
//     refused too.
//   - boolean: a Yes/No Confirm when it has a default or is required; an
//     optional boolean without a default is a three-way choice starting at
//     "(none)", so that false is never sent on the person's behalf.
//   - enum (enum, oneOf const/title, enumNames): a Select of the labels,
//     sending the values; "(none)" first when optional, "(choose one)"
//     first when required without a default, so the first option is never
//     sent unseen. More than 8 options scroll and filter with "/".
//   - multi-select: a MultiSelect limited to maxItems; minItems is checked.
//   - list (tools): a Text field, one item per line (commas also separate
//     numbers and booleans), or a JSON array.
//   - JSON (tools): a Text field holding JSON, checked against its
//     sub-schema (ctrl+e opens $EDITOR). Without a default or example it
//     starts from the schema's template (an array of objects: one item
//     with its required members) when required, and shows it as the
//     placeholder when optional.
//
// Titles of required fields end in " *"; descriptions are followed by the
// constraints a person needs (range, length, format, how many to choose).
// Every string from the server (message, titles, descriptions, labels,
// examples) goes through [untrusted.Text] or [untrusted.Line].
//
// # Content
//
// [Form.Content] reads each field's typed value from the form's own state
// (huh writes it on every keystroke; huh's Form.Get is only filled as
// fields are left). Defaults are pre-filled, so an untouched field with a
// default is part of the content; an optional field left empty is left
// out, never sent as "" or 0. Each field's check is the schema's own
// ([schema.ValidateValue]), and Content checks the whole answer with
// [schema.Schema.Validate] or [schema.ToolInput.Validate] too, so it never
// returns content the server's schema refuses. Should that last check fail
// on submit (a rule across fields), the form is rebuilt with the values
// kept and the reason shown, and Submitted stays false.
//
// # Keys and themes
//
// huh's own abort key (ctrl+c) is disabled: Esc (cancel) and decline are
// the parent's keys. The parent must not take Esc while [Form.Filtering]
// reports an open select filter. huh asks the theme for its styles on every
// lookup, so Options.Theme should cache them per background; the default
// theme does. Forward tea.BackgroundColorMsg to every form: huh assumes a
// light background until it gets one.
//
// # Concurrency
//
// A Form is a bubbletea component: Init, Update, View and the rest are
// called from the program's event loop only. The package has no
// package-level mutable state and starts no goroutines.
package forms
