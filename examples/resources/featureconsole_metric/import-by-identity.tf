# Import a metric by its identity, its id "<name>::<type>" (Terraform 1.12 and later).
import {
  to       = featureconsole_metric.revenue
  identity = { id = "revenue::user_warehouse" }
}
