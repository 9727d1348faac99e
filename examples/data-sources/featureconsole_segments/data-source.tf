# Rule-based segments with their rules.
data "featureconsole_segments" "rule_based" {
  type = "rule_based"
}

output "segment_rules" {
  value = { for s in data.featureconsole_segments.rule_based.segments : s.id => [for r in s.rules : r.name] }
}
