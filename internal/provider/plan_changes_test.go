// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// plansOnly asserts what the plan of one resource says, path by path (attribute names joined by
// dots, list indexes as numbers: "phases.1.time_interval_ms"):
//   - an update (or an import, or a no-op): the exact set of paths it plans as changed or as
//     "known after apply" is want, so a plan that shows more than the change (a creation time
//     "known after apply") or promises what the write may change fails;
//   - a create: the exact set of paths it leaves unknown is want: what the service chooses.
//
// Lists of objects are compared element by element; a list or set of plain values is one path.
func plansOnly(addr string, want ...string) plancheck.PlanCheck {
	return plansOnlyCheck{addr: addr, want: want}
}

type plansOnlyCheck struct {
	addr string
	want []string
}

func (c plansOnlyCheck) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr || rc.Change == nil {
			continue
		}
		before := rc.Change.Before
		if rc.Change.Actions.Create() {
			before = rc.Change.After // only the unknowns count
		}
		got := map[string]bool{}
		plannedPaths(before, rc.Change.After, rc.Change.AfterUnknown, "", got)
		want := map[string]bool{}
		for _, p := range c.want {
			want[p] = true
		}
		if !reflect.DeepEqual(got, want) {
			resp.Error = fmt.Errorf("%s: the plan (%v) changes or leaves unknown %v, want exactly %v",
				c.addr, rc.Change.Actions, sortedKeys(got), sortedKeys(want))
		}
		return
	}
	resp.Error = fmt.Errorf("%s: not in the plan", c.addr)
}

// plannedPaths adds to out the paths below at whose planned value differs from before or is unknown.
func plannedPaths(before, after, unknown any, at string, out map[string]bool) {
	if u, ok := unknown.(bool); ok && u {
		out[at] = true
		return
	}
	join := func(k string) string {
		if at == "" {
			return k
		}
		return at + "." + k
	}
	switch a := after.(type) {
	case map[string]any:
		b, _ := before.(map[string]any)
		u, _ := unknown.(map[string]any)
		keys := maps.Clone(a)
		maps.Copy(keys, b)
		maps.Copy(keys, u)
		for k := range keys {
			plannedPaths(b[k], a[k], u[k], join(k), out)
		}
		return
	case []any:
		b, _ := before.([]any)
		u, _ := unknown.([]any)
		if !objectsIn(a) && !objectsIn(b) {
			if !reflect.DeepEqual(a, b) || slices.Contains(u, any(true)) {
				out[at] = true
			}
			return
		}
		for i := range max(len(a), len(b)) {
			plannedPaths(elemAt(b, i), elemAt(a, i), elemAt(u, i), join(strconv.Itoa(i)), out)
		}
		return
	}
	if !reflect.DeepEqual(before, after) {
		out[at] = true
	}
}

func objectsIn(l []any) bool {
	return slices.ContainsFunc(l, func(e any) bool { _, ok := e.(map[string]any); return ok })
}

func elemAt(l []any, i int) any {
	if i < len(l) {
		return l[i]
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	return slices.Sorted(maps.Keys(m))
}

func TestPlannedPaths(t *testing.T) {
	before := map[string]any{"name": "a", "tags": []any{"x", "y"}, "status": "In Progress", "gone": "g",
		"phases": []any{map[string]any{"id": "p1", "ms": 1.0}, map[string]any{"id": "p2", "ms": 2.0}}}
	after := map[string]any{"name": "a", "tags": []any{"y", "x"}, "status": "In Progress",
		"phases": []any{map[string]any{"id": "p1", "ms": 5.0}, map[string]any{"ms": 2.0}}}
	unknown := map[string]any{"last_modifier_id": true, "phases": []any{map[string]any{}, map[string]any{"id": true}}}
	got := map[string]bool{}
	plannedPaths(before, after, unknown, "", got)
	want := []string{"gone", "last_modifier_id", "phases.0.ms", "phases.1.id", "tags"}
	if !slices.Equal(sortedKeys(got), want) {
		t.Errorf("got %v, want %v", sortedKeys(got), want)
	}
}

// changedPaths is a plan check that the resource's planned change touches exactly the attribute
// paths wanted (dotted, list indexes as numbers): a value that changes or becomes unknown.
type changedPaths struct {
	addr string
	want []string
}

func expectChangedPaths(addr string, want ...string) changedPaths { return changedPaths{addr, want} }

func (c changedPaths) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr {
			continue
		}
		var got []string
		diffPaths("", rc.Change.Before, rc.Change.After, rc.Change.AfterUnknown, &got)
		slices.Sort(got)
		want := slices.Sorted(slices.Values(c.want))
		if !slices.Equal(got, want) {
			resp.Error = fmt.Errorf("%s: the plan changes %q, want %q", c.addr, got, want)
		}
		return
	}
	resp.Error = fmt.Errorf("%s: not in the plan", c.addr)
}

// diffPaths appends to out the leaf paths under p whose value differs between before and after or
// is unknown after.
func diffPaths(p string, before, after, unknown any, out *[]string) {
	if u, ok := unknown.(bool); ok && u {
		*out = append(*out, p)
		return
	}
	at := func(k string) string { return strings.TrimPrefix(p+"."+k, ".") }
	switch a := after.(type) {
	case map[string]any:
		b, _ := before.(map[string]any)
		u, _ := unknown.(map[string]any)
		keys := map[string]bool{}
		for _, m := range []map[string]any{a, b, u} {
			for k := range m {
				keys[k] = true
			}
		}
		for k := range keys {
			diffPaths(at(k), b[k], a[k], u[k], out)
		}
	case []any:
		b, _ := before.([]any)
		u, _ := unknown.([]any)
		elem := func(l []any, i int) any {
			if i < len(l) {
				return l[i]
			}
			return nil
		}
		for i := range max(len(a), len(b)) {
			diffPaths(at(strconv.Itoa(i)), elem(b, i), elem(a, i), elem(u, i), out)
		}
	default:
		if !reflect.DeepEqual(before, after) {
			*out = append(*out, p)
		}
	}
}
