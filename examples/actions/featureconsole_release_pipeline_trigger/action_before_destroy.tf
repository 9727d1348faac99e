# Terraform 1.16 and later: abort the gate's active rollout before its rules are destroyed, as an
# action that the plan shows. (Destroying the rules aborts that run by itself with any Terraform
# version; the action makes it explicit.) `terraform destroy` never stops for a failed
# destroy-time action; on_failure = continue lets a replacement of the rules (a new gate_id) go on
# too when the gate has no active run, with the error as a warning.
resource "featureconsole_gate_rules" "checkout" {
  gate_id = "new_checkout"
  rules = [
    {
      name            = "employees"
      pass_percentage = 100
      environments    = ["production"]
      conditions = [
        { type = "email", operator = "str_contains_any", target_value = ["@example.com"] },
      ]
    },
  ]

  lifecycle {
    action_trigger {
      events     = [before_destroy]
      actions    = [action.featureconsole_release_pipeline_trigger.abort_checkout]
      on_failure = continue
    }
  }
}

action "featureconsole_release_pipeline_trigger" "abort_checkout" {
  config {
    operation = "abort"
    gate_id   = "new_checkout"
  }
}
