# In a .tfquery.hcl file: every id_list segment of the project, with its ids.
list "featureconsole_segment" "id_lists" {
  provider         = featureconsole
  include_resource = true
  limit            = 1000 # Terraform's default is 100 results per list block

  config {
    type = "id_list" # optional: rule_based or id_list
  }
}
