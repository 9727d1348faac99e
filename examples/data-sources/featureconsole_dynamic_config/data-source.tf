# Read a dynamic config kept in the console: its default value and what each of its rules returns.
data "featureconsole_dynamic_config" "homepage_banner" {
  config_id = "homepage_banner"
}

output "banner_default_text" {
  value = jsondecode(data.featureconsole_dynamic_config.homepage_banner.default_value).text
}

output "banner_rule_values" {
  value = { for r in data.featureconsole_dynamic_config.homepage_banner.rules : r.name => jsondecode(r.return_value) }
}
