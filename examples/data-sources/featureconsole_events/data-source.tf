# The latest 500 recorded values of an event.
data "featureconsole_events" "checkouts" {
  event_name  = "checkout_completed"
  max_records = 500
}

output "checkout_amounts" {
  # Non-string metadata values are JSON-encoded.
  value = [for e in data.featureconsole_events.checkouts.events : try(jsondecode(e.metadata["amount"]), null)]
}
