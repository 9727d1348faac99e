// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

//go:build !linux

package main

import (
	"os"
	"os/exec"
)

func setParentDeathSignal(*exec.Cmd) {}

// maxRSSKiB is not measured outside Linux (ru_maxrss has other units, or does not exist).
func maxRSSKiB(*os.ProcessState) (int64, bool) { return 0, false }
