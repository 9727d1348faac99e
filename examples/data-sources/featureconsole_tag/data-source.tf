# A tag made in the console.
data "featureconsole_tag" "checkout" {
  name = "checkout_team"
}

output "checkout_tag_is_core" {
  value = data.featureconsole_tag.checkout.is_core
}
