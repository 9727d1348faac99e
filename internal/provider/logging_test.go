// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// TestAccProvider_keyNeverLogged applies with TF_LOG=TRACE and reads every log line, the provider's
// and terraform's: the requests are logged, the API key is not, and neither is any secret of a
// featureconsole_key, which is its id in the paths of the requests that name it (created, read,
// rotated: each secret the key had).
func TestAccProvider_keyNeverLogged(t *testing.T) {
	const key = "fc-live-K3y-that-must-never-be-logged"
	m, url := startMock(t, mockconsole.Config{APIKey: key, PageSizeCap: 50})
	dir := t.TempDir()
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_LOG_PATH_MASK", filepath.Join(dir, "%s.log"))
	// The key comes from the environment: the test framework itself logs the configuration it writes.
	t.Setenv(framework.EnvAPIKey, key)

	var secrets []string
	noteSecret := func(*terraform.State) error {
		secrets = append(secrets, m.KeySecrets()...)
		return nil
	}
	sdkKey := func(rotated string) string {
		return fmt.Sprintf(`
resource "featureconsole_key" "k" {
  type              = "SERVER"
  description       = "logged"
  environments      = ["production"]
  rotation_triggers = { rotated = %q }
}
`, rotated)
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Check: noteSecret,
			Config: sdkKey("1") + fmt.Sprintf(`
provider "featureconsole" {
  base_url = %q
}
data "featureconsole_users" "all" {}
data "featureconsole_events" "e" { event_name = "signup" }
resource "featureconsole_gate_rules" "g" {
  gate_id = "dark_mode"
  rules   = [{ name = "all", pass_percentage = 5 }]
}
resource "featureconsole_metric_source" "s" {
  name             = "logged"
  sql              = "SELECT user_id, ts FROM t"
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
}
`, url),
		}, {
			// The rotation: PATCH /keys/{id}/rotate, then a read under the new secret.
			Check: noteSecret,
			Config: sdkKey("2") + fmt.Sprintf(`
provider "featureconsole" {
  base_url = %q
}
`, url),
		}},
	})

	files, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	if len(files) == 0 {
		t.Fatal("no log file written: the test proves nothing")
	}
	var all strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	logs := all.String()
	if strings.Contains(logs, key) {
		i := strings.Index(logs, key)
		t.Fatalf("the API key appears in the logs: …%s…", logs[max(0, i-200):i])
	}
	if len(secrets) != 2 || secrets[0] == secrets[1] {
		t.Fatalf("the key was not created and rotated: secrets %d", len(secrets))
	}
	for _, secret := range secrets {
		if i := strings.Index(logs, secret); i >= 0 {
			t.Fatalf("a key's secret appears in the logs: …%s…", logs[max(0, i-200):i])
		}
	}
	for _, want := range []string{"console API request", `method=GET`, `path=/console/v1/users`, `method=PATCH`, `path=/console/v1/gates/dark_mode/rules`, "status=200", "duration_ms=",
		`path="/console/v1/keys/***/rotate"`, `path="/console/v1/keys/***"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("the logs lack %q", want)
		}
	}
}
