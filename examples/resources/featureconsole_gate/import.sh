# A gate is imported by its gate id.
terraform import featureconsole_gate.search new_search
