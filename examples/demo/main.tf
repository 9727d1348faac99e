# The end-to-end demo: `make demo` serves the mock console API on loopback and points
# FEATURECONSOLE_BASE_URL and FEATURECONSOLE_API_KEY at it. It creates a release pipeline, a gate
# attached to it and the gate's rules, a rule_based and an id_list segment, a metric source, a
# dynamic config and its rules, and an experiment it starts; it reads the project's admins, its
# rule_based segments, 250 checkout_completed events and the experiment's results into outputs, and
# destroy deletes everything it created.
terraform {
  required_providers {
    featureconsole = {
      source = "featureconsole/featureconsole"
    }
  }
}

provider "featureconsole" {}

data "featureconsole_users" "admins" {
  role = "admin"
}

# Read after the segments below are created, so that the list includes them.
data "featureconsole_segments" "rule_based" {
  type       = "rule_based"
  depends_on = [featureconsole_segment.beta]
}

data "featureconsole_events" "checkouts" {
  event_name  = "checkout_completed"
  max_records = 250
}

output "admin_emails" {
  value = [for u in data.featureconsole_users.admins.users : u.email]
}

output "rule_based_segments" {
  value = { for s in data.featureconsole_segments.rule_based.segments : s.id => [for r in s.rules : r.name] }
}

output "checkout_events_read" {
  value = length(data.featureconsole_events.checkouts.events)
}

# A gate Terraform creates, attached to the pipeline below: every change of its rules rolls out
# through a run of the pipeline (apply names the run in a warning).
resource "featureconsole_gate" "checkout" {
  gate_id             = "demo_checkout"
  name                = "Demo checkout"
  description         = "The checkout rewrite"
  tags                = ["checkout"]
  type                = "TEMPORARY"
  release_pipeline_id = featureconsole_release_pipeline.web.pipeline_id
}

# The complete, ordered rule list of that gate.
resource "featureconsole_gate_rules" "checkout" {
  gate_id = featureconsole_gate.checkout.gate_id
  rules = [
    {
      name            = "employees"
      pass_percentage = 100
      environments    = ["production"]
      conditions = [
        { type = "email", operator = "str_contains_any", target_value = ["@example.com"] },
        { type = "custom_field", field = "age", operator = "gt", target_numbers = [18] },
      ]
      return_value = jsonencode({ color = "blue" })
    },
    {
      name            = "beta"
      pass_percentage = 12.5
      conditions      = [{ type = "passes_segment", target_value = [featureconsole_segment.beta.segment_id] }]
    },
  ]
}

# A release pipeline Terraform creates (no pipeline_id) and destroy deletes. Its phases bake for
# 0 ms so that the demo's runs end at once; a real pipeline bakes each phase for hours.
resource "featureconsole_release_pipeline" "web" {
  name = "Demo web rollout"
  phases = [
    {
      name             = "Canary"
      time_interval_ms = 0
      rules = [{
        name         = "internal"
        environments = ["staging"]
        conditions   = [{ type = "user_id", operator = "any", target_value = ["42"] }]
      }]
    },
    {
      name             = "General availability"
      time_interval_ms = 0
    },
  ]
}

# Segments of both types.
resource "featureconsole_segment" "beta" {
  segment_id  = "demo_beta"
  name        = "Beta testers"
  description = "Opted into beta"
  type        = "rule_based"
  rules = [
    { name = "staff", pass_percentage = 100, conditions = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }] },
  ]
}

resource "featureconsole_segment" "vip" {
  segment_id = "demo_vip"
  type       = "id_list"
  ids        = ["user_1", "user_2", "user_3"]
}

# A metric source; `terraform plan` validates its SQL with the service (dry run).
resource "featureconsole_metric_source" "orders" {
  name             = "orders"
  sql              = "SELECT user_id, ts, amount FROM orders"
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
  description      = "Orders table"
  tags             = ["finance"]
  timestamp_as_day = false
  source_type      = "query"
}

output "checkout_rule_ids" {
  value = { for r in featureconsole_gate_rules.checkout.rules : r.name => r.base_id }
}

# A dynamic config: its default value, a schema every value is checked against at plan time, and
# rules whose values roll out through the pipeline above.
resource "featureconsole_dynamic_config" "checkout_copy" {
  config_id     = "demo_checkout_copy"
  name          = "Checkout copy"
  default_value = jsonencode({ title = "Buy now", max_items = 5 })
  schema = jsonencode({
    type       = "object"
    required   = ["title"]
    properties = { title = { type = "string" }, max_items = { type = "integer", minimum = 1 } }
  })
  release_pipeline_id = featureconsole_release_pipeline.web.id
}

resource "featureconsole_dynamic_config_rules" "checkout_copy" {
  config_id = featureconsole_dynamic_config.checkout_copy.config_id
  rules = [
    {
      name            = "germany"
      pass_percentage = 100
      conditions      = [{ type = "country", operator = "any", target_value = ["DE"] }]
      return_value    = jsonencode({ title = "Jetzt kaufen", max_items = 5 })
    },
  ]
}

output "checkout_copy_values" {
  value = { for r in featureconsole_dynamic_config_rules.checkout_copy.rules : r.name => jsondecode(r.return_value) }
}

output "web_phase_ids" {
  value = [for p in featureconsole_release_pipeline.web.phases : p.id]
}

# An experiment, created and started in one apply: half the users allocated see the green button.
resource "featureconsole_experiment" "checkout_cta" {
  experiment_id = "demo_checkout_cta"
  name          = "Checkout CTA"
  hypothesis    = "A green button sells more"
  allocation    = 20
  groups = [
    { name = "Control", size = 50, parameter_values = jsonencode({ color = "grey" }) },
    { name = "Green", size = 50, parameter_values = jsonencode({ color = "green" }) },
  ]
  control_group     = "Control"
  primary_metrics   = [{ name = "purchase", type = "event_count", direction = "increase" }]
  secondary_metrics = [{ name = "refund", type = "event_count", direction = "decrease" }]
  status            = "active"
  # The demo destroys what it creates: a started experiment is protected from deletion otherwise.
  deletion_protection = false
}

# Its results, read once the apply has started it: Green against Control on each metric.
data "featureconsole_experiment_results" "checkout_cta" {
  experiment_id = featureconsole_experiment.checkout_cta.experiment_id
}

output "checkout_cta_green" {
  value = {
    for name, m in data.featureconsole_experiment_results.checkout_cta.groups["Green"].metrics :
    name => "${m.percent_change} % ± ${m.confidence_interval} %${coalesce(m.improved, false) ? " (improved)" : ""}"
  }
}
