// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"strings"
	"testing"
)

func TestNormalizeBaseURL(t *testing.T) {
	cases := map[string]string{
		"https://console.example.com":                "https://console.example.com/console/v1",
		"https://console.example.com/":               "https://console.example.com/console/v1",
		"https://console.example.com///":             "https://console.example.com/console/v1",
		"https://console.example.com/console/v1":     "https://console.example.com/console/v1",
		"https://console.example.com/console/v1/":    "https://console.example.com/console/v1",
		"https://console.example.com/console/v1//":   "https://console.example.com/console/v1",
		"  http://127.0.0.1:8080/console/v1 ":        "http://127.0.0.1:8080/console/v1",
		"https://gw.example.com/feature":             "https://gw.example.com/feature/console/v1",
		"https://gw.example.com/feature/console/v1/": "https://gw.example.com/feature/console/v1",
		"HTTPS://Console.Example.com":                "https://Console.Example.com/console/v1",
		"http://[::1]:9000":                          "http://[::1]:9000/console/v1",
	}
	for in, want := range cases {
		u, err := NormalizeBaseURL(in)
		if err != nil {
			t.Errorf("NormalizeBaseURL(%q): %v", in, err)
			continue
		}
		if u.String() != want {
			t.Errorf("NormalizeBaseURL(%q) = %s, want %s", in, u, want)
		}
	}
}

func TestNormalizeBaseURLRejects(t *testing.T) {
	cases := map[string]string{
		"":                                  "scheme",
		"console.example.com":               "scheme",
		"ftp://console.example.com":         "scheme",
		"file:///etc/passwd":                "scheme",
		"ws://console.example.com":          "scheme",
		"https://":                          "no host",
		"http:opaque":                       "no host",
		"https://console.example.com?x=1":   "query",
		"https://console.example.com/#frag": "fragment",
		"https://console example.com":       "invalid base URL",
		"://nothing":                        "invalid base URL",
	}
	for in, want := range cases {
		_, err := NormalizeBaseURL(in)
		if err == nil {
			t.Errorf("NormalizeBaseURL(%q) accepted", in)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("NormalizeBaseURL(%q) error %q does not mention %q", in, err, want)
		}
	}
}

func TestNewValidates(t *testing.T) {
	if _, err := New(Config{BaseURL: "https://x.example.com"}); err == nil || !strings.Contains(err.Error(), "API key") {
		t.Errorf("missing key: %v", err)
	}
	if _, err := New(Config{BaseURL: "ftp://x.example.com", APIKey: testKey}); err == nil {
		t.Error("ftp base URL accepted")
	} else {
		noKey(t, "error", err.Error())
	}
	c, err := New(Config{BaseURL: "https://x.example.com/console/v1/", APIKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseURL() != "https://x.example.com/console/v1" {
		t.Errorf("BaseURL() = %s", c.BaseURL())
	}
}

// Both spellings of base_url reach the same paths on the wire.
func TestBaseURLOnTheWire(t *testing.T) {
	for _, suffix := range []string{"", "/", "/console/v1", "/console/v1/", "/prefix", "/prefix/console/v1/"} {
		f := newFake(t, script(ok(`{"id":"g"}`)))
		c := f.client(func(cfg *Config) { cfg.BaseURL = f.srv.URL + suffix })
		if _, err := c.GetGate(context.Background(), "g"); err != nil {
			t.Fatalf("%q: %v", suffix, err)
		}
		want := "/console/v1/gates/g"
		if strings.HasPrefix(suffix, "/prefix") {
			want = "/prefix" + want
		}
		if got := f.requests()[0].Path; got != want {
			t.Errorf("base %q: path %s, want %s", suffix, got, want)
		}
	}
}
