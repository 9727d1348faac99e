# Read an experiment, whoever manages it: where it stands and what each group is served.
data "featureconsole_experiment" "checkout_cta" {
  experiment_id = "checkout_cta"
}

output "checkout_cta_status" {
  value = data.featureconsole_experiment.checkout_cta.status
}

output "checkout_cta_group_values" {
  value = { for g in data.featureconsole_experiment.checkout_cta.groups : g.name => jsondecode(g.parameter_values) }
}
