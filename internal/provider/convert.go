package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// requireClient reports a clear error when a CRUD call arrives before the provider could configure
// a client (for example when base_url depends on a value known only after apply).
func requireClient(d *providerData, diags *diag.Diagnostics) bool {
	if d != nil && d.client != nil {
		return true
	}
	diags.AddError("Provider not configured",
		"The featureconsole provider has no console API client: base_url or api_key was unknown when the provider was configured. "+
			"Use values known at plan time for the provider configuration.")
	return false
}

// stringOrNull is null for "", which the service sends for an attribute that was never set.
func stringOrNull(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

func stringList(s []string) types.List {
	if s == nil {
		return types.ListNull(types.StringType)
	}
	vals := make([]attr.Value, len(s))
	for i, v := range s {
		vals[i] = types.StringValue(v)
	}
	return types.ListValueMust(types.StringType, vals)
}

// compactJSON renders raw JSON without insignificant white space; invalid JSON is returned as it is.
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// shortestDecimal renders a JSON number in its shortest exact decimal form: 12.50 → 12.5, 1e3 → 1000.
// A number whose decimal form would be huge (1e9999999 has ten million digits) keeps its JSON text.
func shortestDecimal(num string) (string, error) {
	if len(num) > maxNumberText {
		return num, nil
	}
	f, _, err := big.ParseFloat(num, 10, 512, big.ToNearestEven)
	if err != nil {
		return "", fmt.Errorf("invalid number %q: %w", num, err)
	}
	if !decimalFits(f) {
		return num, nil
	}
	return f.Text('f', -1), nil
}

// maxNumberText bounds the numbers the provider converts: the service could send 1e9999999 (ten
// bytes), whose decimal expansion takes minutes and megabytes, or a number a megabyte long.
const maxNumberText = 1000

// decimalFits reports whether f's plain decimal form is at most about maxNumberText digits.
// The plugin protocol writes every number that is not an exact float64 in that form.
func decimalFits(f *big.Float) bool {
	if f.IsInf() {
		return false
	}
	exp := f.MantExp(nil) // binary exponent: about exp*0.30103 decimal digits
	return exp > -3*maxNumberText && exp < 3*maxNumberText
}

// targetValueStrings turns a condition's targetValue (an array, or a single scalar) into a list of
// strings; numbers take their shortest decimal form, other JSON values their compact JSON text.
func targetValueStrings(raw json.RawMessage) (types.List, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return types.ListNull(types.StringType), nil
	}
	var items []json.RawMessage
	if raw[0] == '[' {
		if err := json.Unmarshal(raw, &items); err != nil {
			return types.ListNull(types.StringType), err
		}
	} else {
		items = []json.RawMessage{raw}
	}
	vals := make([]attr.Value, len(items))
	for i, it := range items {
		s, err := scalarString(it)
		if err != nil {
			return types.ListNull(types.StringType), err
		}
		vals[i] = types.StringValue(s)
	}
	return types.ListValueMust(types.StringType, vals), nil
}

func scalarString(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", fmt.Errorf("empty JSON value")
	}
	switch c := raw[0]; {
	case c == '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case c == '-' || (c >= '0' && c <= '9'):
		return shortestDecimal(string(raw))
	default:
		return compactJSON(raw), nil
	}
}
