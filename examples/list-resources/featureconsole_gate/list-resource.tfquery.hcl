# In a .tfquery.hcl file: the gates of the project that carry every tag listed.
list "featureconsole_gate" "ui" {
  provider         = featureconsole
  include_resource = true
  limit            = 1000 # Terraform's default is 100 results per list block
  config {
    tags = ["ui"]
  }
}
