# Import a release pipeline by its identity (Terraform 1.12 and later).
import {
  to       = featureconsole_release_pipeline.web
  identity = { pipeline_id = "pl_web" }
}
