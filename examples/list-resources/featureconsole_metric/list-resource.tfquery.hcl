# In a .tfquery.hcl file: the warehouse-native metrics of the project that carry every
# tag listed.
list "featureconsole_metric" "warehouse" {
  provider         = featureconsole
  include_resource = true
  limit            = 1000 # Terraform's default is 100 results per list block
  config {
    type = "user_warehouse"
    tags = ["checkout"]
  }
}
