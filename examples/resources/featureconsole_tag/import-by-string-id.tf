import {
  to = featureconsole_tag.checkout
  id = "0a1b2c3d4e5f"
}
