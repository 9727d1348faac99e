# A key is imported by the fingerprint of its secret, never by the secret itself (Terraform
# prints the import id): "sha256:" and the first 16 hex digits of the secret's SHA-256, which
# printf %s "$SECRET" | sha256sum | cut -c1-16 gives.
terraform import featureconsole_key.web_server sha256:0123456789abcdef
