# Import a dynamic config by its identity, its config id (Terraform 1.12 and later).
import {
  to       = featureconsole_dynamic_config.checkout_copy
  identity = { config_id = "checkout_copy" }
}
