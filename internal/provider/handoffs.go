// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/valueschema"
)

// What one resource hands another in the provider's memory, where neither's state can carry it:
// Terraform gives a resource only its own state. Both hand-offs hold within one provider process
// (one plan, one apply) and rely on Terraform's order, which only a reference gives: a
// config_id or gate_id written as a literal leaves the two resources unordered. So each hand-off
// either comes out right in every order, or fails with an error that says to reference the other
// resource; never a silent difference.
//
//   - rulesRemoved: the destroy of featureconsole_gate_rules hands the rules it removed to the
//     destroy of a featureconsole_gate that archives (archive_on_destroy), which writes them back.
//     The two destroys of one gate are serialised (handOffs): whichever runs first, the archived
//     gate keeps its rules (written back, or left in place because the service refuses changes of
//     an archived gate's rules). Destroys in separate runs (-target, separate applies) hand over
//     nothing: the rules' destroy removes them, as keep_on_destroy = false says.
//   - plannedSchemas: the plan of featureconsole_dynamic_config hands its schema to the plan of
//     the config's featureconsole_dynamic_config_rules, which checks return values against it. Rules
//     planned before a schema change that refuses their values, or applied before the config writes
//     its new schema, fail naming the fix; -target and separate applies check against the schema the
//     service holds, which is then the one the rules are written against.
//   - sourcesCreated: the plan of featureconsole_metric_source hands the names of the sources it
//     creates to the plan of a featureconsole_metric that names one (metric_source_name refers to
//     it), whose dry run would meet a source the service does not have yet: the check waits for
//     apply. A metric naming such a source by a literal may be planned first: its dry run then says
//     the source is missing, and the error says to refer to the source.
//   - gatesCreated: the plan of featureconsole_gate hands the ids of the gates it creates to the plan
//     of a featureconsole_experiment that targets one (targeting_gate_id refers to it), whose read of
//     the gate at plan time would not find it yet: the check waits for apply. An experiment naming
//     such a gate by a literal may be planned first: its read then says the gate is missing, and the
//     error says to refer to the gate.

// objectLocks are one mutex per object id.
type objectLocks struct {
	mu sync.Mutex
	m  map[string]*sync.Mutex
}

// lock locks id's mutex and returns its unlock.
func (l *objectLocks) lock(id string) (unlock func()) {
	l.mu.Lock()
	if l.m == nil {
		l.m = map[string]*sync.Mutex{}
	}
	mu := l.m[id]
	if mu == nil {
		mu = &sync.Mutex{}
		l.m[id] = mu
	}
	l.mu.Unlock()
	mu.Lock()
	return mu.Unlock
}

// plannedSchemas are the schemas featureconsole_dynamic_config plans, by config id, for the
// featureconsole_dynamic_config_rules of the same config: its plan follows the config's (its
// config_id refers to it), so it checks return values against the schema this apply will write,
// not the one the service still holds. One per provider instance, which serves one plan (or one
// apply, whose walk plans every change again first).
type plannedSchemas struct {
	mu sync.Mutex
	m  map[string]plannedSchema
	// held are, by config id, the checks of config rules planned without their config's plan: the
	// schema the service held, which their return values were checked against, and whether those
	// values fit another schema.
	held map[string]heldCheck
}

type heldCheck struct {
	raw  []byte
	fits func(*valueschema.Schema) bool
}

// plannedSchema is a config's schema in this plan: raw nil when the configuration sets none ({}),
// known false when it is known only after apply (nothing can be checked against it at plan time).
// pending is a schema the config's plan writes (a new config, or a changed schema) and its apply has
// not written yet.
type plannedSchema struct {
	raw     []byte
	known   bool
	pending bool
}

func (p *plannedSchemas) set(configID string, s plannedSchema) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[string]plannedSchema{}
	}
	p.m[configID] = s
}

// get returns the schema planned for the config, if its featureconsole_dynamic_config was planned.
func (p *plannedSchemas) get(configID string) (plannedSchema, bool) {
	if p == nil {
		return plannedSchema{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.m[configID]
	return s, ok
}

// written says that the config's apply wrote its planned schema.
func (p *plannedSchemas) written(configID string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if s, ok := p.m[configID]; ok {
		s.pending = false
		p.m[configID] = s
	}
}

// checkedHeld records that the config's rules checked their values against raw, the schema the
// service holds, because the config was not planned (yet); fits checks them against another.
func (p *plannedSchemas) checkedHeld(configID string, raw []byte, fits func(*valueschema.Schema) bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held == nil {
		p.held = map[string]heldCheck{}
	}
	p.held[configID] = heldCheck{raw: raw, fits: fits}
}

// plannedAfterRules reports, on the config's plan, rules of the config planned before it that
// checked their values against another schema than the one this plan writes, and whose values that
// schema refuses: applied in either order, the service would refuse one of the two writes.
func (p *plannedSchemas) plannedAfterRules(configID string, planned []byte, diags *diag.Diagnostics) {
	if p == nil {
		return
	}
	p.mu.Lock()
	held, ok := p.held[configID]
	p.mu.Unlock()
	if !ok || sameSchema(held.raw, planned) {
		return
	}
	if s := compiledSchema(planned); s == nil || held.fits(s) {
		return
	}
	diags.AddAttributeError(path.Root("schema"), fmt.Sprintf("Rules of dynamic config %q planned before its schema change", configID),
		fmt.Sprintf("Terraform planned the featureconsole_dynamic_config_rules of config %q before this "+
			"featureconsole_dynamic_config, so their return values were checked against the schema the service holds, "+
			"and the schema this plan writes refuses some of them. %s", configID, referenceConfig))
}

// rulesBeforeSchema reports, on the apply of config rules, a schema the config's plan writes that
// its apply has not written yet: the rules would be written against the schema the service still
// holds.
func (p *plannedSchemas) rulesBeforeSchema(configID string, diags *diag.Diagnostics) bool {
	s, ok := p.get(configID)
	if !ok || !s.pending {
		return false
	}
	diags.AddAttributeError(path.Root("config_id"), fmt.Sprintf("Rules of dynamic config %q applied before its schema change", configID),
		fmt.Sprintf("Terraform applies these rules before the featureconsole_dynamic_config that writes the config's new "+
			"schema; nothing was written. %s", referenceConfig))
	return true
}

// referenceConfig is what to do when a config and its rules are unordered.
const referenceConfig = "Reference the config in the rules, as config_id = featureconsole_dynamic_config.<name>.config_id " +
	"rather than a literal id, so that Terraform plans and applies the config first; then plan again."

// sameSchema compares two schemas by meaning; none, null and {} are the same.
func sameSchema(a, b []byte) bool {
	none := func(s []byte) bool {
		s = bytes.TrimSpace(s)
		return len(s) == 0 || string(s) == "null" || framework.IsEmptyJSONObject(s)
	}
	if none(a) || none(b) {
		return none(a) && none(b)
	}
	return framework.SameJSONMeaning(a, b)
}
