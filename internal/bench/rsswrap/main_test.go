// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestWrapper builds the wrapper and runs a child that allocates and touches 64 MiB, checks that
// arguments, environment, stdin, stdout and the exit code pass through, and that the peak RSS
// recorded covers the 64 MiB.
func TestWrapper(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is measured on Linux only")
	}
	dir := t.TempDir()
	child := filepath.Join(dir, "child.go")
	if err := os.WriteFile(child, []byte(`package main

import (
	"fmt"
	"io"
	"os"
)

var sink []byte

func main() {
	sink = make([]byte, 64<<20)
	for i := range sink {
		sink[i] = byte(i)
	}
	in, _ := io.ReadAll(os.Stdin)
	fmt.Printf("args=%v env=%s stdin=%s\n", os.Args[1:], os.Getenv("PLUGIN_COOKIE"), in)
	os.Exit(3)
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	childBin, wrapBin := filepath.Join(dir, "child"), filepath.Join(dir, "terraform-provider-x")
	for _, b := range [][]string{{"-o", childBin, child}, {"-o", wrapBin, "."}} {
		if out, err := exec.Command("go", append([]string{"build"}, b...)...).CombinedOutput(); err != nil {
			t.Fatalf("go build %v: %v\n%s", b, err, out)
		}
	}
	rss := filepath.Join(dir, "rss")
	cmd := exec.Command(wrapBin, "-debug", "x y")
	cmd.Env = append(os.Environ(), "RSSWRAP_PROVIDER="+childBin, "RSSWRAP_OUT="+rss, "PLUGIN_COOKIE=c00kie")
	cmd.Stdin = strings.NewReader("hello")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	if cmd.ProcessState.ExitCode() != 3 {
		t.Fatalf("exit code %d (%v), want the child's 3", cmd.ProcessState.ExitCode(), err)
	}
	if got, want := stdout.String(), "args=[-debug x y] env=c00kie stdin=hello\n"; got != want {
		t.Fatalf("stdout %q, want %q", got, want)
	}
	b, err := os.ReadFile(rss)
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	if len(f) != 3 {
		t.Fatalf("recorded %q, want peak RSS, user and system seconds", b)
	}
	kib, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil || kib < 64<<10 || kib > 1<<20 {
		t.Fatalf("recorded peak RSS %q KiB, want 64 MiB and more but below 1 GiB", f[0])
	}
	if user, err := strconv.ParseFloat(f[1], 64); err != nil || user <= 0 {
		t.Fatalf("recorded user CPU %q s, want more than 0 (the child touched 64 MiB)", f[1])
	}
}
