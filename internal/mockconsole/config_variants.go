// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Variants of config rules (the service's 2025 documents): a rule may split the users it passes between variants,
// each with its own return value; their percentages sum to 100 and every return value must match
// the config's schema. A variant sent without an id is new and gets one; one sent back with the id
// of a variant the config holds keeps it. A rules write that leaves a rule's variants out removes
// them. Gate rules have none.

// Variant is one variant of a config rule as the service holds and answers it.
type Variant struct {
	ID             string  `json:"id"`
	Name           string  `json:"name"`
	PassPercentage float64 `json:"passPercentage"`
	ReturnValue    any     `json:"returnValue"`
	// ReturnValueJSON5 is the console's JSON5 copy of ReturnValue: the same value.
	ReturnValueJSON5 any `json:"returnValueJson5,omitempty"`
}

func cloneVariants(vs []Variant) []Variant {
	if vs == nil {
		return nil
	}
	out := make([]Variant, len(vs))
	for i, v := range vs {
		v.ReturnValue, v.ReturnValueJSON5 = copyJSON(v.ReturnValue), copyJSON(v.ReturnValueJSON5)
		out[i] = v
	}
	return out
}

// variantContent is what decides whether a rule's variants changed (ids aside).
type variantContent struct {
	Name           string  `json:"name"`
	PassPercentage float64 `json:"passPercentage"`
	ReturnValue    any     `json:"returnValue"`
}

func variantContents(vs []Variant) []variantContent {
	var out []variantContent
	for _, v := range vs {
		out = append(out, variantContent{v.Name, v.PassPercentage, v.ReturnValue})
	}
	return out
}

// gateVariantsRefused is the service's 400 for a gate rule carrying variants.
func gateVariantsRefused(in []Rule) *response {
	for i, r := range in {
		if r.Variants != nil {
			return ref(errResp(http.StatusBadRequest, "rules[%d].variants: gate rules have no variants", i))
		}
	}
	return nil
}

// variantsRefused is the service's check of config rules' variants, schema aside: names present and
// unique within the rule, percentages between 0 and 100 summing to 100 (to the hundredth), return
// values JSON objects.
func variantsRefused(in []Rule) *response {
	for i, r := range in {
		if len(r.Variants) == 0 {
			continue
		}
		names := map[string]int{}
		hundredths := 0.0
		for k, v := range r.Variants {
			at := fmt.Sprintf("rules[%d].variants[%d]", i, k)
			if strings.TrimSpace(v.Name) == "" {
				return ref(errResp(http.StatusBadRequest, "%s.name must not be empty", at))
			}
			if j, dup := names[v.Name]; dup {
				return ref(errResp(http.StatusBadRequest, "%s.name %q duplicates rules[%d].variants[%d].name", at, v.Name, i, j))
			}
			names[v.Name] = k
			if v.PassPercentage < 0 || v.PassPercentage > 100 {
				return ref(errResp(http.StatusBadRequest, "%s.passPercentage must be between 0 and 100", at))
			}
			if _, isObj := v.ReturnValue.(map[string]any); !isObj {
				return ref(errResp(http.StatusBadRequest, "%s.returnValue must be a JSON object", at))
			}
			hundredths += math.Round(v.PassPercentage * 100)
		}
		if hundredths != 10000 {
			return ref(errResp(http.StatusBadRequest, "rules[%d].variants (rule %q): passPercentage of the variants must sum to 100, got %s",
				i, r.Name, fmt.Sprint(hundredths/100)))
		}
	}
	return nil
}

// variantValuesRefused is the schema check of the return values of rule i's variants.
func variantValuesRefused(sch *jsonschema.Schema, i int, r Rule) *response {
	for k, v := range r.Variants {
		if err := validateValue(sch, marshal(v.ReturnValue)); err != nil {
			return ref(errResp(http.StatusBadRequest, "rules[%d].variants[%d].returnValue (rule %q, variant %q) does not match the schema: %v",
				i, k, r.Name, v.Name, err))
		}
	}
	return nil
}

// withVariantIDs gives the variants of the rules written their ids: the id of a variant sent back
// that held (the config's rules) holds is kept, any other variant gets a new one; s.mu is held.
func (s *Server) withVariantIDs(rules, held []Rule) {
	heldIDs := map[string]bool{}
	for _, r := range held {
		for _, v := range r.Variants {
			heldIDs[v.ID] = true
		}
	}
	for i := range rules {
		s.storeVariants(&rules[i], func(v Variant) bool { return v.ID != "" && heldIDs[v.ID] })
	}
}

// storeVariants puts a rule's variants in their stored form, keeping the ids keep says to keep and
// giving the others new ones; s.mu is held.
func (s *Server) storeVariants(r *Rule, keep func(Variant) bool) {
	if len(r.Variants) == 0 {
		r.Variants = nil // the service answers a rule without variants without the field
		return
	}
	taken := map[string]bool{}
	for k := range r.Variants {
		v := &r.Variants[k]
		if !keep(*v) || taken[v.ID] {
			v.ID = s.newBaseID()
		}
		taken[v.ID] = true
		v.ReturnValue = normJSON(v.ReturnValue)
		if v.ReturnValueJSON5 == nil {
			v.ReturnValueJSON5 = copyJSON(v.ReturnValue)
		}
	}
}

// reorderVariants writes the return values of a rule's variants as ServeConfigValuesReordered does.
func reorderVariants(r *Rule) {
	for k := range r.Variants {
		r.Variants[k].ReturnValue = json.RawMessage(reorderedJSON(marshal(r.Variants[k].ReturnValue)))
	}
}
