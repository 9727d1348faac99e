#!/usr/bin/env bash
# Several terraform applies at once against one project: the project's write limit is shared by
# every process, which cannot see each other's writes. Each case starts a fresh standalone mock
# enforcing both published tiers (100 per 10 s and 900 per 15 min) across all its clients, then K
# terraform applies of N gate rule lists each at the same moment, -parallelism=30, with the
# provider's DEBUG log (each write attempt: when it left, its answer, what the pacer held it for) in
# .bench/shared/<case>/ws<k>/apply.log. The mock counts the seconds with room (the window could
# have taken a write at its end) and, of those, the idle ones (no write arrived in it).
# Prints one markdown table and, with BENCH_WRITE_DOC=1, replaces the bench-shared part of BENCHMARKS.md.
# Run alone (make bench runs it too): TERRAFORM=... PROVIDER_BIN=... scripts/bench_shared.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
: "${TERRAFORM:=terraform}" "${PROVIDER_BIN:=$PWD/bin/terraform-provider-featureconsole}"
: "${BENCH_SHARED_CASES:=1x300 3x100 2x150 5x60 3x300 5x180}"   # KxN: K applies at once, N gate rule lists each
: "${BENCH_SHARED_PARALLELISM:=30}"
: "${BENCH_WRITE_LIMIT:=100}" "${BENCH_WRITE_WINDOW_S:=10}"
: "${BENCH_WRITE_LIMIT_LONG:=900}" "${BENCH_WRITE_WINDOW_LONG_S:=900}"
: "${BENCH_RATELIMIT_HEADERS:=false}"     # true: the mock sends RateLimit-Remaining/-Reset
: "${BENCH_WRITE_DOC:=1}"
doc=BENCHMARKS.md
[ -x "$PROVIDER_BIN" ] || { echo "bench: no provider binary at $PROVIDER_BIN (run make build)" >&2; exit 1; }

work=$PWD/.bench/shared
rm -rf "$work" && mkdir -p "$work/plugins"
go build -o "$work/mockconsole" ./internal/mockconsole/cmd/mockconsole
ln -sf "$PROVIDER_BIN" "$work/plugins/terraform-provider-featureconsole"
use_dev_overrides "$work" "$work/plugins"
export CHECKPOINT_DISABLE=1
unset TF_CLI_ARGS TF_LOG
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }
mock_pid=
trap '[ -z "$mock_pid" ] || kill "$mock_pid" 2>/dev/null || true' EXIT

rows=""
load_start=$(load)
for case in $BENCH_SHARED_CASES; do
	k=${case%x*} n=${case#*x}
	total=$((k * n))
	dir=$work/$case
	mkdir -p "$dir"
	start_mock "$work/mockconsole" "$dir" -api-key bench-key -seed-gates "$total" \
		-write-limit "$BENCH_WRITE_LIMIT" -write-window "${BENCH_WRITE_WINDOW_S}s" \
		-write-limit-long "$BENCH_WRITE_LIMIT_LONG" -write-window-long "${BENCH_WRITE_WINDOW_LONG_S}s" \
		-ratelimit-headers="$BENCH_RATELIMIT_HEADERS"
	count() { curl -fsS "$url/_mock/count?$1" | tr -d '[:space:]'; }
	for w in $(seq "$k"); do
		ws=$dir/ws$w
		mkdir -p "$ws"
		{
			cat <<HCL
terraform {
  required_providers {
    featureconsole = { source = "featureconsole/featureconsole" }
  }
}

provider "featureconsole" {
  base_url = "$url"
  api_key  = "bench-key"
}
HCL
			for i in $(seq $(((w - 1) * n + 1)) $((w * n))); do
				id=$(printf 'gate_%03d' "$i")
				cat <<HCL

resource "featureconsole_gate_rules" "$id" {
  gate_id = "$id"
  rules = [{
    name            = "rollout"
    pass_percentage = $((i % 100))
    conditions      = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]
  }]
}
HCL
			done
		} >"$ws/main.tf"
	done
	echo "== $case: $k terraform applies at once, $n gate rule lists each, -parallelism=$BENCH_SHARED_PARALLELISM (load $(load))" >&2
	pids=()
	for w in $(seq "$k"); do
		(
			t0=$(now)
			rc=0
			TF_LOG_PROVIDER=DEBUG TF_LOG_SDK=OFF TF_LOG_SDK_FRAMEWORK=OFF TF_LOG_SDK_PROTO=OFF "$TERRAFORM" -chdir="$dir/ws$w" apply -no-color -input=false -auto-approve -compact-warnings \
				-parallelism="$BENCH_SHARED_PARALLELISM" >"$dir/ws$w/apply.log" 2>&1 || rc=$?
			awk -v a="$t0" -v b="$(now)" -v rc="$rc" 'BEGIN { printf "%.2f %d\n", b - a, rc }' >"$dir/ws$w/result"
		) &
		pids+=($!)
	done
	wait "${pids[@]}"
	ok=yes slowest=0 failed=0
	for w in $(seq "$k"); do
		read -r secs rc <"$dir/ws$w/result"
		[ "$rc" = 0 ] || { ok=no; failed=$((failed + 1)); echo "apply $w failed:" >&2; grep -A3 'Error:' "$dir/ws$w/apply.log" | head -20 >&2; }
		slowest=$(awk -v a="$slowest" -v b="$secs" 'BEGIN { print (b > a) ? b : a }')
	done
	writes=$(count "method=PATCH&prefix=/gates/")
	limited=$(count "method=PATCH&prefix=/gates/&status=429")
	accepted=$(count "method=PATCH&prefix=/gates/&status=200")
	dups=$((accepted - total))
	span=$(curl -fsS "$url/_mock/span?method=PATCH&prefix=/gates/" | tr -d '[:space:]')

	read -r idle room secs_all < <(curl -fsS "$url/_mock/idle?method=PATCH&prefix=/gates/&limit=$BENCH_WRITE_LIMIT&window=${BENCH_WRITE_WINDOW_S}s")
	floor=$(calc "%d" "int(($total - 1) / $BENCH_WRITE_LIMIT) * $BENCH_WRITE_WINDOW_S")
	ratio=$(calc "%.2f" "$slowest / $floor")
	share=$(calc "%.1f" "100 * $limited / $writes")
	# The goals of the issue: one process no slower than before the shared pacing (1.26x), several
	# within 1.4x at 300 writes and 1.2x at 900; every apply succeeds, none twice.
	goal=1.4
	[ "$k" = 1 ] && goal=1.26
	[ "$total" -ge 900 ] && goal=1.2
	yn() { awk "BEGIN { print ($1) ? \"yes\" : \"**no**\" }"; }
	echo "   all succeeded: $ok; slowest ${slowest}s (floor ${floor}s, ${ratio}x; writes alone ${span}s, idle ${idle}, room ${room} of ${secs_all} s); 429: $limited of $writes writes ($share %); accepted $accepted for $total gates" >&2
	rows+="| $case | ${slowest} s (${floor} s) | ${ratio}x (≤ ${goal}x) | $(yn "\"$ok\" == \"yes\" && $ratio <= $goal && $dups == 0")$([ "$failed" = 0 ] || echo ", $failed failed"), $dups duplicates | ${span} s | ${idle} / ${room} / ${secs_all} | $limited of $writes |
"
	kill "$mock_pid" 2>/dev/null || true
	wait "$mock_pid" 2>/dev/null || true
	mock_pid=
done

table="| K applies × N writes ($BENCH_WRITE_LIMIT per ${BENCH_WRITE_WINDOW_S} s, $BENCH_WRITE_LIMIT_LONG per ${BENCH_WRITE_WINDOW_LONG_S} s$([ "$BENCH_RATELIMIT_HEADERS" != true ] || echo ", RateLimit headers")) | slowest apply (floor) | ratio (goal) | all succeeded within the goal? | writes at the mock | seconds idle / with room / all | 429s |
|---|---|---|---|---|---|---|
$rows"
machine="- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs; load average $load_start at the start, $(load) at the end; $("$TERRAFORM" version 2>/dev/null | sed -n 1p)."
printf '\n%s\n%s\n' "$table" "$machine"
if [ "$BENCH_WRITE_DOC" = 1 ] && grep -q '^<!-- bench-shared:begin' "$doc" && grep -q '^<!-- bench-shared:end' "$doc"; then
	gen=$work/generated.md
	printf '<!-- bench-shared:begin (written by make bench / scripts/bench_shared.sh) -->\n%s\n%s\n<!-- bench-shared:end -->\n' "$table" "$machine" >"$gen"
	awk -v gen="$gen" '
		/^<!-- bench-shared:begin/ { while ((getline line < gen) > 0) print line; skip = 1; next }
		/^<!-- bench-shared:end/ { skip = 0; next }
		!skip' "$doc" >"$work/doc.md"
	mv "$work/doc.md" "$doc"
	echo "bench: wrote the shared-limit table of $doc" >&2
fi
