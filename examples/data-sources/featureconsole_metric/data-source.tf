# Read a metric, whoever manages it, by its id "<name>::<type>": what it measures and
# where it stands.
data "featureconsole_metric" "revenue" {
  id = "revenue::user_warehouse"
}

output "revenue_source" {
  value = data.featureconsole_metric.revenue.warehouse_native.metric_source_name
}

output "revenue_status" {
  value = data.featureconsole_metric.revenue.status # active | archive_scheduled | archived
}
