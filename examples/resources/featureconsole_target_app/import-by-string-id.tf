import {
  to = featureconsole_target_app.web
  id = "0a1b2c3d4e5f"
}
