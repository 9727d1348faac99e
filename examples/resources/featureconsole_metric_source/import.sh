# A metric source is imported by its name.
terraform import featureconsole_metric_source.orders orders
