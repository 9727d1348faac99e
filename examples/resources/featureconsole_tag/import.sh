# A tag is imported by its id, which the console shows (or data.featureconsole_tag gives).
terraform import featureconsole_tag.checkout 0a1b2c3d4e5f
