# Import a release pipeline by its pipeline id (Terraform 1.5 and later).
import {
  to = featureconsole_release_pipeline.web
  id = "pl_web"
}
