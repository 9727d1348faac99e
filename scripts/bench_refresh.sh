#!/usr/bin/env bash
# Refresh at the service's latency (issue 28): terraform plan of N gates, each declared as a
# featureconsole_gate and a featureconsole_gate_rules, against the standalone mock delaying every
# request BENCH_REFRESH_LATENCY_MS, and against Terraform's own plan of as many terraform_data (2N),
# taken in turn (provider, floor, provider, floor, ...) so that each ratio is measured pair by pair.
# Prints one markdown table and, with BENCH_WRITE_DOC=1, replaces the bench-refresh part of
# BENCHMARKS.md. Run alone (make bench runs it too): TERRAFORM=... PROVIDER_BIN=... scripts/bench_refresh.sh
# BENCH_REFRESH_BASELINE_BIN, a provider built from another revision, adds its plans to each turn.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
: "${TERRAFORM:=terraform}" "${PROVIDER_BIN:=$PWD/bin/terraform-provider-featureconsole}"
: "${BENCH_REFRESH_SIZES:=100 150 500}" # gates in the configuration (the project holds exactly these)
: "${BENCH_REFRESH_LATENCY_MS:=100}"    # delay of every request at the mock during the plans
: "${BENCH_REFRESH_RUNS:=3}"            # turns per size; medians are quoted
: "${BENCH_REFRESH_BASELINE_BIN:=}"     # optional: another build of the provider, timed in the same turns
: "${BENCH_WRITE_DOC:=1}"
doc=BENCHMARKS.md
[ -x "$PROVIDER_BIN" ] || { echo "bench: no provider binary at $PROVIDER_BIN (run make build)" >&2; exit 1; }

work=$PWD/.bench/refresh
rm -rf "$work" && mkdir -p "$work/plugins" "$work/baseline"
go build -o "$work/mockconsole" ./internal/mockconsole/cmd/mockconsole
cp "$PROVIDER_BIN" "$work/plugins/terraform-provider-featureconsole"
use_dev_overrides "$work" "$work/plugins"
if [ -n "$BENCH_REFRESH_BASELINE_BIN" ]; then
	cp "$BENCH_REFRESH_BASELINE_BIN" "$work/baseline/terraform-provider-featureconsole"
	base_rc=$work/baseline/terraformrc
	sed "s|\"$work/plugins\"|\"$work/baseline\"|" "$work/terraformrc" >"$base_rc"
fi
export CHECKPOINT_DISABLE=1
unset TF_CLI_ARGS TF_LOG
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }
yn() { awk "BEGIN { print ($1) ? \"yes\" : \"**no**\" }"; }
# median of the numbers on stdin, one a line.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "?"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
load_start=$(load)

start_mock "$work/mockconsole" "$work" -api-key bench-key
trap 'kill $mock_pid 2>/dev/null || true; wait $mock_pid 2>/dev/null || true' EXIT
ctl() { curl -fsS -X "$1" "$url/_mock/$2"; }
count() { ctl GET "count?$1" | tr -d '[:space:]'; }
export FEATURECONSOLE_BASE_URL=$url FEATURECONSOLE_API_KEY=bench-key

# timed DIR RC: one terraform plan of DIR with the CLI configuration RC; prints its wall seconds and
# fails unless the plan is empty.
timed() {
	local t0 t1 code=0
	t0=$(now)
	TF_CLI_CONFIG_FILE=$2 "$TERRAFORM" -chdir="$1" plan -no-color -input=false -detailed-exitcode >"$1/plan.log" 2>&1 || code=$?
	t1=$(now)
	[ "$code" -eq 0 ] || { tail -30 "$1/plan.log" >&2; echo "bench: the plan of $1 is not empty or failed (exit $code)" >&2; exit 1; }
	calc "%.3f" "$t1 - $t0"
}

rows=""
for n in $BENCH_REFRESH_SIZES; do
	p=$work/gates-$n f=$work/floor-$n
	mkdir -p "$p" "$f"
	{
		echo 'terraform {'
		echo '  required_providers {'
		echo '    featureconsole = { source = "featureconsole/featureconsole" }'
		echo '  }'
		echo '}'
		echo 'provider "featureconsole" {'
		echo '  write_limit      = 0'
		echo '  write_limit_long = 0'
		echo '}'
		for i in $(seq "$n"); do
			id=$(printf 'bench_%04d' "$i")
			cat <<HCL

resource "featureconsole_gate" "$id" {
  gate_id     = "$id"
  description = "gate $i"
}

resource "featureconsole_gate_rules" "$id" {
  gate_id = featureconsole_gate.$id.gate_id
  rules = [{
    name            = "employees"
    pass_percentage = $((i % 100))
    conditions      = [{ type = "email", operator = "str_contains_any", target_value = ["@example.com"] }]
  }]
}
HCL
		done
	} >"$p/main.tf"
	# The floor has the same shape: one block per resource, the second of each pair depending on the first.
	for i in $(seq "$n"); do
		printf 'resource "terraform_data" "g_%04d" {\n  input = "gate %d"\n}\n\nresource "terraform_data" "r_%04d" {\n  input = terraform_data.g_%04d.output\n}\n\n' "$i" "$i" "$i" "$i"
	done >"$f/main.tf"

	echo "== $n gates: apply without latency, then plans at ${BENCH_REFRESH_LATENCY_MS} ms (load $(load))" >&2
	ctl POST latency?d=0s >/dev/null
	ctl POST seed-gates?n=0 >/dev/null # the project holds the configuration's gates and nothing else
	"$TERRAFORM" -chdir="$p" apply -no-color -input=false -auto-approve >"$p/apply.log" 2>&1 ||
		{ tail -30 "$p/apply.log"; echo "bench: the apply of $n gates failed"; exit 1; }
	"$TERRAFORM" -chdir="$f" apply -no-color -input=false -auto-approve >"$f/apply.log" 2>&1 ||
		{ tail -30 "$f/apply.log"; echo "bench: the apply of $((2 * n)) terraform_data failed"; exit 1; }
	ctl POST "latency?d=${BENCH_REFRESH_LATENCY_MS}ms" >/dev/null

	: >"$work/a-$n" && : >"$work/b-$n" && : >"$work/ratio-$n" && : >"$work/base-$n" && : >"$work/base-ratio-$n"
	for run in $(seq "$BENCH_REFRESH_RUNS"); do
		ctl POST reset >/dev/null
		a=$(timed "$p" "$work/terraformrc")
		gets=$(count "method=GET")
		pages=$(( $(count "method=GET&prefix=/gates") - $(count "method=GET&prefix=/gates/") ))
		writes=$(( $(count "") - gets ))
		b=$(timed "$f" "$work/terraformrc")
		echo "$a" >>"$work/a-$n" && echo "$b" >>"$work/b-$n" && calc "%.3f\n" "$a / $b" >>"$work/ratio-$n"
		line="run $run: provider ${a} s ($gets GET, $writes other), terraform_data ${b} s"
		if [ -n "$BENCH_REFRESH_BASELINE_BIN" ]; then
			ctl POST reset >/dev/null
			c=$(timed "$p" "$base_rc")
			base_gets=$(count "method=GET")
			echo "$c" >>"$work/base-$n" && calc "%.3f\n" "$a / $c" >>"$work/base-ratio-$n"
			line="$line, baseline ${c} s ($base_gets GET)"
		fi
		echo "   $line" >&2
	done
	a=$(median <"$work/a-$n") b=$(median <"$work/b-$n") ratio=$(median <"$work/ratio-$n")
	# What the list pages cost on their own: one request each at the latency.
	page_s=$(calc "%.2f" "int(($n + 99) / 100) * $BENCH_REFRESH_LATENCY_MS / 1000")
	goal=$(calc "%.2f" "1.6 * $b + $page_s")
	base_cell="—"
	if [ -n "$BENCH_REFRESH_BASELINE_BIN" ]; then
		base_cell="$(median <"$work/base-$n") s, ratio $(median <"$work/base-ratio-$n")x"
	fi
	gets_goal="—" gets_met="—"
	if [ "$n" -eq 150 ]; then gets_goal="≤ 40 GETs" gets_met=$(yn "$gets <= 40"); fi
	rows="$rows| $n gates, gate + gate_rules each ($((2 * n)) resources) | ${a} s, $gets GET ($pages list pages), $writes writes | $((2 * n)) terraform_data: ${b} s; list pages $page_s s | ${ratio}x | ≤ 1.6 × ${b} + ${page_s} = ${goal} s: $(yn "$a <= $goal"); $gets_goal: $gets_met | $base_cell |
"
done

table="| terraform plan at ${BENCH_REFRESH_LATENCY_MS} ms per request, median of $BENCH_REFRESH_RUNS turns | provider | floor: Terraform's own plan | ratio (median of the pairs) | goal: met? | another build of the provider (BENCH_REFRESH_BASELINE_BIN) |
|---|---|---|---|---|---|
$rows"
machine="- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs shared with other jobs; load average $load_start at the start, $(load) at the end; $("$TERRAFORM" version 2>/dev/null | sed -n 1p)."
printf '\n%s\n%s\n' "$table" "$machine"
if [ "$BENCH_WRITE_DOC" = 1 ]; then
	printf '%s\n%s\n' "$table" "$machine" | replace_doc_section "$doc" bench-refresh "written by make bench / scripts/bench_refresh.sh" &&
		echo "bench: wrote the refresh table of $doc" >&2
fi
