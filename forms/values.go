package forms

// Values returns what the fields hold now, typed as Content types them,
// whether or not the whole passes the schema: a field left empty, or whose
// text does not read as its kind (letters in a number), is left out. It is
// for carrying a half-filled form elsewhere (the same arguments as JSON
// text); what is sent is still checked by Content.
func (f *Form) Values() map[string]any {
	out := make(map[string]any, len(f.fields))
	for _, fl := range f.fields {
		if v, ok, err := fl.value(); err == nil && ok {
			out[fl.property().Name] = v
		}
	}
	return out
}
