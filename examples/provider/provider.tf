provider "featureconsole" {
  # Or set FEATURECONSOLE_BASE_URL and FEATURECONSOLE_API_KEY in the environment.
  base_url = "https://console.example.com"
  api_key  = var.console_api_key

  # Changes to gates and pipelines follow the project's review settings.
  respect_review_settings = true

  # Retries of 429 and 5xx answers (0 disables them) and client-side pacing of writes.
  max_retries        = 4
  write_limit        = 100
  write_limit_window = "10s"
}

variable "console_api_key" {
  type      = string
  sensitive = true
}
