# Gate rules are imported by gate id.
import {
  to = featureconsole_gate_rules.checkout
  id = "new_checkout"
}
