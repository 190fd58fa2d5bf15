package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/elicit-dev/elicit/client/wire"
	"github.com/elicit-dev/elicit/forms/schema"
)

// createEntitiesSchema is server-memory's create_entities inputSchema
// (2026.8.31).
const createEntitiesSchema = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"entities":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string","description":"The name of the entity"},"entityType":{"type":"string","description":"The type of the entity"},"observations":{"type":"array","items":{"type":"string"},"description":"An array of observation contents associated with the entity"}},"required":["name","entityType","observations"]}}},"required":["entities"]}`

// TestToolArrayOfObjectsTemplate (issue 26, item 7): an array of objects
// starts from one item with its required members, in the form and in
// the JSON editor, never an empty box or null.
func TestToolArrayOfObjectsTemplate(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := newDriver(t, Options{}, withTools(wire.Tool{Name: "create_entities", InputSchema: json.RawMessage(createEntitiesSchema)}))
		d.keys(keyF5, keyEnter)
		mustShow(t, d, "arguments for create_entities", `"name": ""`, `"entityType": ""`, `"observations": []`)
		d.keys(keyCtrlL)
		mustShow(t, d, "as JSON", `"entities": [`, `"name": ""`, `"entityType": ""`, `"observations": []`, "✓ fits the inputSchema")
		if strings.Contains(d.screen(), "null") {
			t.Errorf("the JSON editor shows null:\n%s", d.screen())
		}
	})
}

// TestPlaceholdersUseTheTemplate: a required JSON argument the form left
// empty is written into the JSON editor as its template, not null.
func TestPlaceholdersUseTheTemplate(t *testing.T) {
	t.Parallel()
	ti, err := schema.ParseToolInput(json.RawMessage(createEntitiesSchema))
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]any{}
	placeholders(ti, values)
	if got, want := strings.Join(strings.Fields(argsText(ti, values)), " "),
		`{ "entities": [ { "name": "", "entityType": "", "observations": [] } ] }`; got != want {
		t.Fatalf("JSON text %s, want %s", got, want)
	}
}
