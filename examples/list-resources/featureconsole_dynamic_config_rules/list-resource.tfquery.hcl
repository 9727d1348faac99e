# In a .tfquery.hcl file: the rules of the dynamic configs that carry every tag listed.
list "featureconsole_dynamic_config_rules" "web" {
  provider         = featureconsole
  include_resource = true
  limit            = 1000 # Terraform's default is 100 results per list block
  config {
    tags = ["web"]
  }
}
