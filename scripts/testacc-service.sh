#!/usr/bin/env bash
# make testacc-service: the acceptance tests in real-service mode, against the standalone mock
# served on loopback as if it were a console project, then the sweepers after a simulated
# interrupted run. Proves that the FEATURECONSOLE_* switch works without a real project; against a
# real project set the variables yourself and run make testacc and make sweep (CONTRIBUTING.md).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${TERRAFORM:=terraform}"

work=$PWD/bin/testacc-service
rm -rf "$work" && mkdir -p "$work"
go build -o "$work/mockconsole" ./internal/mockconsole/cmd/mockconsole
# The live service's habits the mock can imitate: a write limit of 100 per 10 s, capped pages.
"$work/mockconsole" -addr 127.0.0.1:0 -url-file "$work/url" -api-key acc-service-key \
  -write-limit 100 -write-window 10s -page-cap 50 >"$work/mock.log" 2>&1 &
mock_pid=$!
trap 'kill $mock_pid 2>/dev/null || true; wait $mock_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$work/url" ] && break; sleep 0.1; done
[ -s "$work/url" ] || { echo "the mock console API did not start:"; cat "$work/mock.log"; exit 1; }

export FEATURECONSOLE_BASE_URL=$(cat "$work/url") FEATURECONSOLE_API_KEY=acc-service-key
export FEATURECONSOLE_ACC_GATE=dark_mode FEATURECONSOLE_ACC_PIPELINE=pl_mobile
export FEATURECONSOLE_ACC_EVENT=signup FEATURECONSOLE_ACC_METRIC_PREFIX=tfacc_
api="$FEATURECONSOLE_BASE_URL/console/v1"
key=(-H "SERVICE-API-KEY: $FEATURECONSOLE_API_KEY")

echo "== acceptance tests against $FEATURECONSOLE_BASE_URL"
TF_ACC=1 TF_ACC_TERRAFORM_PATH=$(command -v "$TERRAFORM") \
  go test -count=1 -timeout 30m -v -run "${RUN:-TestAcc}" ./internal/provider/ >"$work/test.log" 2>&1 || {
  grep -E '^\s*--- FAIL' "$work/test.log" || true; tail -50 "$work/test.log"; exit 1; }
pass=$(grep -cE '^--- PASS' "$work/test.log" || true)
skip=$(grep -cE '^\s*--- SKIP' "$work/test.log" || true)
echo "top-level tests passed: $pass; tests and subtests skipped (they need the in-process mock): $skip"
grep -E '^--- PASS: TestAccService_' "$work/test.log"
for t in gateLifecycle gateRulesLifecycle releasePipelineLifecycle metricSourceLifecycle metricLifecycle dataSources; do
  grep -q "^--- PASS: TestAccService_$t " "$work/test.log" || { echo "TestAccService_$t did not pass"; exit 1; }
done
grep -m1 -o 'runs only against the in-process mock (.*' "$work/test.log" || { echo "no test said why it skipped"; exit 1; }
# The gate's rule list, empty when the answer holds "rules":[] (curl only: no jq needed).
gate_rules_empty() { curl -sf "${key[@]}" "$api/gates/dark_mode" | tr -d ' \n' | grep -q '"rules":\[\]'; }
gate_rules_empty || { echo "the test gate keeps rules after the run"; exit 1; }

echo "== an interrupted run leaves a metric source, a metric, a gate and gate rules behind"
# tfacc_orders is a name the tests use; tfacc_left_by_hand only the listing can find.
for name in tfacc_orders tfacc_left_by_hand; do
  curl -sf "${key[@]}" -H 'Content-Type: application/json' -X POST "$api/metrics/metric_source" \
    -d '{"name":"'"$name"'","sql":"SELECT 1","timestampColumn":"ts","idTypeMapping":[{"serviceUnitID":"userID","column":"u"}]}' >/dev/null
done
curl -sf "${key[@]}" -H 'Content-Type: application/json' -X POST "$api/metrics" \
  -d '{"name":"tfacc_left_metric","type":"user_warehouse","warehouseNative":{"aggregation":"count","metricSourceName":"tfacc_orders"}}' >/dev/null
curl -sf "${key[@]}" -H 'Content-Type: application/json' -X POST "$api/gates" -d '{"id":"tfacc_left_gate"}' >/dev/null
curl -sf "${key[@]}" -H 'Content-Type: application/json' -X PATCH "$api/gates/dark_mode/rules" \
  -d '{"rules":[{"name":"tfacc leftover","passPercentage":5,"conditions":[],"environments":[]}]}' >/dev/null
echo "== make sweep"
go test ./internal/provider/ -count=1 -v -run '^$' -sweep=default >"$work/sweep.log" 2>&1 || { cat "$work/sweep.log"; exit 1; }
grep -E "^\[|Sweeper|sweep" "$work/sweep.log" | head -20 || true
status=$(curl -s -o /dev/null -w '%{http_code}' "${key[@]}" "$api/metrics/metric_source/tfacc_orders")
listed=$(curl -s -o /dev/null -w '%{http_code}' "${key[@]}" "$api/metrics/metric_source/tfacc_left_by_hand")
gate=$(curl -s -o /dev/null -w '%{http_code}' "${key[@]}" "$api/gates/tfacc_left_gate")
metric=$(curl -s -o /dev/null -w '%{http_code}' "${key[@]}" "$api/metrics/tfacc_left_metric::user_warehouse")
kept=$(curl -s -o /dev/null -w '%{http_code}' "${key[@]}" "$api/gates/dark_mode")
rules=left; gate_rules_empty && rules=none
echo "after the sweep: GET tfacc_orders answers $status, tfacc_left_by_hand $listed, metric tfacc_left_metric $metric, gate tfacc_left_gate $gate, the test gate $kept; rules left on the test gate: $rules"
[ "$status" = 404 ] && [ "$listed" = 404 ] && [ "$metric" = 404 ] && [ "$gate" = 404 ] && [ "$kept" = 200 ] && [ "$rules" = none ] || exit 1
echo "== real-service mode works"
