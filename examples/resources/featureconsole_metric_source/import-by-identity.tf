# Import a metric source by its identity, its name (Terraform 1.12 and later).
import {
  to       = featureconsole_metric_source.orders
  identity = { name = "orders" }
}
