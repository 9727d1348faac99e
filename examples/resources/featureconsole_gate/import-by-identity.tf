# Import a gate by its identity, its gate id (Terraform 1.12 and later).
import {
  to       = featureconsole_gate.search
  identity = { gate_id = "new_search" }
}
