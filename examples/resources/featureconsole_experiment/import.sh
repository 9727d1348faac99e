# An experiment is imported by its experiment id.
terraform import featureconsole_experiment.checkout_cta checkout_cta
