import {
  to = featureconsole_dynamic_config_rules.banner
  id = "banner"
}
