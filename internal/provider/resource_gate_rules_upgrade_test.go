// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// gateRulesV0State is a state written by the provider before version 1: Terraform's state file
// after an apply of the DESIGN example's rule on new_checkout, schema version 0, with the copies.
const gateRulesV0State = "testdata/gate_rules_state_v0.json"

// v0Attributes is the resource's attributes in that state, as Terraform hands them to the provider.
func v0Attributes(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(gateRulesV0State)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Instances []struct {
				SchemaVersion int             `json:"schema_version"`
				Attributes    json.RawMessage `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	inst := st.Resources[0].Instances[0]
	if inst.SchemaVersion != 0 {
		t.Fatalf("%s is schema version %d", gateRulesV0State, inst.SchemaVersion)
	}
	return inst.Attributes
}

// The provider upgrades a version 0 state as Terraform asks it to: the copies of the gate's fields
// are gone, on_active_run takes its default, and everything else is kept as it was.
func TestGateRulesUpgradeStateV0(t *testing.T) {
	ctx := context.Background()
	server, err := newServerFactory(newTestProvider)()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	schema := schemas.ResourceSchemas["featureconsole_gate_rules"]
	if schema.Version != 1 {
		t.Fatalf("schema version %d, want 1", schema.Version)
	}
	raw := v0Attributes(t)
	resp, err := server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: "featureconsole_gate_rules", Version: 0, RawState: &tfprotov6.RawState{JSON: raw},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Errorf("%s: %s: %s", d.Severity, d.Summary, d.Detail)
	}
	typ := schema.ValueType()
	val, err := resp.UpgradedState.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]tftypes.Value
	if err := val.As(&got); err != nil {
		t.Fatal(err)
	}
	for _, copied := range []string{"description", "is_enabled", "status", "tags", "last_modifier_id", "last_modifier_name"} {
		if _, ok := got[copied]; ok {
			t.Errorf("the upgraded state still has %s", copied)
		}
	}
	var onActiveRun string
	if err := got["on_active_run"].As(&onActiveRun); err != nil || onActiveRun != "fail" {
		t.Errorf("on_active_run %q (%v), want the default fail", onActiveRun, err)
	}
	// Everything else is the version 0 state's, value for value.
	var before map[string]json.RawMessage
	if err := json.Unmarshal(raw, &before); err != nil {
		t.Fatal(err)
	}
	for name, want := range before {
		v, ok := got[name]
		if !ok {
			continue
		}
		wantVal, err := tftypes.ValueFromJSONWithOpts(want, typ.(tftypes.Object).AttributeTypes[name], tftypes.ValueFromJSONOpts{})
		if err != nil {
			t.Fatal(err)
		}
		if !v.Equal(wantVal) {
			t.Errorf("%s changed in the upgrade: %s, want %s", name, v, wantVal)
		}
	}
}

// A state written before version 1 (the copies in it) upgrades silently with the terraform CLI:
// the plan is empty, nothing is written, and the next apply saves the state without the copies.
func TestAccGateRules_stateUpgrade(t *testing.T) {
	cli := newTFCLI(t)
	m, url := startMock(t, mockconsole.Config{})
	state, err := os.ReadFile(gateRulesV0State)
	if err != nil {
		t.Fatal(err)
	}
	cfg := gateRulesConfig(url, "new_checkout", designExampleRules)
	// The service holds what the state was written from.
	cli.write("main.tf", cfg)
	cli.must("init", "-input=false", "-no-color")
	cli.must("apply", "-auto-approve", "-input=false", "-no-color")
	cli.write("terraform.tfstate", string(state))
	m.ResetRequests()

	cli.must("plan", "-detailed-exitcode", "-input=false", "-no-color")
	out := cli.must("apply", "-auto-approve", "-input=false", "-no-color")
	if !strings.Contains(out, "0 added, 0 changed, 0 destroyed") {
		t.Errorf("the upgrade applied a change:\n%s", out)
	}
	for _, r := range m.Requests() {
		if r.Method != "GET" {
			t.Errorf("the upgrade sent %s %s", r.Method, r.Path)
		}
	}
	saved := cli.read(filepath.Join("terraform.tfstate"))
	if !strings.Contains(saved, `"schema_version": 1`) || strings.Contains(saved, `"last_modifier_name"`) || !strings.Contains(saved, `"on_active_run": "fail"`) {
		t.Errorf("the saved state is not version 1 without copies:\n%s", saved)
	}
}
