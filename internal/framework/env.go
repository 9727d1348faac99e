// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package framework

// The provider's environment variables: the provider block falls back to them, and messages name
// them where a setting may have come from either.
const (
	EnvBaseURL = "FEATURECONSOLE_BASE_URL"
	EnvAPIKey  = "FEATURECONSOLE_API_KEY"
	// EnvSkipCredentialsValidation is skip_credentials_validation's environment variable.
	EnvSkipCredentialsValidation = "FEATURECONSOLE_SKIP_CREDENTIALS_VALIDATION"
)
