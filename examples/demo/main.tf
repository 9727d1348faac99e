# The end-to-end demo: `make demo` serves the mock console API on loopback and points
# FEATURECONSOLE_BASE_URL and FEATURECONSOLE_API_KEY at it.
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

data "featureconsole_segments" "rule_based" {
  type = "rule_based"
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

# The complete, ordered rule list of the gate "new_checkout".
resource "featureconsole_gate_rules" "checkout" {
  gate_id = "new_checkout"
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
    },
  ]
}

# Name and phases of the release pipeline "pl_web" (destroy leaves the pipeline in place).
resource "featureconsole_release_pipeline" "web" {
  pipeline_id = "pl_web"
  name        = "Web rollout"
  phases = [
    {
      name             = "Canary"
      time_interval_ms = 3600000
      required_review  = true
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

output "web_phase_ids" {
  value = [for p in featureconsole_release_pipeline.web.phases : p.id]
}
