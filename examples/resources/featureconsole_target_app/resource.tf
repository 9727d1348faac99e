# A target app: keys are scoped to it; gates, dynamic configs and experiments name it in their
# target_apps.
resource "featureconsole_target_app" "web" {
  name        = "web"
  description = "the web app"
}
