// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// A plan-time dry run of a metric source is a POST and spends the project's write budget like any
// write. Terraform plans a change more than once (the plan, apply's re-plan, a separate `terraform
// plan` before), each time in a new provider process, so the client remembers which bodies the
// service already accepted, in memory and (with DryRunCacheDir) on disk, and does not ask again.
// A pass is only advisory: apply still meets the service's real answer.

// dryRunTTL bounds how long a pass is trusted: long enough for plan → apply, short enough that
// a name taken since, say, is checked again on a later run.
const dryRunTTL = time.Hour

type dryRunCache struct {
	dir    string // "" keeps passes in memory only
	mu     sync.Mutex
	passed map[string]time.Time
}

// key identifies a dry run by service, project (a hash of the key, never the key) and exact body.
func (c *Client) dryRunKey(r request) string {
	body, _ := json.Marshal(r.body)
	keyHash := sha256.Sum256([]byte(c.apiKey))
	h := sha256.New()
	for _, part := range [][]byte{[]byte(c.base.String()), keyHash[:], []byte(r.method), []byte(r.path), body} {
		h.Write(part)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (d *dryRunCache) seen(key string, now time.Time) bool {
	d.mu.Lock()
	at, ok := d.passed[key]
	d.mu.Unlock()
	if ok && now.Sub(at) < dryRunTTL {
		return true
	}
	if d.dir == "" {
		return false
	}
	fi, err := os.Stat(filepath.Join(d.dir, key))
	return err == nil && now.Sub(fi.ModTime()) < dryRunTTL && now.Sub(fi.ModTime()) >= -time.Minute
}

func (d *dryRunCache) remember(key string, now time.Time) {
	d.mu.Lock()
	if d.passed == nil {
		d.passed = map[string]time.Time{}
	}
	d.passed[key] = now
	d.mu.Unlock()
	if d.dir == "" {
		return
	}
	// Best effort: a cache that cannot be written only costs another dry run.
	if os.MkdirAll(d.dir, 0o700) == nil {
		_ = os.WriteFile(filepath.Join(d.dir, key), nil, 0o600)
		d.prune(now)
	}
}

// prune removes expired passes so the directory does not grow without bound.
func (d *dryRunCache) prune(now time.Time) {
	entries, err := os.ReadDir(d.dir)
	if err != nil || len(entries) < 256 {
		return
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > dryRunTTL {
			_ = os.Remove(filepath.Join(d.dir, e.Name()))
		}
	}
}

// dryRun sends a dry run, decoding what the service answers into out, unless the same body already
// passed; it reports whether it was sent.
func (c *Client) dryRun(ctx context.Context, r request, out any) (sent bool, err error) {
	key := c.dryRunKey(r)
	if c.dryRuns.seen(key, time.Now()) {
		return false, nil
	}
	// A 200 without a body is the service accepting the body all the same.
	if err := c.do(ctx, r, out); err != nil && !emptyAnswer(err) {
		return true, err
	}
	c.dryRuns.remember(key, time.Now())
	return true, nil
}
