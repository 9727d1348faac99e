#!/usr/bin/env bash
# make demo: the provider end to end against the embedded mock console API on loopback.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
: "${TERRAFORM:=terraform}" "${PROVIDER_BIN:=$PWD/bin/terraform-provider-featureconsole}"

work=$PWD/.demo
rm -rf "$work" && mkdir -p "$work"
cp examples/demo/*.tf "$work/"

go build -o "$work/mockconsole" ./internal/mockconsole/cmd/mockconsole
start_mock "$work/mockconsole" "$work" -api-key demo-key
trap 'kill $mock_pid 2>/dev/null || true; wait $mock_pid 2>/dev/null || true' EXIT

# dev_overrides make terraform use the provider just built, with no registry and no init.
use_dev_overrides "$work" "$(dirname "$PROVIDER_BIN")"
export FEATURECONSOLE_BASE_URL=$url FEATURECONSOLE_API_KEY=demo-key
[ -t 1 ] || export TF_CLI_ARGS="-no-color"
tf() { "$TERRAFORM" -chdir="$work" "$@"; }

echo "== mock console API at $FEATURECONSOLE_BASE_URL"
echo "== terraform plan"
tf plan -input=false -compact-warnings
echo "== terraform apply"
tf apply -input=false -auto-approve -compact-warnings
echo "== terraform output"
tf output
echo "== terraform plan again: expecting no changes"
set +e
tf plan -input=false -detailed-exitcode -compact-warnings
code=$?
set -e
if [ "$code" -ne 0 ]; then echo "demo: the second plan was not empty (exit $code)"; exit 1; fi
echo "== terraform destroy"
tf destroy -input=false -auto-approve -compact-warnings
echo "== demo finished: the mock is stopped"
