# A warehouse-native metric: revenue per user, summed from the orders of a metric
# source. Referring to the source orders the two: Terraform creates the source first.
# The plan has the service check the metric in a dry run; while the source is still to
# be created in the same apply, that check is the apply's.
resource "featureconsole_metric_source" "orders" {
  name             = "orders"
  sql              = "SELECT user_id, ts, amount FROM orders"
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
}

resource "featureconsole_metric" "revenue" {
  name           = "revenue"
  type           = "user_warehouse"
  description    = "Revenue per user"
  directionality = "increase"
  tags           = ["checkout"]
  unit_types     = ["userID"]

  warehouse_native = {
    aggregation        = "sum"
    metric_source_name = featureconsole_metric_source.orders.name
    value_column       = "amount"
    criteria           = [{ type = "value", column = "amount", condition = ">", values = ["0"] }]
  }
}

# An event metric: how many purchase events each user logs.
resource "featureconsole_metric" "purchases" {
  name          = "purchases"
  type          = "event_count_custom"
  description   = "Purchases per user"
  metric_events = [{ name = "purchase" }]

  # Destroy schedules the archive (the metric and its history stay) instead of deleting.
  archive_on_destroy = true
}
