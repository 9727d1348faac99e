# Copyright (c) The terraform-provider-featureconsole Authors
# SPDX-License-Identifier: MPL-2.0

# Shared by the scripts that drive terraform against the standalone mock console API
# (demo.sh, bench.sh, bench_shared.sh); sourced, not run.

# use_dev_overrides WORK PLUGINS: terraform uses the provider binary in PLUGINS, with no registry
# and no init, through WORK/terraformrc.
use_dev_overrides() {
	cat >"$1/terraformrc" <<RC
provider_installation {
  dev_overrides {
    "featureconsole/featureconsole" = "$2"
  }
  direct {}
}
RC
	export TF_CLI_CONFIG_FILE=$1/terraformrc TF_IN_AUTOMATION=1
}

# start_mock BIN DIR ARGS...: starts the mock BIN on a free loopback port with ARGS, logging to
# DIR/mock.log, and waits for it to write its address to DIR/url. Sets mock_pid and url; the
# caller stops it.
start_mock() {
	local bin=$1 dir=$2
	shift 2
	rm -f "$dir/url"
	"$bin" -addr 127.0.0.1:0 -url-file "$dir/url" "$@" >"$dir/mock.log" 2>&1 &
	mock_pid=$!
	for _ in $(seq 100); do [ -s "$dir/url" ] && break; sleep 0.1; done
	[ -s "$dir/url" ] || { echo "the mock console API did not start:"; cat "$dir/mock.log"; exit 1; }
	url=$(cat "$dir/url")
}

# replace_doc_section DOC NAME NOTE: replaces what lies between the lines <!-- NAME:begin ...--> and
# <!-- NAME:end --> of DOC with stdin, inside new markers carrying NOTE; fails, leaving DOC alone,
# when DOC has no such markers.
replace_doc_section() {
	local doc=$1 name=$2 gen
	grep -q "^<!-- $name:begin" "$doc" && grep -q "^<!-- $name:end" "$doc" || return 1
	gen=$(mktemp)
	{ printf '<!-- %s:begin (%s) -->\n' "$name" "$3"; cat; printf '<!-- %s:end -->\n' "$name"; } >"$gen"
	awk -v gen="$gen" -v b="^<!-- $name:begin" -v e="^<!-- $name:end" '
		$0 ~ b { while ((getline line < gen) > 0) print line; skip = 1; next }
		$0 ~ e { skip = 0; next }
		!skip' "$doc" >"$gen.doc"
	mv "$gen.doc" "$doc"
	rm -f "$gen"
}

# provider_hcl URL KEY: the terraform and provider blocks of a workspace of the provider under
# dev_overrides against the mock at URL.
provider_hcl() {
	cat <<HCL
terraform {
  required_providers {
    featureconsole = { source = "featureconsole/featureconsole" }
  }
}

provider "featureconsole" {
  base_url = "$1"
  api_key  = "$2"
}
HCL
}
