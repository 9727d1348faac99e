// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import "encoding/json"

// RuleVariant is one share of the users a config rule passes (the service's 2025 documents): the variants of a rule
// split them by passPercentage (summing to 100), each served its own returnValue, a JSON object the
// config's schema checks like any other value. A rules write that leaves a rule's variants out
// removes them. Reads may also carry returnValueJson5, the console's JSON5 copy of returnValue: it
// says the same, so it is not read and never sent back.
type RuleVariant struct {
	// ID is the service's, opaque; sent back, it keeps the variant's identity.
	ID             string          `json:"id,omitempty"`
	Name           string          `json:"name"`
	PassPercentage float64         `json:"passPercentage"`
	ReturnValue    json.RawMessage `json:"returnValue"`
}

// withoutVariants is rules with no variants: only config rules have them, so a gate's write never
// carries the field.
func withoutVariants(rules []Rule) []Rule {
	out := make([]Rule, len(rules))
	for i, r := range rules {
		r.Variants = nil
		out[i] = r
	}
	return out
}
