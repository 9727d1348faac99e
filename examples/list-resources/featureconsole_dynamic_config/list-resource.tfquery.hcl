# In a .tfquery.hcl file: the dynamic configs of the project that carry every tag listed.
list "featureconsole_dynamic_config" "web" {
  provider         = featureconsole
  include_resource = true
  limit            = 1000 # Terraform's default is 100 results per list block
  config {
    tags = ["web"]
  }
}
