// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// WholeNumber is an integer field of the service. The service writes integers in any JSON number
// form (3600000, 3600000.0, 3.6e6) and sometimes as a string of one: each is read by value and
// rounded to the nearest whole number, the precision of the field. null is 0.
type WholeNumber int64

func (n *WholeNumber) UnmarshalJSON(b []byte) error {
	text, set, err := numberText(b)
	if err != nil || !set {
		*n = 0
		return err
	}
	v, err := parseWhole(text)
	if err != nil {
		return err
	}
	*n = WholeNumber(v)
	return nil
}

// parseWhole reads a decimal number and rounds it to the nearest int64.
func parseWhole(text string) (int64, error) {
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		return i, nil
	}
	if len(text) > 64 {
		return 0, fmt.Errorf("expected a whole number, got %q", truncate(text, 40))
	}
	f, _, err := big.ParseFloat(text, 10, 128, big.ToNearestEven)
	if err != nil || f.IsInf() {
		return 0, fmt.Errorf("expected a whole number, got %q", truncate(text, 40))
	}
	// Round half away from zero at whole units.
	half := big.NewFloat(0.5)
	if f.Sign() < 0 {
		half.Neg(half)
	}
	f.Add(f, half)
	i, acc := f.Int64()
	if (acc == big.Below && i == math.MaxInt64) || (acc == big.Above && i == math.MinInt64) {
		return 0, fmt.Errorf("number %q is out of range for an integer", truncate(text, 40))
	}
	return i, nil
}

// Millis is a time or duration in milliseconds; the service may write it as 1700000000000,
// 1700000000000.0 or "1700000000000". Null stays 0 (see Set).
type Millis struct {
	Value int64
	Set   bool
}

func (m *Millis) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*m = Millis{}
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if strings.TrimSpace(s) == "" {
			*m = Millis{}
			return nil
		}
		b = []byte(strings.TrimSpace(s))
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1<<62 {
		return fmt.Errorf("invalid time in milliseconds: %s", truncate(string(b), 40))
	}
	*m = Millis{Value: int64(math.Round(f)), Set: true}
	return nil
}

func (m Millis) MarshalJSON() ([]byte, error) {
	if !m.Set {
		return []byte("null"), nil
	}
	return []byte(strconv.FormatInt(m.Value, 10)), nil
}

// Decimal is a fractional number of the service (a percentage, a mean, a p-value): any JSON number
// form, or a string holding one, read by value; null is 0. Callers compare it at the precision of
// the field, never by its float bits.
type Decimal float64

func (d *Decimal) UnmarshalJSON(b []byte) error {
	text, set, err := numberText(b)
	text = strings.TrimSpace(text)
	if err != nil || !set || text == "" {
		*d = 0
		return err
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("invalid number %q", truncate(text, 40))
	}
	*d = Decimal(f)
	return nil
}

// numberText is the text of a number the service wrote as a JSON number or as a string holding
// one; set is false for null.
func numberText(b []byte) (text string, set bool, err error) {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return "", false, nil
	}
	text = string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &text); err != nil {
			return "", false, err
		}
	} else if !json.Valid(b) {
		return "", false, fmt.Errorf("invalid JSON number %q", truncate(text, 40))
	}
	return text, true, nil
}
