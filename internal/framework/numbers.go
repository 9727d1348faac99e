// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package framework

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Numbers as Terraform holds them: the service's JSON numbers and float percentages into exact
// Terraform numbers, bounded so that a hostile number cannot cost minutes, and percentages at the
// two decimals the service keeps.

// ShortestDecimal renders a JSON number in its shortest exact decimal form: 12.50 → 12.5, 1e3 → 1000.
// A number whose decimal form would be huge (1e9999999 has ten million digits) keeps its JSON text.
func ShortestDecimal(num string) (string, error) {
	if len(num) > maxNumberText {
		return num, nil
	}
	f, err := ParseNumber(num)
	if err != nil {
		return "", err
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

// NumberFits reports whether a JSON number can be held as a Terraform number without a decimal
// expansion of millions of digits (see decimalFits).
func NumberFits(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) > maxNumberText {
		return false
	}
	bf, err := ParseNumber(string(raw))
	return err == nil && decimalFits(bf)
}

// ParseNumber reads a JSON number at the precision Terraform uses for configuration numbers,
// so that a value read back equals the value written (0.1 stays 0.1).
func ParseNumber(s string) (*big.Float, error) {
	bf, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	if err != nil {
		return nil, fmt.Errorf("invalid number %q: %w", s, err)
	}
	return bf, nil
}

func NumberFromFloat(f float64) types.Number {
	bf, err := ParseNumber(strconv.FormatFloat(f, 'g', -1, 64))
	if err != nil {
		return types.NumberValue(big.NewFloat(f))
	}
	return types.NumberValue(bf)
}

// RoundPercentage rounds a percentage to the two decimals the service keeps, so that binary float
// noise in its answers (33.330000000000005) reads as the value written (33.33).
func RoundPercentage(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	r := math.Round(f*100) / 100
	// Formatting through the shortest decimal gives the float64 nearest the two-decimal value.
	if v, err := strconv.ParseFloat(strconv.FormatFloat(r, 'f', 2, 64), 64); err == nil {
		return v
	}
	return r
}

// PercentFromFloat is a pass percentage as the service answered it, at the two decimals it keeps:
// 33.330000000000005 would differ from the configuration and, in configuration generated from it,
// fail PassPercentageValidator.
func PercentFromFloat(f float64) types.Number {
	return NumberFromFloat(RoundPercentage(f))
}
