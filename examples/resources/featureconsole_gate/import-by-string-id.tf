import {
  to = featureconsole_gate.search
  id = "new_search"
}
