# In a .tfquery.hcl file: every target app of the project.
list "featureconsole_target_app" "all" {
  provider         = featureconsole
  include_resource = true
}
