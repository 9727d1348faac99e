// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/valueschema"
)

// Config rules applied after their config's plan and before its apply (a literal config_id) stop
// before writing, saying to reference the config; once the config's apply wrote the schema, or
// where it writes none, they go on.
func TestPlannedSchemasRulesBeforeSchema(t *testing.T) {
	p := &plannedSchemas{}
	var diags diag.Diagnostics
	if p.rulesBeforeSchema("c", &diags) || diags.HasError() {
		t.Fatalf("no plan of the config: %v", diags)
	}
	p.set("c", plannedSchema{raw: []byte(`{"type":"object"}`), known: true, pending: true})
	if !p.rulesBeforeSchema("c", &diags) || !strings.Contains(diagText(diags), "featureconsole_dynamic_config.<name>.config_id") {
		t.Fatalf("a schema not written yet: %v", diags)
	}
	p.written("c")
	diags = nil
	if p.rulesBeforeSchema("c", &diags) || diags.HasError() {
		t.Fatalf("the schema written: %v", diags)
	}
}

// The config's plan after its rules' fails only where the schema it writes differs from the one the
// rules were checked against and refuses their values.
func TestPlannedSchemasPlannedAfterRules(t *testing.T) {
	held := []byte(`{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}`)
	for _, tc := range []struct {
		name    string
		planned string
		fits    bool
		fails   bool
	}{
		{"the same schema, in other forms", `{"properties":{"n":{"minimum":1,"type":"integer"}},"type":"object"}`, false, false},
		{"a new schema the values fit", `{"type":"object"}`, true, false},
		{"a new schema that refuses them", `{"type":"object","properties":{"n":{"minimum":2}}}`, false, true},
		{"no schema", `{}`, false, false},
	} {
		p := &plannedSchemas{}
		p.checkedHeld("c", held, func(*valueschema.Schema) bool { return tc.fits })
		var diags diag.Diagnostics
		p.plannedAfterRules("c", []byte(tc.planned), &diags)
		if diags.HasError() != tc.fails {
			t.Errorf("%s: %v", tc.name, diags)
		}
	}
}

// The two destroys of one gate that hand rules over run one at a time.
func TestObjectLocksSerialise(t *testing.T) {
	var l objectLocks
	var mu sync.Mutex
	inside, most := 0, 0
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer l.lock("g")()
			mu.Lock()
			inside++
			most = max(most, inside)
			mu.Unlock()
			time.Sleep(5 * time.Millisecond)
			mu.Lock()
			inside--
			mu.Unlock()
		}()
	}
	wg.Wait()
	if most != 1 {
		t.Fatalf("%d destroys of one gate at once", most)
	}
}
