# Take over the existing pipeline "pl_web": Terraform replaces its name and its complete, ordered
# phase list with these. Because pipeline_id is set when the resource is created, destroying this
# resource leaves the pipeline on the service.
resource "featureconsole_release_pipeline" "web" {
  pipeline_id = "pl_web"
  name        = "Web rollout"
  phases = [
    {
      # Waits for a manual review before it starts; once approved, one hour passes before the next phase.
      name             = "Canary"
      time_interval_ms = 3600000
      required_review  = true
      rules = [{
        name         = "internal"
        environments = ["staging"]
        conditions   = [{ type = "user_id", operator = "any", target_value = ["42"] }]
      }]
    },
  ]
}
