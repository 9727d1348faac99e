# The console's schedule raises the percentage of "ramp" at its set times; Terraform keeps the
# rule itself (its name, conditions and place in the list) and leaves the percentage to the schedule.
resource "featureconsole_gate_rules" "dark_mode" {
  gate_id = "dark_mode"
  rules = [
    {
      name            = "ramp"
      pass_percentage = 10 # the starting point; the schedule owns it from here on
      conditions      = [{ type = "country", operator = "any", target_value = ["NZ"] }]
    },
  ]

  lifecycle {
    # Index 0 is the rule's place in rules: update it when the rule moves.
    ignore_changes = [rules[0].pass_percentage]
  }
}
