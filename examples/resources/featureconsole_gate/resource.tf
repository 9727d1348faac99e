# A gate Terraform creates, with its rules beside it: destroy deletes both.
resource "featureconsole_gate" "search" {
  gate_id     = "new_search"
  name        = "New search"
  description = "Search rewrite"
  tags        = ["search"]
  type        = "TEMPORARY"
  # is_enabled (default true), id_type and release_pipeline_id are optional.
}

# The gate's rules belong to featureconsole_gate_rules, which works on the gate created above.
resource "featureconsole_gate_rules" "search" {
  gate_id = featureconsole_gate.search.gate_id
  rules = [
    {
      name            = "staff"
      pass_percentage = 100
      conditions      = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]
    },
  ]
}
