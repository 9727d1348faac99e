# In a .tfquery.hcl file: every metric source of the project.
list "featureconsole_metric_source" "all" {
  provider         = featureconsole
  include_resource = true
  limit            = 1000 # Terraform's default is 100 results per list block
}
