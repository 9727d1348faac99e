# In a .tfquery.hcl file: the keys of one target app, by fingerprint (never by secret).
list "featureconsole_key" "web" {
  provider = featureconsole
  config {
    target_app_id = "0a1b2c3d4e5f"
  }
}
