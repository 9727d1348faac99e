// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/valueschema"
)

// What one resource hands another in memory (handoffs.go), under what Terraform does to the order
// of the two: -target of either, separate applies, and an id written as a literal, which leaves
// them unordered. Each comes out right, or fails saying to reference the other resource.

var (
	applyArgs   = []string{"apply", "-auto-approve", "-input=false", "-no-color"}
	destroyArgs = []string{"destroy", "-auto-approve", "-input=false", "-no-color"}
)

// archivedRules is what the mock holds of gate tfacc_checkout: "" when it is not archived, else its
// rule names.
func archivedRules(t *testing.T, m *mockconsole.Server) string {
	t.Helper()
	if err := expectMockGateArchived(m, "tfacc_checkout", true)(nil); err != nil {
		t.Fatal(err)
	}
	return mockRuleNames(m, "tfacc_checkout")
}

// A gate_id written as a literal leaves the gate's destroy and its rules' unordered: whichever
// comes first, the gate that destroy archives keeps its rules. Forced gate first (the gate depends
// on the rules), the rules' destroy finds the archived gate's rules refused and leaves them.
func TestAccGateRules_handOffLiteralGateID(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t)
	m, url := startMock(t, mockconsole.Config{})
	literal := func(gateLines ...string) string {
		return strings.Replace(archivedGateConfig(url, false, gateLines...),
			"gate_id = featureconsole_gate.checkout.gate_id", `gate_id = "tfacc_checkout"`, 1)
	}
	for _, order := range []struct{ name, gateLine string }{
		{"gate first", `depends_on = [featureconsole_gate_rules.checkout]`},
		{"unordered", ""},
	} {
		m.DeleteGate("tfacc_checkout")
		// The gate exists before its rules: a literal id does not order their creates either.
		cli.write("main.tf", providerBlock(url)+gateConfig(`archive_on_destroy = true`))
		cli.must("init", "-input=false", "-no-color")
		cli.must(applyArgs...)
		cli.write("main.tf", literal(`archive_on_destroy = true`, order.gateLine))
		cli.must(applyArgs...)
		out := cli.must(destroyArgs...)
		if got := archivedRules(t, m); got != "staff,everyone" {
			t.Errorf("%s: the archived gate holds %q, want staff,everyone", order.name, got)
		}
		lacksOutput(t, out, `archived without its rules`)
		if order.gateLine != "" {
			wantsOutput(t, out, `Warning: Rules of archived gate "tfacc_checkout" left in place`)
		}
	}
}

// -target and separate applies: the rules' destroy alone removes them (keep_on_destroy = false),
// and a later destroy of the gate, in another run, archives it with none, claiming nothing else;
// -target of the gate destroys its rules first in the same run, which hand them over.
func TestAccGateRules_handOffTargetAndSeparateApplies(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t)
	m, url := startMock(t, mockconsole.Config{})
	full := archivedGateConfig(url, false, `archive_on_destroy = true`)
	cli.write("main.tf", full)
	cli.must("init", "-input=false", "-no-color")
	cli.must(applyArgs...)

	out := cli.must(append(destroyArgs, "-target=featureconsole_gate.checkout")...)
	wantsOutput(t, out, `Warning: Rules of gate "tfacc_checkout" written back before archiving`)
	if got := archivedRules(t, m); got != "staff,everyone" {
		t.Errorf("-target of the gate: the archived gate holds %q, want staff,everyone", got)
	}

	m.DeleteGate("tfacc_checkout")
	cli.must(applyArgs...)
	cli.must(append(destroyArgs, "-target=featureconsole_gate_rules.checkout")...)
	if err := expectMockGateArchived(m, "tfacc_checkout", false)(nil); err != nil {
		t.Fatal(err)
	}
	if got := mockRuleNames(m, "tfacc_checkout"); got != "" {
		t.Errorf("-target of the rules: the gate holds %q, want no rules", got)
	}
	out = cli.must(destroyArgs...)
	lacksOutput(t, out, `written back`, `archived without its rules`)
	if got := archivedRules(t, m); got != "" {
		t.Errorf("the gate destroyed after its rules, in another run: it holds %q, want none", got)
	}

	m.DeleteGate("tfacc_checkout")
	cli.write("main.tf", full)
	cli.must(applyArgs...)
	cli.write("main.tf", providerBlock(url)+gateConfig(`archive_on_destroy = true`))
	cli.must(applyArgs...)
	out = cli.must(destroyArgs...)
	lacksOutput(t, out, `written back`, `archived without its rules`)
	if got := archivedRules(t, m); got != "" {
		t.Errorf("separate applies: the archived gate holds %q, want none", got)
	}
}

// newSchemaHCL allows max_items = 0, which checkoutSchemaHCL (minimum 1) refuses.
const newSchemaHCL = `jsonencode({
    type = "object", required = ["title"],
    properties = { title = { type = "string" }, max_items = { type = "integer", minimum = 0 } }
  })`

// configAndRules is the config tfacc_copy with schema and one rule serving max_items, its rules'
// config_id written as idExpr; extra lines go into the config's block (config) and the rules' (rules).
func configAndRules(url, schema, maxItems, idExpr, config, rules string) string {
	return providerBlock(url) + strings.NewReplacer(
		checkoutSchemaHCL, schema,
		"config_id = featureconsole_dynamic_config.copy.config_id", "config_id = "+idExpr,
	).Replace(configWithRules(configRuleHCL("free", "100", `{ title = "Free", max_items = `+maxItems+` }`), config, rules))
}

// The config's plan hands its schema to its rules' plan. Rules planned before a schema change (a
// literal config_id, here forced by the config depending on them) fail where a value breaks either
// schema, saying to reference the config, and send nothing; ordered (a reference, or depends_on), -target of the rules (which takes
// the config along), -target of the config alone and separate applies come out right; values that
// only the new schema allows, applied before it in a separate apply, fail at plan naming the schema
// the service holds.
func TestAccDynamicConfigRules_schemaHandOff(t *testing.T) {
	t.Parallel()
	cli := newTFCLI(t)
	m, url := startMock(t, mockconsole.Config{})
	ref := "featureconsole_dynamic_config.copy.config_id"
	cli.write("main.tf", configAndRules(url, checkoutSchemaHCL, "1", `"tfacc_copy"`, "", ""))
	cli.must("init", "-input=false", "-no-color")
	// Created at once with a literal id the rules may come first: they then fail, saying to
	// reference the config. Created in order here.
	cli.write("main.tf", configAndRules(url, checkoutSchemaHCL, "3", `"tfacc_copy"`, "", "depends_on = [featureconsole_dynamic_config.copy]"))
	cli.must(applyArgs...)

	before := len(m.Requests())
	cli.write("main.tf", configAndRules(url, newSchemaHCL, "0", `"tfacc_copy"`, "depends_on = [featureconsole_dynamic_config_rules.copy]", ""))
	_, out := cli.run([]int{1}, "plan", "-input=false", "-no-color")
	wantsOutput(t, out, `Error: Return value of rule "free" breaks the schema`, `the schema the service holds for the config`,
		`reference the config as config_id =\s+featureconsole_dynamic_config.<name>.config_id`)
	// Values the held schema allows and the new one refuses: the config's plan, after its rules',
	// says so.
	cli.write("main.tf", configAndRules(url, strings.Replace(checkoutSchemaHCL, "minimum = 1", "minimum = 2", 1), "1",
		`"tfacc_copy"`, "depends_on = [featureconsole_dynamic_config_rules.copy]", ""))
	_, out = cli.run([]int{1}, "plan", "-input=false", "-no-color")
	wantsOutput(t, out, `Error: Rules of dynamic config "tfacc_copy" planned before its schema change`,
		`config_id = featureconsole_dynamic_config.<name>.config_id`)
	for _, r := range m.Requests()[before:] {
		if r.Method != http.MethodGet {
			t.Errorf("the failed plans sent %s %s", r.Method, r.Path)
		}
	}

	cli.write("main.tf", configAndRules(url, newSchemaHCL, "0", `"tfacc_copy"`, "", "depends_on = [featureconsole_dynamic_config.copy]"))
	cli.must(applyArgs...)
	wantsOutput(t, cli.must("plan", "-input=false", "-no-color", "-detailed-exitcode"), `No changes`)

	// -target of the rules takes the config they reference along, planned and applied first.
	cli.must(destroyArgs...)
	cli.write("main.tf", configAndRules(url, checkoutSchemaHCL, "1", ref, "", ""))
	cli.must(applyArgs...)
	cli.write("main.tf", configAndRules(url, newSchemaHCL, "0", ref, "", ""))
	cli.must(append(applyArgs, "-target=featureconsole_dynamic_config_rules.copy")...)
	if c, _ := m.DynamicConfig("tfacc_copy"); len(c.Rules) != 1 || !strings.Contains(string(marshalAny(c.Rules[0].ReturnValue)), `"max_items":0`) {
		t.Errorf("-target of the rules: the config holds %+v", c.Rules)
	}

	// Separate applies: the values first, while the service holds the old schema, fail at plan.
	cli.must(destroyArgs...)
	cli.write("main.tf", configAndRules(url, checkoutSchemaHCL, "1", ref, "", ""))
	cli.must(applyArgs...)
	cli.write("main.tf", configAndRules(url, checkoutSchemaHCL, "0", ref, "", ""))
	_, out = cli.run([]int{1}, "plan", "-input=false", "-no-color")
	wantsOutput(t, out, `Return value of rule "free" breaks the schema`)
	// -target of the config alone writes the schema; the next apply, the values it allows.
	cli.write("main.tf", configAndRules(url, newSchemaHCL, "0", ref, "", ""))
	cli.must(append(applyArgs, "-target=featureconsole_dynamic_config.copy")...)
	if c, _ := m.DynamicConfig("tfacc_copy"); !strings.Contains(string(c.Schema), `"minimum":0`) || len(c.Rules) != 1 ||
		strings.Contains(string(marshalAny(c.Rules[0].ReturnValue)), `"max_items":0`) {
		t.Errorf("-target of the config: the config holds %s, %+v", c.Schema, c.Rules)
	}
	cli.must(applyArgs...)
	wantsOutput(t, cli.must("plan", "-input=false", "-no-color", "-detailed-exitcode"), `No changes`)
	cli.must(destroyArgs...)
	if c, _ := m.DynamicConfig("tfacc_copy"); len(c.Rules) != 0 {
		t.Errorf("destroy left the rules %+v", c.Rules)
	}
}

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
