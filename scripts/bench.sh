#!/usr/bin/env bash
# make bench: Go benchmarks of the client and the provider, and terraform runs against the
# standalone mock console API, printed as one table whose rows are ratios measured in this run.
# The table, the machine and the date replace the generated part of BENCHMARKS.md
# (BENCH_WRITE_DOC=0 leaves the file alone).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
: "${TERRAFORM:=terraform}" "${PROVIDER_BIN:=$PWD/bin/terraform-provider-featureconsole}"
: "${BENCH_GATES:=300}"             # featureconsole_gate_rules resources applied
: "${BENCH_WRITE_LIMIT:=100}"       # writes the mock allows per window (and the provider's write_limit)
: "${BENCH_WRITE_WINDOW_S:=10}"     # that window, in seconds
: "${BENCH_PARALLELISM:=10}"        # terraform -parallelism (10 is terraform's default)
: "${BENCH_EVENTS:=100000}"         # records of the event the events data source reads
: "${BENCH_LATENCY_MS:=10}"         # mock latency per request for the plan and events runs
: "${BENCH_READ_CONCURRENCY:=8}"    # read_concurrency of the concurrent events run
: "${BENCH_EVENT_RUNS:=2}"          # events runs on each side; the fastest counts
: "${BENCH_QUERY_GATES:=1000}"     # gates with rules onboarded by terraform query -generate-config-out
: "${TERRAFORM_QUERY:=}"            # a terraform >= 1.14 for the query run (make bench: ../shared/tools/terraform-1.15)
: "${BENCH_WRITE_DOC:=1}"
: "${BENCH_SHARED:=1}"               # 0 skips the shared-limit runs (scripts/bench_shared.sh)
: "${BENCH_SEGMENT:=1}"              # 0 skips the 100,000-id segment runs (scripts/bench_segment.sh)
: "${BENCH_SEGMENT_LATE:=1}"         # 0 skips the 20,000-id plans after late writes (scripts/bench_segment_late.sh)
: "${BENCH_REFRESH:=1}"              # 0 skips the refresh runs at 100 ms latency (scripts/bench_refresh.sh)
doc=BENCHMARKS.md

for tool in curl awk "$TERRAFORM" go; do
	command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 1; }
done
[ -x "$PROVIDER_BIN" ] || { echo "bench: no provider binary at $PROVIDER_BIN (run make build)" >&2; exit 1; }

work=$PWD/.bench
rm -rf "$work" && mkdir -p "$work/plugins" "$work/gates" "$work/events"
t_start=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
log() { printf '== %s\n' "$*" >&2; }
yesno() { awk "BEGIN { print ($1) ? \"yes\" : \"**no**\" }"; }

echo "building the mock and the RSS-measuring provider wrapper" >&2
go build -o "$work/mockconsole" ./internal/mockconsole/cmd/mockconsole
go build -o "$work/plugins/terraform-provider-featureconsole" ./internal/bench/rsswrap

# ---- Go benchmarks ----
log "go test -bench (decode, pager, flatten; -benchmem)"
go test -run '^$' -bench 'BenchmarkDecodeEvents100k|BenchmarkListEvents100k' -benchmem -benchtime=1x -timeout 20m \
	./internal/console/ | tee "$work/go-console.txt" >&2
go test -run '^$' -bench 'BenchmarkFlattenEvents100k|BenchmarkEventsLiveHeap100k' -benchmem -benchtime=1x -timeout 20m \
	./internal/provider/ | tee "$work/go-provider.txt" >&2
# gb FILE NAME UNIT: the value before UNIT on the line of benchmark NAME (without the -N suffix).
gb() {
	awk -v name="$2" -v unit="$3" '{ n = $1; sub(/-[0-9]+$/, "", n) } n == name { for (i = 2; i <= NF; i++) if ($i == unit) { print $(i-1); exit } }' "$1"
}

# ---- the mock ----
start_mock "$work/mockconsole" "$work" -api-key bench-key \
	-write-limit "$BENCH_WRITE_LIMIT" -write-window "${BENCH_WRITE_WINDOW_S}s" -event-records "$BENCH_EVENTS"
trap 'kill $mock_pid 2>/dev/null || true; wait $mock_pid 2>/dev/null || true' EXIT
ctl() { curl -fsS -X "$1" "$url/_mock/$2"; }
count() { ctl GET "count?$1" | tr -d '[:space:]'; }

# Terraform runs the wrapper, which runs the provider just built and records its peak RSS.
use_dev_overrides "$work" "$work/plugins"
export CHECKPOINT_DISABLE=1
export FEATURECONSOLE_BASE_URL=$url FEATURECONSOLE_API_KEY=bench-key
export RSSWRAP_PROVIDER=$PROVIDER_BIN RSSWRAP_OUT=$work/rss-other
unset TF_CLI_ARGS TF_LOG
tf() { "$TERRAFORM" -chdir="$1" "${@:2}"; }
# The wrapper appends "peak-RSS-KiB user-s system-s" for each provider process.
peak_kib() { sort -n "$1" | tail -1 | cut -d' ' -f1; }
cpu_s() { awk '{ s += $2 + $3 } END { printf "%.1f", s }' "$1"; }

for dir in gates events; do
	cat >"$work/$dir/versions.tf" <<HCL
terraform {
  required_providers {
    featureconsole = {
      source = "featureconsole/featureconsole"
    }
  }
}
HCL
done

# ---- apply of the gate rules under the write limit ----
{
	cat <<HCL
provider "featureconsole" {
  write_limit        = $BENCH_WRITE_LIMIT
  write_limit_window = "${BENCH_WRITE_WINDOW_S}s"
}
HCL
	for i in $(seq "$BENCH_GATES"); do
		id=$(printf 'gate_%03d' "$i")
		cat <<HCL

resource "featureconsole_gate_rules" "$id" {
  gate_id = "$id"
  rules = [
    {
      name            = "employees"
      pass_percentage = 100
      conditions      = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]
    },
HCL
		if [ $((i % 2)) -eq 1 ]; then
			cat <<HCL
    {
      name            = "rollout"
      pass_percentage = $((i % 100))
      environments    = ["production"]
      return_value    = jsonencode({ variant = "v$((i % 3))" })
    },
HCL
		fi
		echo "  ]"
		echo "}"
	done
} >"$work/gates/main.tf"

# The floor the limit sets: the first window's worth of writes at once, then each further window.
floor_s=$(calc "%d" "int(($BENCH_GATES - 1) / $BENCH_WRITE_LIMIT) * $BENCH_WRITE_WINDOW_S")

log "terraform apply of $BENCH_GATES featureconsole_gate_rules (-parallelism=$BENCH_PARALLELISM)"
ctl POST reset
t0=$(now)
RSSWRAP_OUT=$work/rss-apply tf "$work/gates" apply -no-color -input=false -auto-approve -compact-warnings -parallelism="$BENCH_PARALLELISM" >"$work/apply.log" 2>&1 ||
	{ tail -40 "$work/apply.log"; echo "bench: terraform apply failed (log: $work/apply.log)"; exit 1; }
apply_s=$(since "$t0")
apply_total=$(count "")
apply_writes=$(count "method=PATCH&prefix=/gates/")
apply_429=$(count "status=429")
apply_write_429=$(count "method=PATCH&status=429")
apply_gets=$(count "method=GET")
apply_span=$(ctl GET "span?method=PATCH&prefix=/gates/" | tr -d '[:space:]')
ctl GET stats >"$work/apply-stats.json"
tail -1 "$work/apply.log" >&2

# ---- refresh of those gate rules with latency ----
log "terraform plan (refresh) of $BENCH_GATES gate rules, ${BENCH_LATENCY_MS} ms latency"
ctl POST "latency?d=${BENCH_LATENCY_MS}ms"
ctl POST reset
t0=$(now)
set +e
RSSWRAP_OUT=$work/rss-plan tf "$work/gates" plan -no-color -input=false -detailed-exitcode -compact-warnings -parallelism="$BENCH_PARALLELISM" >"$work/plan.log" 2>&1
plan_code=$?
set -e
plan_s=$(since "$t0")
[ "$plan_code" -ne 1 ] || { tail -40 "$work/plan.log"; echo "bench: terraform plan failed (log: $work/plan.log)"; exit 1; }
# Single reads and list pages alike: a refresh of many gates reads them from GET /gates pages.
plan_gets=$(count "method=GET&prefix=/gates")
plan_total=$(count "")
plan_span=$(ctl GET "span?method=GET&prefix=/gates" | tr -d '[:space:]')
ctl GET stats >"$work/plan-stats.json"
plan_note="no changes"
[ "$plan_code" -eq 0 ] || plan_note="NOT EMPTY after apply (see .bench/plan.log)"
plan_ref_s=$(calc "%.2f" "$BENCH_GATES * $BENCH_LATENCY_MS / 1000 / $BENCH_PARALLELISM")

# ---- the events data source over every record ----
cat >"$work/events/main.tf" <<HCL
variable "read_concurrency" {
  type = number
}

provider "featureconsole" {
  write_limit        = $BENCH_WRITE_LIMIT
  write_limit_window = "${BENCH_WRITE_WINDOW_S}s"
  read_concurrency   = var.read_concurrency
}

data "featureconsole_events" "all" {
  event_name = "checkout_completed"
}

output "records" {
  value = length(data.featureconsole_events.all.events)
}
HCL
json_bytes=$(ctl GET "events-json-bytes?name=checkout_completed" | tr -d '[:space:]')
# events_run CONCURRENCY RUN: one terraform plan reading every record. Sets events_s (wall seconds),
# pages, fetch_s (first page request to last answer, at the mock), events_rss_kib and events_cpu.
events_run() {
	log "terraform plan of data.featureconsole_events over $BENCH_EVENTS records, read_concurrency=$1, ${BENCH_LATENCY_MS} ms latency (run $2)"
	ctl POST reset
	local rss=$work/rss-events-$1-$2 out=$work/events-$1-$2.log t0
	t0=$(now)
	RSSWRAP_OUT=$rss tf "$work/events" plan -no-color -input=false -compact-warnings -var "read_concurrency=$1" >"$out" 2>&1 ||
		{ tail -40 "$out"; echo "bench: terraform plan of the events failed"; exit 1; }
	events_s=$(since "$t0")
	grep -q "records = $BENCH_EVENTS" "$out" ||
		{ tail -20 "$out"; echo "bench: the plan did not read $BENCH_EVENTS records"; exit 1; }
	pages=$(count "method=GET&prefix=/events/")
	fetch_s=$(ctl GET "span?method=GET&prefix=/events/" | tr -d '[:space:]')
	events_rss_kib=$(peak_kib "$rss")
	events_cpu=$(cpu_s "$rss")
}
# On a shared machine one run can be slowed by other jobs: each side keeps its fastest of
# BENCH_EVENT_RUNS runs (taken alternately), and the largest peak RSS of all.
seq_s="" conc_s="" seq_rss_kib=0 conc_rss_kib=0
faster() { [ -z "$1" ] || awk "BEGIN { exit !($2 < $1) }"; }
for run in $(seq "$BENCH_EVENT_RUNS"); do
	events_run 1 "$run"
	if faster "$seq_s" "$events_s"; then seq_s=$events_s seq_pages=$pages seq_fetch=$fetch_s seq_cpu=$events_cpu; fi
	[ "$events_rss_kib" -le "$seq_rss_kib" ] || seq_rss_kib=$events_rss_kib
	events_run "$BENCH_READ_CONCURRENCY" "$run"
	if faster "$conc_s" "$events_s"; then conc_s=$events_s conc_pages=$pages conc_fetch=$fetch_s conc_cpu=$events_cpu; fi
	[ "$events_rss_kib" -le "$conc_rss_kib" ] || conc_rss_kib=$events_rss_kib
done

# ---- onboarding: terraform query -generate-config-out over gates with rules (Terraform 1.14+) ----
query_row="| terraform query -generate-config-out, $BENCH_QUERY_GATES gates with rules, ${BENCH_LATENCY_MS} ms latency | skipped: no Terraform 1.14+ (set TERRAFORM_QUERY) | — | — | — | — |"
query_plan_row=""
if [ -n "$TERRAFORM_QUERY" ]; then
	mkdir -p "$work/query"
	cp "$work/gates/versions.tf" "$work/query/versions.tf"
	echo 'provider "featureconsole" {}' >"$work/query/main.tf"
	cat >"$work/query/project.tfquery.hcl" <<HCL
list "featureconsole_gate_rules" "gates" {
  provider         = featureconsole
  include_resource = true
  limit            = $BENCH_QUERY_GATES
}
HCL
	ctl POST "seed-gates?n=$BENCH_QUERY_GATES"
	ctl POST "latency?d=${BENCH_LATENCY_MS}ms"
	tq() { "$TERRAFORM_QUERY" -chdir="$work/query" "$@"; }
	log "terraform query -generate-config-out over $BENCH_QUERY_GATES gates with rules, ${BENCH_LATENCY_MS} ms latency ($("$TERRAFORM_QUERY" version | sed -n 1p))"
	ctl POST reset
	t0=$(now)
	RSSWRAP_OUT=$work/rss-query tq query -no-color -generate-config-out=generated.tf >"$work/query.log" 2>&1 ||
		{ tail -40 "$work/query.log"; echo "bench: terraform query failed (log: $work/query.log)"; exit 1; }
	query_s=$(since "$t0")
	query_lists=$(count "method=GET&prefix=/gates")
	query_reads=$(count "method=GET&prefix=/gates/")
	query_total=$(count "")
	query_span=$(ctl GET "span?method=GET&prefix=/gates" | tr -d '[:space:]')
	query_resources=$(grep -c '^resource "featureconsole_gate_rules"' "$work/query/generated.tf" || true)
	log "terraform plan of the generated configuration"
	ctl POST reset
	t0=$(now)
	RSSWRAP_OUT=$work/rss-query-plan tq plan -no-color -input=false -compact-warnings >"$work/query-plan.log" 2>&1 ||
		{ tail -40 "$work/query-plan.log"; echo "bench: terraform plan of the generated configuration failed"; exit 1; }
	qplan_s=$(since "$t0")
	qplan_line=$(grep -E '^Plan: |No changes' "$work/query-plan.log" | tail -1)
	qplan_gets=$(count "method=GET")
	qplan_writes=$(($(count "") - qplan_gets))
	imports_only=0
	[ "$qplan_line" = "Plan: $BENCH_QUERY_GATES to import, 0 to add, 0 to change, 0 to destroy." ] && imports_only=1
	query_ref=$(calc "%d" "($BENCH_QUERY_GATES + 99) / 100")
	query_pages=$((query_lists - query_reads))
	query_row="| terraform query -generate-config-out, $BENCH_QUERY_GATES gates with rules, ${BENCH_LATENCY_MS} ms latency: wall time and requests | ${query_s} s (provider CPU $(cpu_s "$work/rss-query") s; the list pages alone, first GET arriving to last answered: ${query_span} s); $query_pages list requests (GET /gates), $query_reads single reads, $query_total requests in all; $query_resources resource blocks written | $BENCH_QUERY_GATES gates / 100 per page = $query_ref list requests | $(calc "%.2fx" "$query_pages / $query_ref") | about 20 list requests, no single reads | $(yesno "$query_pages <= 20 && $query_reads == 0 && $query_resources == $BENCH_QUERY_GATES") |"
	query_plan_row="
| terraform plan of the generated configuration ($BENCH_QUERY_GATES import blocks by identity) | ${qplan_s} s (provider CPU $(cpu_s "$work/rss-query-plan") s): \"$qplan_line\"; $qplan_gets reads (Terraform reads each imported object once), $qplan_writes writes | imports only | — | imports only, no writes | $(yesno "$imports_only == 1 && $qplan_writes == 0") |"
fi

# ---- the table ----
mb() { calc "%.1f MB" "$1 / 1e6"; }
c=$work/go-console.txt p=$work/go-provider.txt
dec_ns=$(gb "$c" BenchmarkDecodeEvents100k ns/op) dec_b=$(gb "$c" BenchmarkDecodeEvents100k B/op)
dec_allocs=$(gb "$c" BenchmarkDecodeEvents100k allocs/op)
pages_bytes=$(calc "%d" "$(gb "$c" BenchmarkDecodeEvents100k json-MB) * 1e6")
le() { gb "$c" "BenchmarkListEvents100k/latency=$1/concurrency=$2" "$3"; }
l0s=$(le 0s 1 ns/op) l0c=$(le 0s 8 ns/op) l10s=$(le 10ms 1 ns/op) l10c=$(le 10ms 8 ns/op)
fl_ns=$(gb "$p" BenchmarkFlattenEvents100k/flatten ns/op) fl_b=$(gb "$p" BenchmarkFlattenEvents100k/flatten B/op)
rd_ns=$(gb "$p" BenchmarkFlattenEvents100k/read ns/op) rd_b=$(gb "$p" BenchmarkFlattenEvents100k/read B/op)
lh() { gb "$p" BenchmarkEventsLiveHeap100k "$1"; }
lh_json=$(lh json-MB) lh_ev=$(lh events-x) lh_fw=$(lh framework-x) lh_tf=$(lh tftypes-x) lh_mp=$(lh msgpack-x)
apply_ratio=$(calc "%.2f" "$apply_s / $floor_s")
share429=$(calc "%.2f" "$apply_total ? 100 * $apply_429 / $apply_total : 0")
ev_ratio=$(calc "%.2f" "$conc_s / $seq_s")
rss_ratio=$(calc "%.2f" "$conc_rss_kib * 1024 / $json_bytes")
rss_ratio_seq=$(calc "%.2f" "$seq_rss_kib * 1024 / $json_bytes")
secs() { calc "%.2f s" "$1 / 1e9"; }

table=$(
	cat <<MD
| metric | measured | reference | ratio | goal | met? |
|---|---|---|---|---|---|
| Go: decode 100,000 events (1,000 pages, no HTTP) | $(secs "$dec_ns")/op, $(mb "$dec_b")/op, $(calc "%.2f M" "$dec_allocs / 1e6") allocs/op | JSON of the pages, $(mb "$pages_bytes") | $(calc "%.1fx" "$dec_b / $pages_bytes") allocated / JSON | — | — |
| Go: pager, ListEvents 100,000 over loopback, no latency, concurrency 8 | $(secs "$l0c")/op, $(mb "$(le 0s 8 B/op)")/op | concurrency 1: $(secs "$l0s")/op | $(calc "%.2fx" "$l0c / $l0s") | — | — |
| Go: pager, ListEvents 100,000, ${BENCH_LATENCY_MS} ms latency, concurrency 8 | $(secs "$l10c")/op | concurrency 1: $(secs "$l10s")/op | $(calc "%.2fx" "$l10c / $l10s") | — | — |
| Go: flatten 100,000 events into framework values | $(secs "$fl_ns")/op, $(mb "$fl_b")/op | JSON of the records, $(calc "%.1f MB" "$lh_json") | $(calc "%.1fx" "$fl_b / ($lh_json * 1e6)") allocated / JSON | — | — |
| Go: flatten + state.Set + msgpack (the framework's read path, which the events data source no longer takes) | $(secs "$rd_ns")/op, $(mb "$rd_b")/op | JSON of the records, $(calc "%.1f MB" "$lh_json") | $(calc "%.1fx" "$rd_b / ($lh_json * 1e6)") allocated / JSON | — | — |
| Go: live heap of each form of 100,000 events | decoded $(calc "%.1f" "$lh_ev")x, framework values $(calc "%.1f" "$lh_fw")x, tftypes $(calc "%.1f" "$lh_tf")x, msgpack $(calc "%.1f" "$lh_mp")x | JSON of the records, $(calc "%.1f MB" "$lh_json") | $(calc "%.1fx" "$lh_fw + $lh_tf") (framework + tftypes, held together by state.Set) | — | — |
| terraform apply, $BENCH_GATES gate_rules, limit $BENCH_WRITE_LIMIT writes / ${BENCH_WRITE_WINDOW_S} s, -parallelism=$BENCH_PARALLELISM: wall time | ${apply_s} s, $apply_writes PATCH (provider CPU $(cpu_s "$work/rss-apply") s) | floor ${floor_s} s | $(calc "%.2fx" "$apply_ratio") | ≤ 1.2x | $(yesno "$apply_ratio <= 1.2") |
| apply: the writes alone, first PATCH arriving to last answered (at the mock) | ${apply_span} s | floor ${floor_s} s | $(calc "%.2fx" "$apply_span / $floor_s") | — | — |
| apply: requests answered 429 | $apply_429 of $apply_total ($apply_writes PATCH, of which $apply_write_429 answered 429; $apply_gets GET) | — | ${share429} % | < 1 % | $(yesno "$share429 < 1") |
| terraform plan (refresh) of $BENCH_GATES gate_rules: requests | $plan_gets GET of gates, reads and list pages ($plan_total in all; $plan_note) | $BENCH_GATES | $(calc "%.2fx" "$plan_gets / $BENCH_GATES") | at most $BENCH_GATES | $(yesno "$plan_gets <= $BENCH_GATES") |
| terraform plan (refresh), ${BENCH_LATENCY_MS} ms latency, -parallelism=$BENCH_PARALLELISM: wall time | ${plan_s} s (provider CPU $(cpu_s "$work/rss-plan") s; the reads alone, first GET arriving to last answered: ${plan_span} s) | $BENCH_GATES × ${BENCH_LATENCY_MS} ms / $BENCH_PARALLELISM = ${plan_ref_s} s | $(calc "%.1fx" "$plan_s / $plan_ref_s") (reads alone $(calc "%.1fx" "$plan_span / $plan_ref_s")) | — | — |
| data.featureconsole_events, $BENCH_EVENTS records ($conc_pages pages), ${BENCH_LATENCY_MS} ms latency, read_concurrency=$BENCH_READ_CONCURRENCY: terraform plan wall time, fastest of $BENCH_EVENT_RUNS | ${conc_s} s (provider CPU ${conc_cpu} s) | read_concurrency=1: ${seq_s} s ($seq_pages pages; provider CPU ${seq_cpu} s) | ${ev_ratio}x | ≤ 0.5x | $(yesno "$ev_ratio <= 0.5") |
| events: the page fetches alone, first GET arriving to last answered (at the mock) | read_concurrency=$BENCH_READ_CONCURRENCY: ${conc_fetch} s | read_concurrency=1: ${seq_fetch} s | $(calc "%.2fx" "$conc_fetch / $seq_fetch") | — | — |
| events: provider peak RSS (read_concurrency=$BENCH_READ_CONCURRENCY) | $(calc "%.0f MB" "$conc_rss_kib * 1024 / 1e6") (read_concurrency=1: $(calc "%.0f MB" "$seq_rss_kib * 1024 / 1e6"), ${rss_ratio_seq}x) | JSON of the records, $(mb "$json_bytes") | ${rss_ratio}x | < 3x | $(yesno "$rss_ratio < 3") |
$query_row$query_plan_row
MD
)
total_s=$(($(date +%s) - t_start))
load_end=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
machine=$(
	cat <<MD
- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); \`make bench\` took ${total_s} s (builds excluded).
- Machine: $(uname -sm), $(nproc) CPUs ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo "unknown CPU")), $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null || echo "? GiB") memory; load average (1, 5, 15 min) $load_start at the start, $load_end at the end.
- $(go version | cut -d' ' -f3-); $("$TERRAFORM" version 2>/dev/null | sed -n 1p)$([ -z "$TERRAFORM_QUERY" ] || echo "; the query rows: $("$TERRAFORM_QUERY" version 2>/dev/null | sed -n 1p)")
MD
)

printf '\n%s\n\n%s\n' "$table" "$machine"

if [ "$BENCH_WRITE_DOC" = 1 ]; then
	gen=$work/generated.md
	printf '<!-- bench:begin (written by make bench; edit outside these markers) -->\n%s\n\n%s\n<!-- bench:end -->\n' "$table" "$machine" >"$gen"
	if [ -f "$doc" ] && grep -q '^<!-- bench:begin' "$doc" && grep -q '^<!-- bench:end' "$doc"; then
		awk -v gen="$gen" '
			/^<!-- bench:begin/ { while ((getline line < gen) > 0) print line; skip = 1; next }
			/^<!-- bench:end/ { skip = 0; next }
			!skip' "$doc" >"$work/doc.md"
		mv "$work/doc.md" "$doc"
	else
		{ printf '# Benchmarks\n\nThe latest output of `make bench`.\n\n'; cat "$gen"; } >"$doc"
	fi
	echo "bench: wrote $doc" >&2
fi

# Several applies at once against one project's shared write limit (issue 13): its own table.
if [ "${BENCH_SHARED:-1}" = 1 ]; then
	TERRAFORM=$TERRAFORM PROVIDER_BIN=$PROVIDER_BIN BENCH_WRITE_DOC=$BENCH_WRITE_DOC ./scripts/bench_shared.sh
fi

# A 100,000-id segment under the id endpoints' own limit: its own table.
if [ "${BENCH_SEGMENT:-1}" = 1 ]; then
	TERRAFORM=$TERRAFORM PROVIDER_BIN=$PROVIDER_BIN BENCH_WRITE_DOC=$BENCH_WRITE_DOC ./scripts/bench_segment.sh
fi

# Plans of a 20,000-id segment after its late writes took effect: its own table.
if [ "${BENCH_SEGMENT_LATE:-1}" = 1 ]; then
	TERRAFORM=$TERRAFORM PROVIDER_BIN=$PROVIDER_BIN BENCH_WRITE_DOC=$BENCH_WRITE_DOC ./scripts/bench_segment_late.sh
fi

# Refresh of 100, 150 and 500 gates with their rules at 100 ms per request, against Terraform's own
# plan of as many terraform_data: its own table.
if [ "${BENCH_REFRESH:-1}" = 1 ]; then
	TERRAFORM=$TERRAFORM PROVIDER_BIN=$PROVIDER_BIN BENCH_WRITE_DOC=$BENCH_WRITE_DOC ./scripts/bench_refresh.sh
fi
