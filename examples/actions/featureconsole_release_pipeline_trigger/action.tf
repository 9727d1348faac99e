# Approve the phase "Production" of the gate's active rollout once it waits for review, for
# example from a CI job after the canary checks passed:
#   terraform apply -auto-approve -invoke=action.featureconsole_release_pipeline_trigger.approve_production
action "featureconsole_release_pipeline_trigger" "approve_production" {
  config {
    operation = "approve"
    gate_id   = "new_checkout"
    phase     = "Production"
  }
}

# Pause the bake timer of a run named by its id (see the featureconsole_release_pipeline_triggers
# data source), and return as soon as the service accepted it.
action "featureconsole_release_pipeline_trigger" "pause" {
  config {
    operation  = "pause"
    trigger_id = "rpt_1"
    wait       = "none"
  }
}

# Abort the gate's active rollout from a runbook: the gate is reverted and the run is final.
action "featureconsole_release_pipeline_trigger" "abort" {
  config {
    operation = "abort"
    gate_id   = "new_checkout"
    timeouts  = { invoke = "5m" }
  }
}
