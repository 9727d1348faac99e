# Import a tag by its identity, its id (Terraform 1.12 and later).
import {
  to       = featureconsole_tag.checkout
  identity = { tag_id = "0a1b2c3d4e5f" }
}
