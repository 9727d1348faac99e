# Import the rules of a dynamic config by its identity, the config id (Terraform 1.12 and later).
import {
  to       = featureconsole_dynamic_config_rules.banner
  identity = { config_id = "banner" }
}
