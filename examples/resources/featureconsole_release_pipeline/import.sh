# Import a release pipeline by its pipeline id.
terraform import featureconsole_release_pipeline.web pl_web
