// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	fwschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
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
	t.Parallel()
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
	// Written by Terraform 1.11.4, which older CLIs refuse: any CLI of the matrix takes 1.5.0's.
	cli.write("terraform.tfstate", strings.Replace(string(state), `"terraform_version": "1.11.4"`, `"terraform_version": "1.5.0"`, 1))
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

// gateRulesV0Resource serves featureconsole_gate_rules as schema version 0 did: the current
// resource's behaviour, with the copies of the gate's own fields in its state. The provider of an
// acceptance test's first step serves it, so that the next step meets a state written by it.
type gateRulesV0Resource struct{ gateRulesResource }

func (r *gateRulesV0Resource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = *r.gateRulesResource.UpgradeState(ctx)[0].PriorSchema
}

func (r *gateRulesV0Resource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return nil
}

func (r *gateRulesV0Resource) ModifyPlan(context.Context, resource.ModifyPlanRequest, *resource.ModifyPlanResponse) {
}

func (r *gateRulesV0Resource) current(ctx context.Context) fwschema.Schema {
	var resp resource.SchemaResponse
	r.gateRulesResource.Schema(ctx, resource.SchemaRequest{}, &resp)
	return resp.Schema
}

// toCurrent is a version 0 plan or state as the current resource's state.
func (r *gateRulesV0Resource) toCurrent(ctx context.Context, from interface {
	GetAttribute(context.Context, path.Path, any) diag.Diagnostics
}, diags *diag.Diagnostics) tfsdk.State {
	m := gateRulesModel{rulesFields: rulesFields{OnActiveRun: types.StringValue(onActiveRunFail)}}
	for name, target := range map[string]any{"id": &m.ID, "gate_id": &m.GateID, "rules": &m.Rules, "timeouts": &m.Timeouts} {
		diags.Append(from.GetAttribute(ctx, path.Root(name), target)...)
	}
	st := tfsdk.State{Schema: r.current(ctx), Raw: tftypes.NewValue(r.current(ctx).Type().TerraformType(ctx), nil)}
	diags.Append(st.Set(ctx, &m)...)
	return st
}

// toV0 writes the current resource's state as version 0 wrote it, the gate's fields read anew.
func (r *gateRulesV0Resource) toV0(ctx context.Context, from tfsdk.State, to *tfsdk.State, diags *diag.Diagnostics) {
	if from.Raw.IsNull() {
		to.RemoveResource(ctx)
		return
	}
	var m gateRulesModel
	diags.Append(from.Get(ctx, &m)...)
	g, err := r.data.client.GetGate(ctx, m.GateID.ValueString())
	if err != nil {
		diags.AddError("v0: read the gate", err.Error())
		return
	}
	for name, v := range map[string]any{
		"id": m.ID, "gate_id": m.GateID, "rules": m.Rules, "timeouts": m.Timeouts,
		"is_enabled": g.IsEnabled, "description": g.Description, "status": g.Status, "tags": framework.StringList(g.Tags),
		"last_modifier_id": g.LastModifierID, "last_modifier_name": g.LastModifierName,
	} {
		diags.Append(to.SetAttribute(ctx, path.Root(name), v)...)
	}
}

func (r *gateRulesV0Resource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan := r.toCurrent(ctx, req.Plan, &resp.Diagnostics)
	inner := resource.CreateResponse{State: tfsdk.State{Schema: plan.Schema, Raw: tftypes.NewValue(plan.Raw.Type(), nil)}, Identity: resp.Identity, Private: resp.Private}
	r.gateRulesResource.Create(ctx, resource.CreateRequest{Plan: tfsdk.Plan(plan)}, &inner)
	resp.Diagnostics.Append(inner.Diagnostics...)
	r.toV0(ctx, inner.State, &resp.State, &resp.Diagnostics)
}

func (r *gateRulesV0Resource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	inner := resource.ReadResponse{State: r.toCurrent(ctx, req.State, &resp.Diagnostics), Identity: resp.Identity, Private: resp.Private}
	r.gateRulesResource.Read(ctx, resource.ReadRequest{State: inner.State, Private: req.Private}, &inner)
	resp.Diagnostics.Append(inner.Diagnostics...)
	r.toV0(ctx, inner.State, &resp.State, &resp.Diagnostics)
}

func (r *gateRulesV0Resource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	r.gateRulesResource.Delete(ctx, resource.DeleteRequest{State: r.toCurrent(ctx, req.State, &resp.Diagnostics)}, resp)
}

// gateRulesV0Provider is the provider with featureconsole_gate_rules at schema version 0.
type gateRulesV0Provider struct{ *featureConsoleProvider }

func (p gateRulesV0Provider) Resources(ctx context.Context) []func() resource.Resource {
	out := p.featureConsoleProvider.Resources(ctx)
	for i, f := range out {
		if _, ok := f().(*gateRulesResource); ok {
			out[i] = func() resource.Resource { return &gateRulesV0Resource{*NewGateRulesResource().(*gateRulesResource)} }
		}
	}
	return out
}

// A state written by version 0 (the first step's provider serves it) upgrades silently: the next
// step, with the current provider, plans nothing, writes nothing, and keeps everything but the
// copies.
func TestAccGateRules_upgradeFromV0(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	v0 := map[string]func() (tfprotov6.ProviderServer, error){
		"featureconsole": func() (tfprotov6.ProviderServer, error) {
			p := newTestProvider()
			p.configured = new(atomic.Pointer[providerData])
			return providerserver.NewProtocol6WithError(gateRulesV0Provider{p})()
		},
	}
	cfg := gateRulesConfig(url, "new_checkout", designExampleRules)
	tfresource.Test(t, tfresource.TestCase{
		PreCheck:     func() { testAccPreCheck(t) },
		CheckDestroy: checkGateHasNoRules(m, "new_checkout"),
		Steps: []tfresource.TestStep{
			{
				ProtoV6ProviderFactories: v0,
				Config:                   cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("description"), knownvalue.StringExact("The new checkout flow")),
				},
			},
			{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				PreConfig:                m.ResetRequests,
				Config:                   cfg,
				ConfigPlanChecks:         tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("on_active_run"), knownvalue.StringExact("fail")),
					statecheck.ExpectKnownValue(gateRulesAddr, tfjsonpath.New("rules").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact("employees")),
				},
				Check: func(*terraform.State) error {
					for _, r := range m.Requests() {
						if r.Method != http.MethodGet {
							return fmt.Errorf("the upgrade sent %s %s", r.Method, r.Path)
						}
					}
					return nil
				},
			},
		},
	})
}
