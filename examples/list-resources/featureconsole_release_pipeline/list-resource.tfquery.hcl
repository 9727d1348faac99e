# In a .tfquery.hcl file: every release pipeline of the project.
list "featureconsole_release_pipeline" "all" {
  provider         = featureconsole
  include_resource = true
  limit            = 1000 # Terraform's default is 100 results per list block
}
