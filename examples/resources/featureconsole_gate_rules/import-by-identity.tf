# Gate rules are imported by the gate's identity (Terraform 1.12 and later).
import {
  to       = featureconsole_gate_rules.checkout
  identity = { gate_id = "new_checkout" }
}
