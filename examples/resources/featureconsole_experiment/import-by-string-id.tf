import {
  to = featureconsole_experiment.checkout_cta
  id = "checkout_cta"
}
