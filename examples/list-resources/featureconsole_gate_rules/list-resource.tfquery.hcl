# In a .tfquery.hcl file: `terraform query` lists the gates tagged "web" that have rules;
# `terraform query -generate-config-out=generated.tf` writes a resource and an import block for each.
list "featureconsole_gate_rules" "web" {
  provider         = featureconsole
  include_resource = true
  limit            = 1000 # Terraform's default is 100 results per list block

  config {
    tags          = ["web"] # gates carrying every tag listed; omit for every gate
    include_empty = false   # gates without rules are left out unless true
  }
}
