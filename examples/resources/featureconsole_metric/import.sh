# A metric is imported by its id, "<name>::<type>".
terraform import featureconsole_metric.revenue revenue::user_warehouse
