import {
  to = featureconsole_segment.beta_testers
  id = "beta_testers"
}
