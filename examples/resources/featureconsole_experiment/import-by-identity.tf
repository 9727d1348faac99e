# Import an experiment by its identity, its experiment id (Terraform 1.12 and later).
import {
  to       = featureconsole_experiment.checkout_cta
  identity = { experiment_id = "checkout_cta" }
}
