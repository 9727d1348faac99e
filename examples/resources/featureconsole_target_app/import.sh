# A target app is imported by its id, which the console shows (or data.featureconsole_target_app gives).
terraform import featureconsole_target_app.web 0a1b2c3d4e5f
