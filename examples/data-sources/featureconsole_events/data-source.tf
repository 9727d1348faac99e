# The first 500 recorded values of an event, in the order the service returns them.
data "featureconsole_events" "checkouts" {
  event_name  = "checkout_completed"
  max_records = 500
}

output "checkout_totals" {
  # Non-string metadata values are JSON-encoded: jsondecode turns them back into numbers.
  value = [for e in data.featureconsole_events.checkouts.events : try(jsondecode(e.metadata["total"]), null)]
}
