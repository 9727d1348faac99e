# A segment is imported by its segment id.
terraform import featureconsole_segment.beta_testers beta_testers
