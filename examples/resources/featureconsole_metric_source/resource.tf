# A query source: the plan sends it to the console as a dry run, so a broken
# statement fails `terraform plan` with the console's own message.
resource "featureconsole_metric_source" "orders" {
  name             = "orders"
  sql              = "SELECT user_id, ts, amount FROM orders"
  timestamp_column = "ts"
  id_type_mapping  = [{ service_unit_id = "userID", column = "user_id" }]
  description      = "Orders table"
  tags             = ["finance"]
  timestamp_as_day = false
  source_type      = "query"

  custom_field_mapping = [{ key = "revenue_cents", formula = "amount * 100" }]
  team                 = "Payments"
}

# A table source: table_name is required when source_type is "table".
resource "featureconsole_metric_source" "sessions" {
  name                  = "sessions"
  sql                   = "sessions"
  timestamp_column      = "started_at"
  id_type_mapping       = [{ service_unit_id = "stableID", column = "device_id" }]
  source_type           = "table"
  table_name            = "warehouse.sessions"
  date_partition_column = "ds"
  is_read_only          = true
}
