// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

const keyAddr = "featureconsole_key.web_server"

// keyConfig is the example: an app, a tag a gate carries by reference, a server key scoped
// to the app, and its secret as a sensitive output.
func keyConfig(description, env, rotated string) string {
	return fmt.Sprintf(`
resource "featureconsole_target_app" "web" {
  name        = "web"
  description = "the web app"
}
resource "featureconsole_tag" "checkout" {
  name        = "tfacc_checkout"
  description = "the checkout team's"
  is_core     = false
}
resource "featureconsole_gate" "tagged" {
  gate_id = "tfacc_tagged"
  tags    = [featureconsole_tag.checkout.name]
}
resource "featureconsole_key" "web_server" {
  type              = "SERVER"
  description       = %q
  environments      = [%q]
  target_app_id     = featureconsole_target_app.web.id
  rotation_triggers = { rotated = %q }
}
output "web_server_key" {
  value     = featureconsole_key.web_server.secret
  sensitive = true
}
`, description, env, rotated)
}

// onlyKey is the one key the mock holds.
func onlyKey(m *mockconsole.Server) (mockconsole.Key, error) {
	secrets := m.KeySecrets()
	if len(secrets) != 1 {
		return mockconsole.Key{}, fmt.Errorf("the mock holds %d keys, want 1", len(secrets))
	}
	k, _ := m.Key(secrets[0])
	return k, nil
}

// expectKey checks the mock's one key and that the state and the output hold its secret; seen
// collects the secrets met, so that a later step can tell a new one from an old one.
func expectKey(m *mockconsole.Server, description, env string, seen *[]string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		k, err := onlyKey(m)
		if err != nil {
			return err
		}
		app, ok := m.TargetApp(framework.Deref(k.PrimaryTargetApp, ""))
		if k.Type != "SERVER" || k.Description != description || !slices.Equal(k.Environments, []string{env}) || !ok || app.Name != "web" {
			return fmt.Errorf("the mock's key is %+v (app %+v)", k, app)
		}
		rs := s.RootModule().Resources[keyAddr]
		if got := rs.Primary.Attributes["secret"]; got != k.Key {
			return fmt.Errorf("the state's secret is not the mock's key")
		}
		if out := s.RootModule().Outputs["web_server_key"]; out == nil || out.Value != k.Key {
			return fmt.Errorf("the output does not give the key's secret")
		}
		if !slices.Contains(*seen, k.Key) {
			*seen = append(*seen, k.Key)
		}
		return nil
	}
}

// TestAccKey_lifecycle: an app, a tag and a server key scoped to the app are created as written and
// plan empty; description and environments update in place; rotation_triggers rotate in place (a
// new secret in the output, the old one gone); a rotation in the console is a new secret at the
// next refresh, never an error; the key imports by its fingerprint; destroy removes all three.
func TestAccKey_lifecycle(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	var secrets []string
	fingerprint := regexp.MustCompile(`^sha256:[0-9a-f]{16}$`)
	var firstID string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if k, a, g := m.KeySecrets(), m.TargetAppIDs(), m.TagIDs(); len(k)+len(a)+len(g) > 0 {
				return fmt.Errorf("destroy left %d keys, %d target apps, %d tags in the mock", len(k), len(a), len(g))
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: providerBlock(url) + keyConfig("web backend", "production", "2026-11"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(keyAddr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(keyAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(fingerprint)),
					statecheck.ExpectKnownValue(keyAddr, tfjsonpath.New("scopes"), knownvalue.SetSizeExact(0)),
					statecheck.ExpectKnownValue(keyAddr, tfjsonpath.New("deactivated"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue("featureconsole_gate.tagged", tfjsonpath.New("tags"),
						knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("tfacc_checkout")})),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectKey(m, "web backend", "production", &secrets),
					func(s *terraform.State) error {
						firstID = s.RootModule().Resources[keyAddr].Primary.ID
						if firstID != console.Fingerprint(secrets[0]) || strings.Contains(firstID, secrets[0]) {
							return fmt.Errorf("the key's id %q is not its secret's fingerprint", firstID)
						}
						return nil
					},
				),
			},
			{
				// Description and environments: in place, the same secret.
				Config: providerBlock(url) + keyConfig("web backend, EU", "staging", "2026-11"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(keyAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(keyAddr, tfjsonpath.New("secret"), knownvalue.NotNull()),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectKey(m, "web backend, EU", "staging", &secrets),
					func(*terraform.State) error {
						if len(secrets) != 1 {
							return fmt.Errorf("an update changed the secret")
						}
						return nil
					},
				),
			},
			{
				// rotation_triggers: rotated in place; the old secret is gone, the id stays.
				Config: providerBlock(url) + keyConfig("web backend, EU", "staging", "2026-12"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(keyAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(keyAddr, tfjsonpath.New("secret")),
					plancheck.ExpectKnownValue(keyAddr, tfjsonpath.New("id"), knownvalue.NotNull()),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectKey(m, "web backend, EU", "staging", &secrets),
					func(s *terraform.State) error {
						if len(secrets) != 2 {
							return fmt.Errorf("the rotation left the secret as it was")
						}
						if _, ok := m.Key(secrets[0]); ok {
							return fmt.Errorf("the old secret still works after the rotation")
						}
						if id := s.RootModule().Resources[keyAddr].Primary.ID; id != firstID {
							return fmt.Errorf("the rotation changed the id from %q to %q", firstID, id)
						}
						return nil
					},
				),
			},
			{
				// Rotated in the console: the refresh reads the new secret; nothing fails, nothing to change.
				PreConfig: func() {
					if k, err := onlyKey(m); err == nil {
						m.RotateKey(k.Key)
					}
				},
				Config: providerBlock(url) + keyConfig("web backend, EU", "staging", "2026-12"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(keyAddr, plancheck.ResourceActionNoop),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					expectKey(m, "web backend, EU", "staging", &secrets),
					func(*terraform.State) error {
						if len(secrets) != 3 {
							return fmt.Errorf("the state did not take the secret the console rotated to")
						}
						return nil
					},
				),
			},
			{
				// Import by fingerprint: the one of the secret as it now stands.
				ResourceName:      keyAddr,
				ImportState:       true,
				ImportStateIdFunc: func(*terraform.State) (string, error) { return console.Fingerprint(secrets[len(secrets)-1]), nil },
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					// The document's examples give no description: imported then, it is null until applied.
					description, ok := states[0].Attributes["description"]
					if len(states) != 1 || states[0].Attributes["secret"] != secrets[len(secrets)-1] ||
						description != "web backend, EU" && (ok || !envHabits(t).ExampleForms) || states[0].Attributes["target_app_id"] == "" {
						return fmt.Errorf("the import holds %v", states)
					}
					return nil
				},
			},
		},
	})
}

// TestAccKey_deactivated: deactivated = true deactivates the key in place; back to false is a new
// key (the service has no way back).
func TestAccKey_deactivated(t *testing.T) {
	m, url := startMock(t, mockconsole.Config{})
	config := func(deactivated bool) string {
		return providerBlock(url) + fmt.Sprintf(`
resource "featureconsole_key" "console" {
  type        = "CONSOLE"
  description = "ci scripts"
  deactivated = %t
}
`, deactivated)
	}
	const addr = "featureconsole_key.console"
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if k := m.KeySecrets(); len(k) > 0 {
				return fmt.Errorf("destroy left %d keys", len(k))
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: config(false),
				// The service chose the console key's scopes: read, never promised.
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("scopes")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scopes"), knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("omni_read_write")})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("environments"), knownvalue.Null()),
				},
			},
			{
				Config: config(true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					k, err := onlyKey(m)
					if err == nil && k.Status != "deactivated" {
						err = fmt.Errorf("the key is %s", k.Status)
					}
					return err
				},
			},
			{
				Config: config(false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: func(*terraform.State) error {
					k, err := onlyKey(m)
					if err == nil && k.Status != "active" {
						err = fmt.Errorf("the new key is %s", k.Status)
					}
					return err
				},
			},
		},
	})
}

// TestAccKey_refusedAtPlan: a key type the service lacks, an environment the project lacks, and a
// new key without the description the service requires fail the plan naming them, with nothing sent.
func TestAccKey_refusedAtPlan(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	planFailsSendingNothing(t, m, url, []struct{ config, want string }{
		{`
resource "featureconsole_key" "k" {
  type        = "SERVR"
  description = "typo"
}
`, `(?s)Unknown key type.*type: unknown key type "SERVR".*Did\s+you\s+mean\s+"SERVER"`},
		{`
resource "featureconsole_key" "k" {
  type        = "SCIM"
  description = "an organisation's key"
}
`, `(?s)Unknown key type.*"SCIM"`},
		{`
resource "featureconsole_key" "k" {
  type         = "SERVER"
  description  = "typo"
  environments = ["production", "producton"]
}
`, `(?s)Unknown environment.*environments: the project has no environment "producton".*Did\s+you\s+mean\s+"production"`},
		{`
resource "featureconsole_key" "k" {
  type = "SERVER"
}
`, `(?s)Missing key description.*requires a description to create a key`},
	})
	if n := m.CountRequests("", "/keys"); n > 0 {
		t.Errorf("the refused plans sent %d requests to /keys", n)
	}
}

// TestAccKey_secretNeverShown runs terraform itself: neither apply (create, rotate), plan, import
// by fingerprint, state show nor the errors show any secret the key had, and `terraform output
// -raw` gives the current one.
func TestAccKey_secretNeverShown(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	cli := newTFCLI(t)
	config := func(rotated string) string {
		return providerBlock(url) + keyConfig("web backend", "production", rotated)
	}
	var outputs strings.Builder
	run := func(args ...string) {
		outputs.WriteString(cli.must(args...))
	}
	cli.write("main.tf", config("2026-11"))
	run("init", "-input=false", "-no-color")
	run("apply", "-input=false", "-no-color", "-auto-approve")
	first, err := onlyKey(m)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(cli.must("output", "-raw", "web_server_key")); got != first.Key {
		t.Errorf("terraform output gives %d characters, not the key's secret", len(got))
	}
	run("plan", "-input=false", "-no-color")
	cli.write("main.tf", config("2026-12"))
	run("apply", "-input=false", "-no-color", "-auto-approve")
	second, err := onlyKey(m)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(cli.must("output", "-raw", "web_server_key")); got != second.Key || got == first.Key {
		t.Errorf("after the rotation, terraform output does not give the new secret")
	}
	run("state", "rm", keyAddr)
	run("import", "-input=false", "-no-color", keyAddr, console.Fingerprint(second.Key))
	run("state", "show", "-no-color", keyAddr)
	run("plan", "-input=false", "-no-color")
	// Rotated in the console: the refresh shows a new secret changed outside of Terraform.
	third := m.RotateKey(second.Key)
	run("plan", "-input=false", "-no-color")
	run("apply", "-input=false", "-no-color", "-auto-approve", "-refresh-only")
	if got := strings.TrimSpace(cli.must("output", "-raw", "web_server_key")); got != third {
		t.Errorf("after a rotation in the console, terraform output does not give the new secret")
	}
	// A failed write names the key by fingerprint: a target app the service lacks.
	m.DeleteTargetApp(framework.Deref(second.PrimaryTargetApp, ""))
	_, failed := cli.run([]int{1}, "apply", "-input=false", "-no-color", "-auto-approve", "-refresh=false", "-replace="+keyAddr)
	outputs.WriteString(failed)
	if !strings.Contains(failed, "sha256:") && !strings.Contains(failed, "SERVER key") {
		t.Errorf("the failure does not name the key:\n%s", failed)
	}
	all := outputs.String()
	for _, secret := range []string{first.Key, second.Key, third} {
		if i := strings.Index(all, secret); i >= 0 {
			t.Fatalf("terraform's output shows a key's secret: …%s…", all[max(0, i-300):i])
		}
	}
	if !strings.Contains(all, "(sensitive value)") {
		t.Errorf("the output never shows the secret as a sensitive value: the test proves little")
	}
}

// TestAccKey_importByIdentity: an import block with the key's identity, its fingerprint, imports it
// and plans no change but the import (Terraform 1.12+); so does an import block with the
// fingerprint as id. A secret as import id is refused, naming the fingerprint's form.
func TestAccKey_importByIdentity(t *testing.T) {
	t.Parallel()
	m, url := startMock(t, mockconsole.Config{})
	cfg := providerBlock(url) + `
resource "featureconsole_key" "k" {
  type         = "CLIENT"
  description  = "mobile apps"
  environments = ["production"]
}
`
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   cliCan(featIdentity),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentityValue("featureconsole_key.k", tfjsonpath.New(keyIdentityAttr),
						knownvalue.StringRegexp(regexp.MustCompile(`^sha256:[0-9a-f]{16}$`))),
				},
			},
			{Config: cfg, ResourceName: "featureconsole_key.k", ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
			{Config: cfg, ResourceName: "featureconsole_key.k", ImportState: true, ImportStateKind: resource.ImportBlockWithID},
			{
				Config: cfg, ResourceName: "featureconsole_key.k", ImportState: true, ImportStateKind: resource.ImportCommandWithID,
				ImportStateIdFunc: func(*terraform.State) (string, error) { return m.KeySecrets()[0], nil },
				ExpectError:       regexp.MustCompile(`(?s)Invalid import id.*fingerprint of its secret`),
			},
		},
	})
}

// rotates: a change of triggers the key had rotates it; triggers added or removed do not.
func TestRotates(t *testing.T) {
	m := func(v string) types.Map {
		return types.MapValueMust(types.StringType, map[string]attr.Value{"rotated": types.StringValue(v)})
	}
	null, unknown := types.MapNull(types.StringType), types.MapUnknown(types.StringType)
	for _, c := range []struct {
		prior, planned types.Map
		want           bool
	}{
		{m("1"), m("1"), false},
		{m("1"), m("2"), true},
		{m("1"), unknown, true},
		{null, m("1"), false}, // an imported key's first triggers
		{m("1"), null, false},
		{null, null, false},
	} {
		if got := rotates(c.prior, c.planned); got != c.want {
			t.Errorf("rotates(%v, %v) = %t", c.prior, c.planned, got)
		}
	}
}

// keyHolds: a key rotated in the console is the one that holds every field the state does.
func TestKeyHolds(t *testing.T) {
	state := keyModel{Type: types.StringValue("SERVER"), Description: types.StringValue("web"),
		Environments: framework.StringSet([]string{"production", "staging"}), Scopes: framework.StringSet(nil),
		TargetAppID: types.StringValue("app"), SecondaryTargetAppIDs: types.SetNull(types.StringType), ID: types.StringValue("sha256:x")}
	app := "app"
	same := console.Key{Secret: "new", Type: "SERVER", Description: new("web"), Environments: []string{"staging", "production"}, PrimaryTargetApp: &app}
	if !keyHolds(same, state) {
		t.Error("the same key, environments in another order, is not held")
	}
	noDescription := same
	noDescription.Description = nil // the examples' form
	if !keyHolds(noDescription, state) {
		t.Error("a key read without description is not held")
	}
	for name, edit := range map[string]func(*console.Key){
		"type":        func(k *console.Key) { k.Type = "CLIENT" },
		"description": func(k *console.Key) { k.Description = new("other") },
		"environment": func(k *console.Key) { k.Environments = []string{"production"} },
		"target app":  func(k *console.Key) { k.PrimaryTargetApp = nil },
		"scopes":      func(k *console.Key) { k.Scopes = []string{"omni_read_only"} },
	} {
		k := same
		edit(&k)
		if keyHolds(k, state) {
			t.Errorf("a key of another %s is held", name)
		}
	}
}
