# The config whose rules these are; its schema checks every return value at plan time.
resource "featureconsole_dynamic_config" "banner" {
  config_id     = "banner"
  default_value = jsonencode({ text = "Welcome", color = "blue" })
  schema = jsonencode({
    type       = "object"
    required   = ["text", "color"]
    properties = { text = { type = "string" }, color = { enum = ["blue", "red", "green"] } }
  })
}

# The first rule that passes returns its value; the default value is served when none does.
resource "featureconsole_dynamic_config_rules" "banner" {
  config_id = featureconsole_dynamic_config.banner.config_id
  rules = [
    {
      name            = "germany"
      pass_percentage = 100
      conditions      = [{ type = "country", operator = "any", target_value = ["DE"] }]
      return_value    = jsonencode({ text = "Willkommen", color = "red" })
    },
    {
      name            = "half_of_everyone"
      pass_percentage = 50
      return_value    = jsonencode({ text = "Welcome back", color = "green" })
      # The users this rule passes, split between variants (summing to 100), each served its own value.
      variants = [
        { name = "green", pass_percentage = 50, return_value = jsonencode({ text = "Welcome back", color = "green" }) },
        { name = "blue", pass_percentage = 50, return_value = jsonencode({ text = "Good to see you", color = "blue" }) },
      ]
    },
  ]
  on_active_run = "fail" # or "abort" or "wait", as for gate rules
}
