# A tag, and a gate that carries it: the reference makes Terraform create the tag first and
# delete it last (the console refuses to delete a tag in use).
resource "featureconsole_tag" "checkout" {
  name        = "checkout_team"
  description = "the checkout team's"
  is_core     = false
}

resource "featureconsole_gate" "one_click" {
  gate_id = "one_click_buy"
  tags    = [featureconsole_tag.checkout.name]
}
