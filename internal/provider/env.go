// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

// The provider's environment variables: the provider block falls back to them, and messages name
// them where a setting may have come from either.
const (
	envBaseURL = "FEATURECONSOLE_BASE_URL"
	envAPIKey  = "FEATURECONSOLE_API_KEY"
	// envSkipCredentialsValidation is skip_credentials_validation's environment variable.
	envSkipCredentialsValidation = "FEATURECONSOLE_SKIP_CREDENTIALS_VALIDATION"
)
