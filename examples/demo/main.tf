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
  value = { for s in data.featureconsole_segments.rule_based.segments : s.id => s.rules.name }
}

output "checkout_events_read" {
  value = length(data.featureconsole_events.checkouts.events)
}
