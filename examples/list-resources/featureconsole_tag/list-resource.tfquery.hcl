# In a .tfquery.hcl file: every tag of the project.
list "featureconsole_tag" "all" {
  provider         = featureconsole
  include_resource = true
}
