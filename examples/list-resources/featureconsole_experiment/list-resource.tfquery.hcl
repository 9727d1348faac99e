# In a .tfquery.hcl file: the running experiments of the project that carry every tag listed.
list "featureconsole_experiment" "running_checkout" {
  provider         = featureconsole
  include_resource = true
  limit            = 1000 # Terraform's default is 100 results per list block
  config {
    status = "active" # setup | active | decision_made | abandoned | archived | ...
    tags   = ["checkout"]
  }
}
