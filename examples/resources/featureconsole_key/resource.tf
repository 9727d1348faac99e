# A server key for the web app's backend. Its secret is sensitive: Terraform never shows it,
# the output below gives it to whoever may read it (terraform output -raw web_server_key).
resource "featureconsole_target_app" "web" {
  name        = "web"
  description = "the web app"
}

resource "featureconsole_key" "web_server" {
  type              = "SERVER" # SERVER, CLIENT or CONSOLE
  description       = "web backend"
  environments      = ["production"] # checked against the project's environments at plan
  target_app_id     = featureconsole_target_app.web.id
  rotation_triggers = { rotated = "2026-11" } # any change rotates the key in place
}

output "web_server_key" {
  value     = featureconsole_key.web_server.secret
  sensitive = true
}
