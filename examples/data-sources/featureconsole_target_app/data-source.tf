# The id of a target app made in the console, to scope a key to it.
data "featureconsole_target_app" "web" {
  name = "web"
}

output "web_app_id" {
  value = data.featureconsole_target_app.web.id
}
