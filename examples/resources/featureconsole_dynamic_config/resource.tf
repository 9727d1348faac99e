# A dynamic config serves a JSON object: its default value here, and what its rules return
# (featureconsole_dynamic_config_rules). Every value is checked against the schema at plan time.
resource "featureconsole_dynamic_config" "checkout_copy" {
  config_id     = "checkout_copy"
  name          = "Checkout copy"
  description   = "Texts of the checkout page"
  tags          = ["checkout"]
  target_apps   = ["web"]
  default_value = jsonencode({ title = "Buy now", max_items = 5 })
  schema = jsonencode({
    type     = "object"
    required = ["title"]
    properties = {
      title     = { type = "string" }
      max_items = { type = "integer", minimum = 1 }
    }
  })
  # is_enabled (default true), id_type and release_pipeline_id are optional.
}
