# Import a segment by its identity, its segment id (Terraform 1.12 and later).
import {
  to       = featureconsole_segment.beta_testers
  identity = { segment_id = "beta_testers" }
}
