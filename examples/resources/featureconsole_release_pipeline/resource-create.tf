# A pipeline Terraform creates: no pipeline_id. The service chooses the id (known after apply), and
# `terraform destroy` deletes the pipeline. The service refuses to delete a pipeline while a gate is
# attached to it or a run of it is active; destroy then fails and says which gate or run.
resource "featureconsole_release_pipeline" "checkout" {
  name = "Checkout rollout"
  phases = [
    {
      name             = "Staff"
      time_interval_ms = 0
      rules = [{
        name       = "employees"
        conditions = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]
      }]
    },
    {
      # Waits for a manual review, then bakes for a day before the next phase.
      name             = "Canary"
      time_interval_ms = 86400000
      required_review  = true
      rules = [{
        name         = "ten percent of web"
        environments = ["production"]
        conditions   = [{ type = "browser_name", operator = "any", target_value = ["Chrome", "Firefox"] }]
      }]
    },
    {
      name             = "Everyone"
      time_interval_ms = 0
      rules            = [{ name = "all users", conditions = [{ type = "public" }] }]
    },
  ]
}

output "checkout_pipeline_id" {
  value = featureconsole_release_pipeline.checkout.pipeline_id
}
