// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

// Command rsswrap measures the peak memory of the provider while Terraform runs it. Installed as
// terraform-provider-featureconsole in a dev_overrides directory, it runs the real provider binary
// named by RSSWRAP_PROVIDER with the same arguments, environment and standard streams (go-plugin's
// handshake line on stdout passes straight through), and when the provider exits appends a line to
// the file named by RSSWRAP_OUT: its peak resident set size in KiB, then the user and system CPU
// seconds it used, separated by spaces; one line per provider process.
// RSSWRAP_GOGC, when set, becomes the provider's GOGC (to study the garbage collector's share).
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"
)

func main() {
	os.Exit(run())
}

func run() int {
	bin, out := os.Getenv("RSSWRAP_PROVIDER"), os.Getenv("RSSWRAP_OUT")
	if bin == "" || out == "" {
		fmt.Fprintln(os.Stderr, "rsswrap: RSSWRAP_PROVIDER (the real provider binary) and RSSWRAP_OUT (the result file) must be set")
		return 2
	}
	cmd := exec.Command(bin, os.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = os.Environ()
	if g := os.Getenv("RSSWRAP_GOGC"); g != "" {
		cmd.Env = append(cmd.Env, "GOGC="+g)
	}
	// The provider must not outlive the wrapper if Terraform kills it; the parent-death signal is
	// tied to the thread that starts the child, so keep this goroutine on it.
	runtime.LockOSThread()
	setParentDeathSignal(cmd)

	// An interrupt reaches the provider directly from the terminal's process group, and go-plugin's
	// server counts it rather than dying: the wrapper ignores it too. Termination is forwarded.
	signal.Ignore(os.Interrupt)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP)
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "rsswrap:", err)
		return 1
	}
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		fmt.Fprintln(os.Stderr, "rsswrap:", err)
		return 1
	}
	if kib, ok := maxRSSKiB(cmd.ProcessState); ok {
		ps := cmd.ProcessState
		line := fmt.Sprintf("%d %.3f %.3f\n", kib, ps.UserTime().Seconds(), ps.SystemTime().Seconds())
		if err := appendLine(out, line); err != nil {
			fmt.Fprintln(os.Stderr, "rsswrap:", err)
		}
	}
	if code := cmd.ProcessState.ExitCode(); code >= 0 {
		return code
	}
	return 1 // killed by a signal
}

func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(line); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
