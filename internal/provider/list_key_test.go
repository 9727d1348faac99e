// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// TestAccKey_listResource: the keys of one app, by filter, identified by fingerprint and displayed
// by type, fingerprint and description, never by secret; the organisation's key types are left out.
func TestAccKey_listResource(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	app := m.PutTargetApp(mockconsole.TargetApp{Name: "web"})
	server := m.PutKey(mockconsole.Key{Type: "SERVER", Description: "web backend", PrimaryTargetApp: &app, Environments: []string{"production"}})
	m.PutKey(mockconsole.Key{Type: "CLIENT", Description: "web frontend", PrimaryTargetApp: &app, Environments: []string{"staging"}})
	m.PutKey(mockconsole.Key{Type: "SERVER", Description: "another app's"})
	m.PutKey(mockconsole.Key{Type: "SCIM", Description: "the organisation's"})
	fp := console.Fingerprint(server)
	byFingerprint := queryfilter.ByResourceIdentity(map[string]knownvalue.Check{keyIdentityAttr: knownvalue.StringExact(fp)})
	resource.Test(t, queryTestCase(t, providerBlock(url), resource.TestStep{
		Query: true,
		Config: fmt.Sprintf(`
list "featureconsole_key" "web" {
  provider = featureconsole
  config {
    target_app_id = %q
  }
}
list "featureconsole_key" "production" {
  provider         = featureconsole
  include_resource = true
  config {
    environment = "production"
  }
}
list "featureconsole_key" "all" {
  provider = featureconsole
}
`, app),
		QueryResultChecks: []querycheck.QueryResultCheck{
			querycheck.ExpectLength("featureconsole_key.web", 2),
			querycheck.ExpectLength("featureconsole_key.all", 3),
			querycheck.ExpectLength("featureconsole_key.production", 1),
			querycheck.ExpectResourceDisplayName("featureconsole_key.web", byFingerprint,
				knownvalue.StringRegexp(regexp.MustCompile(`^SERVER key `+regexp.QuoteMeta(fp)+` \(web backend\)$`))),
			querycheck.ExpectResourceKnownValues("featureconsole_key.production", byFingerprint, []querycheck.KnownValueCheck{
				{Path: tfjsonpath.New("secret"), KnownValue: knownvalue.StringExact(server)},
				{Path: tfjsonpath.New("target_app_id"), KnownValue: knownvalue.StringExact(app)},
			}),
		},
	}))
}
