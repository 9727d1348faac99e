# A gate Terraform creates, with its rules beside it: destroy deletes both.
resource "featureconsole_gate" "search" {
  gate_id     = "new_search"
  name        = "New search"
  description = "Search rewrite"
  tags        = ["search"]
  target_apps = ["web"] # by name, such as featureconsole_target_app.web.name
  type        = "TEMPORARY"
  # is_enabled (default true), id_type and release_pipeline_id are optional.
  # archive_on_destroy = true would make destroy archive the gate instead, with its history.
}

# The gate's rules belong to featureconsole_gate_rules, which works on the gate created above.
resource "featureconsole_gate_rules" "search" {
  gate_id = featureconsole_gate.search.gate_id
  # Destroy removes the rules first; a gate that destroy archives keeps them with this.
  keep_on_destroy = featureconsole_gate.search.archive_on_destroy
  rules = [
    {
      name            = "staff"
      pass_percentage = 100
      conditions      = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]
    },
  ]
}
