# A dynamic config is imported by its config id.
terraform import featureconsole_dynamic_config.checkout_copy checkout_copy
