// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// The runs data source filters by dynamic_config_id: a config's run is listed, a gate's is not.
func TestAccReleasePipelineTriggers_dynamicConfig(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	m.SetRunSpeed(0)
	m.PutDynamicConfig(mockconsole.DynamicConfig{ID: "tfacc_copy", ReleasePipelineID: "pl_web"})
	if _, err := m.StartRun("pl_web", "new_checkout"); err != nil {
		t.Fatal(err)
	}
	addr := "data.featureconsole_release_pipeline_triggers.runs"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			PreConfig: func() {
				// A write of the config's rules starts its run, as the service does.
				req, _ := http.NewRequest(http.MethodPatch, url+"/console/v1/dynamic_configs/tfacc_copy",
					strings.NewReader(`{"rules":[{"name":"all","passPercentage":100,"conditions":[],"returnValue":{"a":1}}]}`))
				req.Header.Set("SERVICE-API-KEY", mockconsole.DefaultAPIKey)
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil || resp.StatusCode/100 != 2 { // 200, or 201 as the live service may answer
					t.Fatalf("rules write: %v %v", resp, err)
				}
				_ = resp.Body.Close()
			},
			Config: providerBlock(url) + `data "featureconsole_release_pipeline_triggers" "runs" { dynamic_config_id = "tfacc_copy" }`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("triggers"), knownvalue.ListSizeExact(1)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("triggers").AtSliceIndex(0).AtMapKey("dynamic_config_id"), knownvalue.StringExact("tfacc_copy")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("triggers").AtSliceIndex(0).AtMapKey("gate_id"), knownvalue.Null()),
			},
		}},
	})
}
