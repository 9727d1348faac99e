# The rules of a dynamic config are imported by the config id.
terraform import featureconsole_dynamic_config_rules.banner banner
