// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

type keyResource struct{ resourceData }

var _ managedResource = &keyResource{}

func NewKeyResource() resource.Resource {
	return &keyResource{resourceData{typeName: "key"}}
}

// keyTypes are the types a project's key may have (the document's SCIM and ORG keys are the
// organisation's).
var keyTypes = []string{console.KeyTypeServer, console.KeyTypeClient, console.KeyTypeConsole}

func (r *keyResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A key of the project, which an SDK (`SERVER`, `CLIENT`) or a script (`CONSOLE`) uses. Its secret " +
			"is `secret`: sensitive, never shown in plan or apply output nor in the provider's logs, but held in the state " +
			"like every attribute (keep the state encrypted and its access limited). A change of `rotation_triggers` rotates " +
			"the key in place: a new secret, the old one stops working. Import by the key's fingerprint " +
			"(`sha256:` and 16 hex digits of the secret's SHA-256). Destroy deletes the key: every SDK still using its " +
			"secret stops working.",
		Attributes: map[string]schema.Attribute{
			"id": keptString("Fingerprint of the key's secret when Terraform created or imported it: `sha256:` and the " +
				"first 16 hex digits of its SHA-256, never the secret. It stays the same when the key rotates."),
			"type": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "`SERVER`, `CLIENT` or `CONSOLE`. Changing it forces replacement (a new key, a new secret).",
				Validators:          []validator.String{framework.OneOfDocumented("key type", keyTypes)},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"description": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "What the key is for, required to create a key. Give each key a description of its own: a " +
					"key rotated in the console is found again by what it holds, description included. Updated in place. The " +
					"service's answers may leave it out: an imported key then has none until you write one.",
			},
			"environments": schema.SetAttribute{
				Optional:    true,
				ElementType: types.StringType,
				MarkdownDescription: "Environments the key serves, by name, each one the project has (checked at plan). Omit " +
					"for none set. Updated in place.",
				Validators: []validator.Set{setvalidator.ValueStringsAre(framework.NotBlank())},
			},
			"scopes": schema.SetAttribute{
				Optional:    true,
				Computed:    true,
				ElementType: types.StringType,
				MarkdownDescription: "What the key may do: " + framework.CodeList(console.KeyScopes) + ". Omitted, the " +
					"service's choice for the key's type. Updated in place.",
				Validators:    []validator.Set{setvalidator.ValueStringsAre(stringvalidator.OneOf(console.KeyScopes...))},
				PlanModifiers: []planmodifier.Set{setplanmodifier.UseStateForUnknown()},
			},
			"target_app_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Id of the key's target app, such as `featureconsole_target_app.web.id`. Omit for none. Updated in place.",
				Validators:          []validator.String{framework.NotBlank()},
			},
			"secondary_target_app_ids": schema.SetAttribute{
				Optional:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "Ids of further target apps the key serves. Omit for none. Updated in place.",
				Validators:          []validator.Set{setvalidator.ValueStringsAre(framework.NotBlank())},
			},
			"rotation_triggers": schema.MapAttribute{
				Optional:    true,
				ElementType: types.StringType,
				MarkdownDescription: "Any values; a change of any of them rotates the key in place: the service gives it a new " +
					"`secret` and the old one stops working at once. Adding them to a key that has none (an imported key) " +
					"records them without rotating.",
			},
			"deactivated": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "`true` deactivates the key: it stays in the project but stops working. The service has " +
					"no way back: setting it to `false` again forces replacement (a new key, a new secret). Defaults to `false`.",
				Default:       booldefault.StaticBool(false),
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.RequiresReplaceIf(reactivated, "Setting it back to false creates a new key.", "Setting it back to `false` creates a new key.")},
			},
			"secret": schema.StringAttribute{
				Computed:  true,
				Sensitive: true,
				MarkdownDescription: "The key itself, which the SDK is given. Sensitive: read it through an output marked " +
					"`sensitive` (`terraform output -raw`) or pass it to a secret store. A new one after a rotation, Terraform's " +
					"(`rotation_triggers`) or the console's (the next plan shows it changed).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"timeouts": framework.TimeoutsAttribute(ctx, "the key", timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}, nil),
		},
	}
}

// reactivated is a deactivated key configured active again, which only a new key can be.
func reactivated(_ context.Context, req planmodifier.BoolRequest, resp *boolplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = req.StateValue.ValueBool() && !req.PlanValue.IsUnknown() && !req.PlanValue.ValueBool()
}

// keyObject names a key in diagnostics: by fingerprint, never by its secret.
func keyObject(m keyModel) string {
	if fp, ok := framework.KnownString(m.ID); ok && fp != "" {
		return "key " + fp
	}
	return fmt.Sprintf("%s key %q", m.Type.ValueString(), m.Description.ValueString())
}

func (r *keyResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan keyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	body, diags := expandKey(ctx, plan)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "create", &resp.Diagnostics)
	defer cancel()
	// The keys there before: a create whose answer is lost made the one key not among them.
	filter := console.KeyFilter{PrimaryTargetApp: plan.TargetAppID.ValueString()}
	before, beforeErr := r.data.client.ListKeys(ctx, filter, console.ListOptions{})
	created, err := r.data.client.CreateKey(ctx, body)
	if console.MaybeApplied(err) && beforeErr == nil {
		created, err = r.lostCreate(ctx, err, plan, filter, before)
	}
	if err != nil {
		framework.APIFailure{Op: "create", Object: keyObject(plan)}.Add(ctx, &resp.Diagnostics, op, err)
		return
	}
	plan.ID = types.StringValue(console.Fingerprint(created.Secret))
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, keyIdentityAttr, plan.ID)...)
	plan.Secret = types.StringValue(created.Secret)
	// The key exists from here on: a failure below leaves it in the state, to be updated or destroyed.
	got, err := r.finishWrite(ctx, created.Secret, plan.Deactivated.ValueBool() && created.Status != console.KeyStatusDeactivated)
	if err != nil {
		resp.Diagnostics.Append(resp.State.Set(ctx, settled(plan))...)
		framework.APIFailure{Op: "create", Object: keyObject(plan)}.Add(ctx, &resp.Diagnostics, op, err)
		return
	}
	flattenKey(got, &plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// lostCreate is the key a create whose answer was lost made: a key is named by nothing but its
// secret, so it is the one key of the listing that was not there before the create (before) and
// holds what was sent. None, or several, and the create's error stands.
func (r *keyResource) lostCreate(ctx context.Context, err error, plan keyModel, filter console.KeyFilter, before []console.Key) (*console.Key, error) {
	after, lerr := r.data.client.ListKeys(ctx, filter, console.ListOptions{})
	if lerr != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, k := range before {
		known[k.Secret] = true
	}
	want := plan
	if plan.Scopes.IsUnknown() {
		want.Scopes = types.SetNull(types.StringType) // the service's choice: any
	}
	var found []console.Key
	for _, k := range after {
		if !known[k.Secret] && keyHolds(k, want) {
			found = append(found, k)
		}
	}
	if len(found) != 1 {
		return nil, err
	}
	tflog.Info(ctx, "create answer was lost but the key was stored as sent: carrying on as created", map[string]any{"fingerprint": console.Fingerprint(found[0].Secret)})
	return &found[0], nil
}

// finishWrite deactivates the key when asked, then reads it as it now stands.
func (r *keyResource) finishWrite(ctx context.Context, secret string, deactivate bool) (*console.Key, error) {
	if deactivate {
		if err := r.data.client.DeactivateKey(ctx, secret); err != nil {
			return nil, err
		}
	}
	return r.data.client.GetKey(ctx, secret)
}

// settled is m with what is still unknown set to what it was before the plan: the state a failed
// write leaves.
func settled(m keyModel) *keyModel {
	if m.Scopes.IsUnknown() {
		m.Scopes = types.SetNull(types.StringType)
	}
	return &m
}

func (r *keyResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state keyModel
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.State, &state) {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, state.Timeouts, "read", &resp.Diagnostics)
	defer cancel()
	got, err := r.data.client.GetKey(ctx, state.Secret.ValueString())
	if console.NotFound(err) {
		// The key may have been rotated in the console: its old secret is gone, the key is not.
		got, err = r.rotatedElsewhere(ctx, state, &resp.Diagnostics)
		if err == nil && got == nil {
			framework.RemovedFromState(ctx, resp, "Key", state.ID.ValueString())
			return
		}
	}
	if err != nil {
		framework.APIFailure{Op: "read", Object: keyObject(state)}.Add(ctx, &resp.Diagnostics, op, err)
		return
	}
	flattenKey(got, &state)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// rotatedElsewhere finds the key whose secret the console rotated: the service names a key by its
// secret alone, so it is the one key of the project that holds everything the state does (type,
// description where the listing gives it, environments, scopes, target apps) under a secret no
// longer the state's. None is a key deleted; several are keys Terraform cannot tell apart, which
// a warning names and the state loses (import the right one by its fingerprint).
func (r *keyResource) rotatedElsewhere(ctx context.Context, state keyModel, diags *diag.Diagnostics) (*console.Key, error) {
	all, err := r.data.client.ListKeys(ctx, console.KeyFilter{PrimaryTargetApp: state.TargetAppID.ValueString()}, console.ListOptions{})
	if err != nil {
		return nil, err
	}
	var found []console.Key
	for _, k := range all {
		if k.Secret != state.Secret.ValueString() && keyHolds(k, state) {
			found = append(found, k)
		}
	}
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return &found[0], nil
	}
	fps := make([]string, len(found))
	for i, k := range found {
		fps[i] = console.Fingerprint(k.Secret)
	}
	diags.AddWarning(fmt.Sprintf("Key %s not found", state.ID.ValueString()),
		fmt.Sprintf("The key's secret no longer works, and %d keys of the project hold what it held (fingerprints %s): "+
			"it may have been rotated in the console. It was removed from the Terraform state; import the one that is "+
			"this key by its fingerprint.", len(found), strings.Join(fps, ", ")))
	return nil, nil
}

// keyHolds reports whether k holds what the state says of its key.
func keyHolds(k console.Key, m keyModel) bool {
	got := m
	flattenKey(&k, &got)
	same := got.Type.Equal(m.Type) && got.TargetAppID.Equal(m.TargetAppID) &&
		sameStrings(got.Environments, m.Environments) && sameStrings(got.SecondaryTargetAppIDs, m.SecondaryTargetAppIDs) &&
		(m.Scopes.IsNull() || got.Scopes.Equal(m.Scopes))
	return same && (k.Description == nil || *k.Description == m.Description.ValueString())
}

// sameStrings compares two sets of strings, null as empty.
func sameStrings(a, b types.Set) bool {
	as, bs := stringsOf(a), stringsOf(b)
	slices.Sort(as)
	slices.Sort(bs)
	return slices.Equal(as, bs)
}

func stringsOf(s types.Set) []string {
	var out []string
	for _, v := range s.Elements() {
		if str, ok := v.(types.String); ok {
			out = append(out, str.ValueString())
		}
	}
	return out
}

func (r *keyResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state keyModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if !r.begin(ctx, &resp.Diagnostics, resp.Identity, req.Plan, &plan) {
		return
	}
	body, diags := expandKey(ctx, plan)
	old, oldDiags := expandKey(ctx, state)
	if resp.Diagnostics.Append(append(diags, oldDiags...)...); resp.Diagnostics.HasError() {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, plan.Timeouts, "update", &resp.Diagnostics)
	defer cancel()
	fail := func(err error) {
		// What took before the failure is the state: a rotated key's new secret above all.
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		framework.APIFailure{Op: "update", Object: keyObject(state)}.Add(ctx, &resp.Diagnostics, op, err)
	}
	secret := state.Secret.ValueString()
	if plan.Secret.IsUnknown() {
		rotated, err := r.data.client.RotateKey(ctx, secret)
		if err != nil {
			fail(err)
			return
		}
		secret = rotated.Secret
		state.Secret = types.StringValue(secret)
		state.RotationTriggers = plan.RotationTriggers
	}
	if !sameKeyWrite(old, body) {
		if _, err := r.data.client.UpdateKey(ctx, secret, body); err != nil {
			fail(err)
			return
		}
	}
	got, err := r.finishWrite(ctx, secret, plan.Deactivated.ValueBool() && !state.Deactivated.ValueBool())
	if err != nil {
		fail(err)
		return
	}
	plan.Secret = types.StringValue(secret)
	flattenKey(got, &plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// sameKeyWrite reports whether two update bodies say the same (sets compared as sets).
func sameKeyWrite(a, b console.KeyWrite) bool {
	sorted := func(s []string) []string {
		s = slices.Clone(s)
		slices.Sort(s)
		return s
	}
	return framework.Deref(a.Description, "") == framework.Deref(b.Description, "") &&
		slices.Equal(sorted(a.Environments), sorted(b.Environments)) &&
		(b.Scopes == nil || slices.Equal(sorted(a.Scopes), sorted(b.Scopes))) &&
		a.TargetAppID.ID() == b.TargetAppID.ID() &&
		slices.Equal(sorted(a.SecondaryTargetAppIDs), sorted(b.SecondaryTargetAppIDs))
}

func (r *keyResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state keyModel
	if !r.begin(ctx, &resp.Diagnostics, nil, req.State, &state) {
		return
	}
	ctx, op, cancel := framework.StartOperation(ctx, state.Timeouts, "delete", &resp.Diagnostics)
	defer cancel()
	if err := r.data.client.DeleteKey(ctx, state.Secret.ValueString()); err != nil && !console.NotFound(err) {
		framework.APIFailure{Op: "delete", Object: keyObject(state)}.Add(ctx, &resp.Diagnostics, op, err)
	}
}

// ImportState imports a key by its fingerprint (the import id, or the identity's): the key is
// found among the project's keys, so that neither the import id nor Terraform's output holds the
// secret.
func (r *keyResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	const example = "sha256:0123456789abcdef"
	fp, ok := importID(ctx, req, resp, "featureconsole_key", keyIdentityAttr, example)
	if !ok {
		return
	}
	if !console.IsFingerprint(fp) {
		resp.Diagnostics.AddError("Invalid import id",
			fmt.Sprintf("Import featureconsole_key by the fingerprint of its secret, such as %q: \"sha256:\" and the first 16 hex "+
				"digits of the secret's SHA-256 (`printf %%s \"$SECRET\" | sha256sum | cut -c1-16`). The secret itself is "+
				"not taken: Terraform prints the import id.", example))
		return
	}
	if !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	k, err := r.data.client.FindKey(ctx, fp)
	if err != nil {
		framework.APIFailure{Op: "import", Object: "key " + fp}.Add(ctx, &resp.Diagnostics, nil, err)
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), fp)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("secret"), k.Secret)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("deactivated"), false)...)
}

func (r *keyResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchema(keyIdentityAttr, "Fingerprint of the key's secret, such as sha256:0123456789abcdef: the key's id, never its secret.")
}
