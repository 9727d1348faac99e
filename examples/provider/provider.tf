provider "featureconsole" {
  # Or set FEATURECONSOLE_BASE_URL and FEATURECONSOLE_API_KEY in the environment.
  base_url = "https://console.example.com"
  api_key  = var.console_api_key

  # Changes to gates and pipelines follow the project's review settings.
  respect_review_settings = true

  # Retries of 5xx and unanswered requests (0 disables them; a 429 is waited out within the
  # resource's timeouts instead, and not counted here).
  max_retries = 4

  # At most 100 writes per 10 seconds and 900 per 15 minutes from this provider, the service's own
  # limits; lower them to leave room to other workspaces applying to the same project.
  write_limit             = 100
  write_limit_window      = "10s"
  write_limit_long        = 900
  write_limit_long_window = "15m"

  # A plan that creates objects checks base_url and api_key with one small read (none when it
  # reads anything else), so that a wrong key or address fails the plan. To plan offline:
  # skip_credentials_validation = true
}

variable "console_api_key" {
  type      = string
  sensitive = true
}
