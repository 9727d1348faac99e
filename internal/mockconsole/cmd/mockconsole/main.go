// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

// Command mockconsole serves the in-memory mock of the console API on a
// loopback address, for the demo, the benchmark and manual experiments. The benchmark drives it
// through the unauthenticated control endpoints under /_mock/ (see control.go).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "mockconsole:", err)
		os.Exit(1)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:0", "loopback address to listen on")
	apiKey := flag.String("api-key", mockconsole.DefaultAPIKey, "API key clients must send in SERVICE-API-KEY")
	pageCap := flag.Int("page-cap", 0, "maximum page size (0 = no cap)")
	latency := flag.Duration("latency", 0, "latency added to every request")
	writeLimit := flag.Int("write-limit", 0, "maximum mutating requests per -write-window (0 = unlimited)")
	writeWindow := flag.Duration("write-window", 10*time.Second, "window of -write-limit")
	writeLimitLong := flag.Int("write-limit-long", 0, "second tier: maximum mutating requests per -write-window-long (0 = none; the service: 900)")
	writeWindowLong := flag.Duration("write-window-long", 15*time.Minute, "window of -write-limit-long")
	serviceLimits := flag.Bool("service-write-limits", false, fmt.Sprintf("enforce the service's write limits: %d writes per %ds and %d per %d min per project (overrides -write-limit and -write-limit-long; make mock sets it)",
		mockconsole.ServiceWriteLimit, mockconsole.ServiceWriteWindow/time.Second, mockconsole.ServiceWriteLimitLong, mockconsole.ServiceWriteWindowLong/time.Minute))
	noLimits := flag.Bool("no-write-limits", false, "enforce no write limit at all: neither the project's nor the segment id endpoints' own (12 per 10s and 900 per 15 min, on otherwise)")
	rateLimitHeaders := flag.Bool("ratelimit-headers", false, "send RateLimit-Limit/-Remaining/-Reset on every answer of a write")
	eventRecords := flag.Int("event-records", 0, "records seeded for event checkout_completed (0 = 2500)")
	seedGates := flag.Int("seed-gates", 0, "benchmark gates gate_001.. to seed (0 = 300)")
	urlFile := flag.String("url-file", "", "write the base URL to this file once listening")
	habitList := flag.String("habits", os.Getenv(mockconsole.HabitsEnv), "the live service's habits to switch on: \"all\" or a comma-separated list of "+
		strings.Join(mockconsole.HabitNames(), ", ")+" (default $"+mockconsole.HabitsEnv+")")
	flag.Parse()
	habits, err := mockconsole.ParseHabits(*habitList)
	if err != nil {
		return err
	}

	if err := checkLoopback(*addr); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	cfg := mockconsole.Config{
		APIKey:           *apiKey,
		PageSizeCap:      *pageCap,
		EventRecords:     *eventRecords,
		Latency:          *latency,
		WriteLimit:       *writeLimit,
		WriteWindow:      *writeWindow,
		WriteLimitLong:   *writeLimitLong,
		WriteWindowLong:  *writeWindowLong,
		RateLimitHeaders: *rateLimitHeaders,
		SeedGates:        *seedGates,
	}
	if *serviceLimits {
		cfg = cfg.WithServiceLimits()
	}
	if *noLimits {
		cfg = cfg.WithoutWriteLimits()
	}
	srv := mockconsole.New(cfg)
	srv.SetHabits(habits)
	url := "http://" + ln.Addr().String()
	if *urlFile != "" {
		tmp := *urlFile + ".tmp"
		if err := os.WriteFile(tmp, []byte(url+"\n"), 0o644); err != nil {
			ln.Close()
			return err
		}
		if err := os.Rename(tmp, *urlFile); err != nil {
			ln.Close()
			return err
		}
		defer os.Remove(filepath.Clean(*urlFile))
	}

	hs := &http.Server{Handler: withControl(srv), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	fmt.Printf("mockconsole listening on %s\n", url)
	fmt.Println(limitsNotice(srv))

	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	case <-ctx.Done():
	}
	shCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shCtx); err != nil {
		return err
	}
	fmt.Println("mockconsole stopped")
	return nil
}

// limitsNotice says at start which write limits the mock enforces and how to lift them, so that
// nobody mistakes local timings for what the service allows, or the other way round.
func limitsNotice(srv *mockconsole.Server) string {
	limits := srv.WriteLimits()
	if limits == "none" {
		return "write limits: none (-service-write-limits enforces the service's)"
	}
	return "write limits: " + limits + " (-no-write-limits lifts them)"
}

func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("invalid -addr %q: %v", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("refusing to listen on non-loopback address %q (use 127.0.0.1, ::1 or localhost)", addr)
	}
	return nil
}
