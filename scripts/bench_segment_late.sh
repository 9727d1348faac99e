#!/usr/bin/env bash
# Big lists after late writes (GET /segments/{id}/idlist_metadata): a BENCH_LATE_IDS-id featureconsole_segment
# created against the standalone mock while its id writes take effect late, then, once they have taken
# effect, three plans of the unchanged list and one after a change in the console. Each write raises
# the list's version when it takes effect; the provider keeps the version its own writes lead to, so
# the plans read no page while the console's change is read and shown.
# Prints one markdown table and, with BENCH_WRITE_DOC=1, replaces the bench-segment-late part of
# BENCHMARKS.md. Run alone (make bench runs it too): TERRAFORM=... PROVIDER_BIN=... scripts/bench_segment_late.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
: "${TERRAFORM:=terraform}" "${PROVIDER_BIN:=$PWD/bin/terraform-provider-featureconsole}"
: "${BENCH_LATE_IDS:=20000}"
: "${BENCH_WRITE_DOC:=1}"
[ -x "$PROVIDER_BIN" ] || { echo "bench: no provider binary at $PROVIDER_BIN (run make build)" >&2; exit 1; }

work=$PWD/.bench/segment-late
rm -rf "$work" && mkdir -p "$work/plugins" "$work/ws"
go build -o "$work/mockconsole" ./internal/mockconsole/cmd/mockconsole
ln -sf "$PROVIDER_BIN" "$work/plugins/terraform-provider-featureconsole"
use_dev_overrides "$work" "$work/plugins"
export CHECKPOINT_DISABLE=1
unset TF_CLI_ARGS TF_LOG

# The id endpoints' own limit (12 writes per 10 s) is on, as on the service.
start_mock "$work/mockconsole" "$work" -api-key bench-key
trap 'kill $mock_pid 2>/dev/null || true; wait $mock_pid 2>/dev/null || true' EXIT
ctl() { curl -fsS -X "$1" "$url/_mock/$2"; }
count() { ctl GET "count?$1" | tr -d '[:space:]'; }
api() { curl -fsS -X "$1" -H "SERVICE-API-KEY: bench-key" -H "Content-Type: application/json" -d "$3" "$url/console/v1$2" >/dev/null; }

awk -v n="$BENCH_LATE_IDS" 'BEGIN { for (i = 0; i < n; i++) printf "u_%06d\n", i }' >"$work/ws/ids.txt"
provider_hcl "$url" bench-key >"$work/ws/main.tf"
cat >>"$work/ws/main.tf" <<HCL

resource "featureconsole_segment" "late" {
  segment_id = "bench_late"
  type       = "id_list"
  ids        = split("\n", trimspace(file("\${path.module}/ids.txt")))
  timeouts   = { create = "30m" }
}
HCL
# -json: Terraform's human-readable plan diffs every list attribute (see scripts/bench_segment.sh).
tf() { "$TERRAFORM" -chdir="$work/ws" "$1" -json -no-color -input=false "${@:2}"; }

# The writes of the create stay on their way until the mock is told they took effect.
ctl POST "id-list-lag?d=1h" >/dev/null
echo "== terraform apply: a segment of $BENCH_LATE_IDS ids whose writes take effect late" >&2
tf apply -auto-approve >"$work/create.log" 2>&1 || { tail -30 "$work/create.log"; echo "bench: the create failed"; exit 1; }
writes=$(count "method=PATCH&prefix=/segments/bench_late/id_list")
ctl POST settle-id-lists >/dev/null

rows=""
plan_row() { # NAME: one plan, its requests for the segment, its id pages and its exit code
	local code=0
	ctl POST reset >/dev/null
	tf plan -detailed-exitcode >"$work/plan-$2.log" 2>&1 || code=$?
	local reqs pages
	reqs=$(count "prefix=/segments/bench_late")
	pages=$(count "method=GET&prefix=/segments/bench_late/id_list")
	rows+="| $1 | $reqs | $pages | $code | $3 | $(awk -v r="$reqs" -v p="$pages" -v c="$code" -v want="$4" 'BEGIN { print (want == "none" ? (r <= 2 && p == 0 && c == 0) : (p > 0 && c == 2)) ? "yes" : "**no**" }') |
"
}
echo "== terraform plan x3 once the writes took effect, then after a change in the console" >&2
plan_row "first plan after the writes took effect" 1 "≤ 2 requests, no page, no changes" none
plan_row "second plan" 2 "≤ 2 requests, no page, no changes" none
plan_row "third plan" 3 "≤ 2 requests, no page, no changes" none
api PATCH /segments/bench_late/id_list '{"ids":["added_in_the_console"]}'
ctl POST settle-id-lists >/dev/null
plan_row "plan after an id added in the console" 4 "the pages read, the change shown (exit 2)" change

table="| segment of $BENCH_LATE_IDS ids, created in $writes id writes that took effect late | requests for the segment | id pages read | plan exit | goal | met? |
|---|---|---|---|---|---|
$rows"
machine="- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs shared with other jobs; $("$TERRAFORM" version 2>/dev/null | sed -n 1p)."
printf '\n%s\n%s\n' "$table" "$machine"
if [ "$BENCH_WRITE_DOC" = 1 ]; then
	printf '%s\n%s\n' "$table" "$machine" | replace_doc_section BENCHMARKS.md bench-segment-late "written by make bench / scripts/bench_segment_late.sh" &&
		echo "bench: wrote the late-write segment table of BENCHMARKS.md" >&2
fi
