# Import a target app by its identity, its id (Terraform 1.12 and later).
import {
  to       = featureconsole_target_app.web
  identity = { target_app_id = "0a1b2c3d4e5f" }
}
