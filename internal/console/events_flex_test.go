// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"encoding/json"
	"testing"
)

func TestFlexStringKeepsHugeNumbers(t *testing.T) {
	var e Event
	if err := json.Unmarshal([]byte(`{"timestamp":1e400,"value":-12345678901234567890123.5}`), &e); err != nil {
		t.Fatal(err)
	}
	if e.Timestamp != "1e400" || e.Value != "-12345678901234567890123.5" {
		t.Fatalf("got %q and %q", e.Timestamp, e.Value)
	}
}
