# An experiment: its users split between two groups, each served its own parameter values, measured
# on purchases. status moves it the service's way: "active" starts it, "decision_made" ships a group.
resource "featureconsole_experiment" "checkout_cta" {
  experiment_id = "checkout_cta"
  name          = "Checkout CTA"
  description   = "Which button sells"
  hypothesis    = "A green button sells more"
  tags          = ["checkout"]
  allocation    = 20 # percent of users in the experiment; may rise, not decrease, while it runs
  duration      = 14 # days

  # Groups are matched by name; while the experiment is active, and after a decision, their names,
  # sizes and values cannot change (their order and descriptions may).
  groups = [
    { name = "Control", size = 50, parameter_values = jsonencode({ color = "grey" }) },
    { name = "Green", size = 50, parameter_values = jsonencode({ color = "green" }) },
  ]
  control_group = "Control"

  primary_metrics   = [{ name = "purchase", type = "event_count", direction = "increase" }]
  secondary_metrics = [{ name = "refund", type = "event_count", direction = "decrease" }]

  status = "active"
  # Once started, the experiment is protected: a destroy or a replacement fails at plan
  # (deletion_protection). archive_on_destroy = true would make destroy archive it instead.
  # Later, to ship the winner:
  # status          = "decision_made"
  # launched_group  = "Green"
  # decision_reason = "Green: +3.1 % purchases"
  # remove_targeting = true # with a targeting_gate_id: ship to everyone, not only to who passes it
  # and, once decided, to keep it out of the console's lists with its results:
  # archived = true
  # To restart it instead while it runs, or after an abandon: status = "setup" resets it (its results
  # start over), and status = "active" from "abandoned" resets and starts it again.
}
