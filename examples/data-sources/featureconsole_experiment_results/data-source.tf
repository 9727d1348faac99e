# Read the results of a running experiment: each test group against the control group, by metric,
# computed with the experiment's own analysis settings, as the console shows them.
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

# Null for a bayesian or sprt experiment, whose results carry no verdict.
output "green_improved_purchases" {
  value = local.green_purchases.improved
}

# Warn on every plan and apply while the experiment shows no significant win (with sequential
# testing on, judged by the sequential interval).
check "green_wins" {
  assert {
    condition     = coalesce(local.green_purchases.improved, false)
    error_message = "Green has not significantly improved purchases (yet)."
  }
}
