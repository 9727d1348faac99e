# Import a key by its identity, the fingerprint of its secret (Terraform 1.12 and later).
import {
  to       = featureconsole_key.web_server
  identity = { fingerprint = "sha256:0123456789abcdef" }
}
