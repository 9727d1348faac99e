# One gate with its rules, archived and stale gates included: for instance to show, next to the
# featureconsole_gate_rules that manage its rules, whether the gate is enabled, archived or stale.
data "featureconsole_gate" "checkout" {
  gate_id = "new_checkout"
}

output "checkout_enabled" {
  value = data.featureconsole_gate.checkout.is_enabled && !data.featureconsole_gate.checkout.archived
}

# NONE, or why the service judges the gate stale (STALE_NO_RULES, STALE_PROBABLY_LAUNCHED, ...).
output "checkout_stale_reason" {
  value = data.featureconsole_gate.checkout.type_reason
}

output "checkout_rule_names" {
  value = [for r in data.featureconsole_gate.checkout.rules : r.name]
}
