#!/usr/bin/env bash
# A 100,000-id featureconsole_segment against the standalone mock, which enforces the id endpoints'
# own limit (12 writes per 10 s, 900 per 15 min) on top of the project's (100 per 10 s): create,
# refresh (the list unchanged, and changed in the console), and a change of BENCH_SEGMENT_SWAP ids, with a gate rules write in the same applies.
# Prints one markdown table and, with BENCH_WRITE_DOC=1, replaces the bench-segment part of
# BENCHMARKS.md. Run alone (make bench runs it too): TERRAFORM=... PROVIDER_BIN=... scripts/bench_segment.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
: "${TERRAFORM:=terraform}" "${PROVIDER_BIN:=$PWD/bin/terraform-provider-featureconsole}"
: "${BENCH_SEGMENT_IDS:=100000}"
: "${BENCH_SEGMENT_SWAP:=1000}"   # ids removed and as many added by the change
: "${BENCH_SEGMENT_RUNS:=3}"      # refresh runs timed by farm-bench (median quoted)
: "${BENCH_WRITE_DOC:=1}"
doc=BENCHMARKS.md
[ -x "$PROVIDER_BIN" ] || { echo "bench: no provider binary at $PROVIDER_BIN (run make build)" >&2; exit 1; }

work=$PWD/.bench/segment
rm -rf "$work" && mkdir -p "$work/plugins" "$work/ws"
go build -o "$work/mockconsole" ./internal/mockconsole/cmd/mockconsole
go build -o "$work/plugins/terraform-provider-featureconsole" ./internal/bench/rsswrap
use_dev_overrides "$work" "$work/plugins"
export CHECKPOINT_DISABLE=1 RSSWRAP_PROVIDER=$PROVIDER_BIN
unset TF_CLI_ARGS TF_LOG
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }
peak_kib() { sort -n "$1" | tail -1 | cut -d' ' -f1; }
yn() { awk "BEGIN { print ($1) ? \"yes\" : \"**no**\" }"; }
load_start=$(load)

start_mock "$work/mockconsole" "$work" -api-key bench-key -write-limit 100 -write-window 10s
trap 'kill $mock_pid 2>/dev/null || true; wait $mock_pid 2>/dev/null || true' EXIT
ctl() { curl -fsS -X "$1" "$url/_mock/$2"; }
count() { ctl GET "count?$1" | tr -d '[:space:]'; }

# ids.txt: u_<from>..u_<to-1>, one a line. The configuration splits the file: jsondecode would give a
# tuple, whose conversion to a list Terraform does in time quadratic in its length.
ids_file() { awk -v a="$1" -v b="$2" 'BEGIN { for (i = a; i < b; i++) printf "u_%06d\n", i }' >"$work/ws/ids.txt"; }
cat >"$work/ws/main.tf" <<HCL
terraform {
  required_providers {
    featureconsole = { source = "featureconsole/featureconsole" }
  }
}

provider "featureconsole" {
  base_url = "$url"
  api_key  = "bench-key"
}

resource "featureconsole_segment" "big" {
  segment_id = "bench_big"
  type       = "id_list"
  ids        = split("\n", trimspace(file("\${path.module}/ids.txt")))
  timeouts   = { create = "30m", update = "30m" }
}

# A write of the project's other objects in the same apply: it must not wait behind the id writes.
resource "featureconsole_gate_rules" "other" {
  gate_id = "new_checkout"
  rules   = [{ name = "everyone", pass_percentage = var.pct }]
}

variable "pct" {
  type = number
}
HCL
# -json everywhere: Terraform's human-readable plan diffs every list attribute of a resource in the
# plan with a longest-common-subsequence table of len(before) x len(after) cells, no-op resources
# included, and runs out of memory on 100,000 ids; the machine-readable plan is the same plan.
tf() { "$TERRAFORM" -chdir="$work/ws" "$1" -json "${@:2}"; }

# ---- create ----
ids_file 0 "$BENCH_SEGMENT_IDS"
# The ids as the service's JSON carries them: each quoted, with a comma.
json_bytes=$(awk '{ n += length($0) + 3 } END { print n + 1 }' "$work/ws/ids.txt")
echo "== terraform apply: a segment of $BENCH_SEGMENT_IDS ids ($json_bytes bytes of JSON) and one gate rules write (load $(load))" >&2
ctl POST reset >/dev/null
t0=$(now)
RSSWRAP_OUT=$work/rss-create tf apply -no-color -input=false -auto-approve -var pct=10 >"$work/create.log" 2>&1 ||
	{ tail -30 "$work/create.log"; echo "bench: the create failed"; exit 1; }
create_s=$(since "$t0")
create_patch=$(count "method=PATCH&prefix=/segments/")
create_429=$(count "status=429")
create_total=$(count "")
# How long after the apply started each resource was done, in terraform's own words.
done_after() { grep -o "$1: Creation complete after [0-9ms]*" "$work/create.log" | sed 's/.* after //'; }
gate_after=$(done_after featureconsole_gate_rules.other)
segment_after=$(done_after featureconsole_segment.big)
gate_s=$(echo "$gate_after" | awk -F'[ms]' '{ print (NF > 2) ? $1 * 60 + $2 : $1 }')
create_rss=$(peak_kib "$work/rss-create")
create_floor=$(calc "%d" "int(($create_patch + 11) / 12) * 10")

# ---- refresh, unchanged: the list's version is the one the apply wrote, so no page is read ----
echo "== terraform plan (refresh, list unchanged), $BENCH_SEGMENT_RUNS runs under farm-bench" >&2
ctl POST reset >/dev/null
RSSWRAP_OUT=$work/rss-plan farm-bench -n "$BENCH_SEGMENT_RUNS" --warmup 0 --timeout 900 -- \
	"$TERRAFORM" -chdir="$work/ws" plan -json -no-color -input=false -detailed-exitcode -var pct=10 >"$work/farm-plan.txt" 2>&1 || true
plan_code=0
RSSWRAP_OUT=$work/rss-plan tf plan -no-color -input=false -detailed-exitcode -var pct=10 >"$work/plan.log" 2>&1 || plan_code=$?
# farm-bench's rows: "A wall s  MIN MEDIAN MAX".
plan_wall=$(awk '$1 == "A" && $2 == "wall" { print $5; exit }' "$work/farm-plan.txt")
[ -n "$plan_wall" ] || plan_wall="?"
plan_gets=$(( $(count "method=GET&prefix=/segments/bench_big/id_list") / (BENCH_SEGMENT_RUNS + 1) ))
plan_seg_reqs=$(( $(count "prefix=/segments/bench_big") / (BENCH_SEGMENT_RUNS + 1) ))
plan_rss=$(peak_kib "$work/rss-plan")
plan_note="no changes"
[ "$plan_code" -eq 0 ] || plan_note="**not empty** (exit $plan_code)"

# ---- refresh, changed: an id added by someone else raises the version, so every page is read ----
api() { curl -fsS -X "$1" -H "SERVICE-API-KEY: bench-key" -H "Content-Type: application/json" -d "$3" "$url/console/v1$2" >/dev/null; }
api PATCH /segments/bench_big/id_list '{"ids":["added_in_the_console"]}'
echo "== terraform plan (refresh, list changed in the console)" >&2
ctl POST reset >/dev/null
t0=$(now)
changed_code=0
RSSWRAP_OUT=$work/rss-changed tf plan -no-color -input=false -detailed-exitcode -var pct=10 >"$work/changed.log" 2>&1 || changed_code=$?
changed_s=$(since "$t0")
changed_gets=$(count "method=GET&prefix=/segments/bench_big/id_list")
changed_seg_reqs=$(count "prefix=/segments/bench_big")
changed_note="the change shown"
[ "$changed_code" -eq 2 ] || changed_note="**the change not shown** (exit $changed_code)"
api DELETE /segments/bench_big/id_list '{"ids":["added_in_the_console"]}'

# ---- change: the first SWAP ids removed, SWAP new ids added ----
ids_file "$BENCH_SEGMENT_SWAP" "$((BENCH_SEGMENT_IDS + BENCH_SEGMENT_SWAP))"
echo "== terraform apply: $BENCH_SEGMENT_SWAP ids swapped and one gate rules write" >&2
ctl POST reset >/dev/null
t0=$(now)
RSSWRAP_OUT=$work/rss-change tf apply -no-color -input=false -auto-approve -var pct=20 >"$work/change.log" 2>&1 ||
	{ tail -30 "$work/change.log"; echo "bench: the change failed"; exit 1; }
change_s=$(since "$t0")
change_patch=$(count "method=PATCH&prefix=/segments/")
change_delete=$(count "method=DELETE&prefix=/segments/")
change_rss=$(peak_kib "$work/rss-change")
final_code=0
RSSWRAP_OUT=$work/rss-final tf plan -no-color -input=false -detailed-exitcode -var pct=20 >"$work/final.log" 2>&1 || final_code=$?

# ---- reorder: the same ids listed in another order (reversed) plan no change ----
sort -r -o "$work/ws/ids.txt" "$work/ws/ids.txt"
echo "== terraform plan: the same ids in reverse order" >&2
t0=$(now)
reorder_code=0
RSSWRAP_OUT=$work/rss-reorder tf plan -no-color -input=false -detailed-exitcode -var pct=20 >"$work/reorder.log" 2>&1 || reorder_code=$?
reorder_s=$(since "$t0")
reorder_rss=$(peak_kib "$work/rss-reorder")

mib() { calc "%.0f" "$1 / 1024"; }
json_mib=$(calc "%.1f" "$json_bytes / 1048576")
table="| segment of $BENCH_SEGMENT_IDS ids (mock: ids 12 per 10 s and 900 per 15 min, project 100 per 10 s) | measured | reference | ratio | goal | met? |
|---|---|---|---|---|---|
| create: terraform apply, segment and one gate rules write | ${create_s} s, $create_patch id writes, $create_429 answered 429, $create_total requests | floor ${create_floor} s (ceil(writes/12) × 10 s) | $(calc "%.2fx" "$create_s / $create_floor") | succeeds, ≤ 1.5x the floor | $(yn "$create_s <= 1.5 * $create_floor") |
| create: the gate rules resource done after, vs the segment (terraform's log) | ${gate_after} vs ${segment_after} | — | — | not behind the id writes (< 10 s) | $(yn "${gate_s:-99} < 10") |
| create: provider peak RSS vs the ids' JSON | $(mib "$create_rss") MiB vs ${json_mib} MiB | — | $(calc "%.0fx" "$create_rss * 1024 / $json_bytes") | — | — |
| refresh, list unchanged: terraform plan, median of $BENCH_SEGMENT_RUNS (farm-bench) | ${plan_wall} s, $plan_seg_reqs requests for the segment, $plan_gets id pages of 100, $plan_note | — | — | empty plan, ≤ 2 requests, no page | $(yn "$plan_code == 0 && $plan_seg_reqs <= 2 && $plan_gets == 0") |
| refresh, list changed in the console: terraform plan | ${changed_s} s, $changed_seg_reqs requests for the segment, $changed_gets id pages of 100, $changed_note | $(calc "%d" "($BENCH_SEGMENT_IDS + 99) / 100 / 100") min at the service's read limit (100 pages a minute) | — | every page read, the change shown | $(yn "$changed_code == 2 && $changed_gets >= $BENCH_SEGMENT_IDS / 100") |
| refresh: provider peak RSS | $(mib "$plan_rss") MiB | ${json_mib} MiB of JSON | $(calc "%.0fx" "$plan_rss * 1024 / $json_bytes") | — | — |
| change: $BENCH_SEGMENT_SWAP ids swapped | ${change_s} s; $change_patch PATCH, $change_delete DELETE; plan after: exit $final_code | 2 writes | — | only the differences sent, empty plan after | $(yn "$change_patch == 1 && $change_delete == 1 && $final_code == 0") |
| change: provider peak RSS | $(mib "$change_rss") MiB | — | — | — | — |
| reorder: terraform plan of the same ids in reverse order | ${reorder_s} s, exit $reorder_code; provider peak RSS $(mib "$reorder_rss") MiB | — | — | empty plan (exit 0) | $(yn "$reorder_code == 0") |
"
machine="- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs shared with other jobs; load average $load_start at the start, $(load) at the end; $("$TERRAFORM" version 2>/dev/null | sed -n 1p)."
printf '\n%s\n%s\n' "$table" "$machine"
if [ "$BENCH_WRITE_DOC" = 1 ] && grep -q '^<!-- bench-segment:begin' "$doc" && grep -q '^<!-- bench-segment:end' "$doc"; then
	gen=$work/generated.md
	printf '<!-- bench-segment:begin (written by make bench / scripts/bench_segment.sh) -->\n%s\n%s\n<!-- bench-segment:end -->\n' "$table" "$machine" >"$gen"
	awk -v gen="$gen" '
		/^<!-- bench-segment:begin/ { while ((getline line < gen) > 0) print line; skip = 1; next }
		/^<!-- bench-segment:end/ { skip = 0; next }
		!skip' "$doc" >"$work/doc.md"
	mv "$work/doc.md" "$doc"
	echo "bench: wrote the segment table of $doc" >&2
fi
