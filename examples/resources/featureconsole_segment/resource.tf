# A segment of the units its rules match: the first rule that matches decides.
resource "featureconsole_segment" "staff" {
  segment_id  = "staff"
  name        = "Staff members"
  description = "Employees and contractors"
  tags        = ["internal"]
  type        = "rule_based"
  rules = [
    {
      name            = "employees"
      pass_percentage = 100
      conditions      = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]
    },
    {
      name            = "adult contractors"
      pass_percentage = 50
      conditions = [
        { type = "custom_field", field = "role", operator = "any", target_value = ["contractor"] },
        { type = "custom_field", field = "age", operator = "gt", target_numbers = [18] },
      ]
    },
  ]
}

# A segment of listed unit ids: an update sends only the ids added and removed.
resource "featureconsole_segment" "beta_testers" {
  segment_id = "beta_testers"
  type       = "id_list"
  id_type    = "userID"
  ids        = ["u_1001", "u_1002", "u_1003"]
}
