# The complete, ordered rule list of the existing gate "new_checkout".
# The first rule whose conditions match decides.
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
  ]
}
