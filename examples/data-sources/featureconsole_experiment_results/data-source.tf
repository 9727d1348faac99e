# Read the results of a running experiment: each test group against the control group, by metric.
data "featureconsole_experiment_results" "checkout_cta" {
  experiment_id = "checkout_cta"
  confidence    = 95 # optional: the experiment's default confidence level when omitted
}

locals {
  green_purchases = data.featureconsole_experiment_results.checkout_cta.groups["Green"].metrics["purchase"]
}

output "green_purchases" {
  value = "${local.green_purchases.percent_change} % ± ${local.green_purchases.confidence_interval} % (p = ${local.green_purchases.p_value})"
}

output "green_improved_purchases" {
  value = local.green_purchases.improved
}

# Warn on every plan and apply while the experiment shows no significant win.
check "green_wins" {
  assert {
    condition     = local.green_purchases.improved
    error_message = "Green has not significantly improved purchases (yet)."
  }
}
