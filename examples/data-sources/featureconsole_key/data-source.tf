# A key made in the console, by the fingerprint of its secret: its secret (sensitive) can go to
# a secret store.
data "featureconsole_key" "mobile" {
  id = "sha256:0123456789abcdef"
}

output "mobile_key_type" {
  value = data.featureconsole_key.mobile.type
}
