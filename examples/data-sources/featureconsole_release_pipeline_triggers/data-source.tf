# The runs of the web pipeline that wait for someone to approve a phase.
data "featureconsole_release_pipeline_triggers" "waiting" {
  release_pipeline_id = "pl_web"
  statuses            = ["WAITING_FOR_REVIEW"]
}

output "runs_waiting_for_review" {
  value = {
    for r in data.featureconsole_release_pipeline_triggers.waiting.triggers : r.id => r.current_phase
  }
}

output "count_waiting_for_review" {
  value = length(data.featureconsole_release_pipeline_triggers.waiting.triggers)
}
