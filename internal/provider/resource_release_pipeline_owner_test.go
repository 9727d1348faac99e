// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A state without the key (written before the provider could create pipelines, when every one was
// taken over) is never deleted by destroy; what setOwnership stores reads back.
func TestPipelineOwnership(t *testing.T) {
	ctx := context.Background()
	p := &memPrivate{}
	if got := ownership(ctx, p); got != pipelineTakenOver {
		t.Fatalf("no key: %q, want taken over", got)
	}
	for _, o := range []pipelineOwnership{pipelineCreated, pipelineImported, pipelineTakenOver} {
		if d := setOwnership(ctx, p, o); d.HasError() {
			t.Fatal(d)
		}
		if got := ownership(ctx, p); got != o {
			t.Errorf("stored %q, read %q", o, got)
		}
	}
	p.data[pipelineOwnershipKey] = []byte("not json")
	if got := ownership(ctx, p); got != pipelineTakenOver {
		t.Errorf("garbage read as %q", got)
	}
}

func TestReplacedByAnotherPipelineID(t *testing.T) {
	s, n, u := types.StringValue, types.StringNull(), types.StringUnknown()
	for _, c := range []struct {
		state, config types.String
		want          bool
	}{
		{s("pl_a"), s("pl_b"), true},
		{s("pl_a"), s("pl_a"), false},
		{s("pl_a"), n, false}, // removed from the configuration: kept
		{n, s("pl_a"), false}, // create
		{s("pl_a"), u, false}, // not known yet: decided when it is
	} {
		if got := anotherPipelineID(c.state, c.config); got != c.want {
			t.Errorf("state %v, config %v: replace = %v, want %v", c.state, c.config, got, c.want)
		}
	}
}
