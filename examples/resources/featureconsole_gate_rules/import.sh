# Gate rules are imported by gate id.
terraform import featureconsole_gate_rules.checkout new_checkout
