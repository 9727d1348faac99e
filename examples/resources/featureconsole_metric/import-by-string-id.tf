import {
  to = featureconsole_metric.revenue
  id = "revenue::user_warehouse"
}
