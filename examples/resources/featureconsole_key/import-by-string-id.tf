import {
  to = featureconsole_key.web_server
  id = "sha256:0123456789abcdef"
}
