import {
  to = featureconsole_metric_source.orders
  id = "orders"
}
