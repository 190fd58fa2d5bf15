package jsonschema

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

// TestDraftsCompileOnFirstUse compiles, for every draft and from several
// goroutines at once, a schema the draft's meta-schema refuses and one it
// accepts: the meta-schemas that init no longer compiles are compiled on
// first use, once, without a race (go test -race) and without waiting on
// themselves.
func TestDraftsCompileOnFirstUse(t *testing.T) {
	drafts := []*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020}
	var wg sync.WaitGroup
	errs := make(chan error, len(drafts)*8)
	for _, d := range drafts {
		for g := range 8 {
			wg.Go(func() {
				if err := compileBoth(d, g); err != nil {
					errs <- fmt.Errorf("%s: %w", d.url, err)
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, d := range drafts {
		if sch, vocabs := d.meta(); sch == nil || len(vocabs) != len(d.allVocabs) {
			t.Errorf("%s: meta-schema %v, %d of %d vocabularies", d.url, sch, len(vocabs), len(d.allVocabs))
		}
	}
}

func compileBoth(d *Draft, g int) error {
	bad := map[string]any{"$schema": d.url, "type": "object", "properties": map[string]any{
		"name": map[string]any{"type": "string", "minLength": "three"},
	}}
	good := map[string]any{"$schema": d.url, "type": "object", "properties": map[string]any{
		"name": map[string]any{"type": "string", "minLength": 3},
	}}
	if _, err := compileOne(bad, g); err == nil {
		return errors.New(`"minLength": "three" compiled; the meta-schema should refuse it`)
	} else if !errors.As(err, new(*SchemaValidationError)) {
		return fmt.Errorf("the bad schema failed, but not against the meta-schema: %w", err)
	}
	sch, err := compileOne(good, g)
	if err != nil {
		return fmt.Errorf("the good schema: %w", err)
	}
	if err := sch.Validate(map[string]any{"name": "ab"}); err == nil {
		return errors.New(`"ab" passed minLength 3`)
	}
	return sch.Validate(map[string]any{"name": "abc"})
}

func compileOne(doc map[string]any, g int) (*Schema, error) {
	c := NewCompiler()
	url := fmt.Sprintf("urn:test:%d", g)
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}
