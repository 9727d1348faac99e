import {
  to = featureconsole_dynamic_config.checkout_copy
  id = "checkout_copy"
}
