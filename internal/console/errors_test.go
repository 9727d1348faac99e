// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestAPIErrorMessage(t *testing.T) {
	f := newFake(t, script(apiErr(400, "rules[0].passPercentage must be between 0 and 100")))
	_, err := f.client().UpdateGateRules(context.Background(), "x", []Rule{{Name: "r", PassPercentage: 101}})
	var ae *APIError
	if !errors.As(err, &ae) {
		t.Fatalf("got %T %v, want *APIError", err, err)
	}
	const want = `Unable to update rules of gate "x": 400 Bad Request: rules[0].passPercentage must be between 0 and 100`
	if err.Error() != want {
		t.Errorf("Error() =\n %s\nwant\n %s", err, want)
	}
	if ae.StatusCode != 400 || ae.Message != "rules[0].passPercentage must be between 0 and 100" || ae.Attempts != 1 || ae.MaybeCommitted {
		t.Errorf("APIError fields: %+v", ae)
	}
	if f.count() != 1 {
		t.Errorf("a 400 was retried: %d requests", f.count())
	}
	if NotFound(err) || !hasStatus(err, 400) {
		t.Error("NotFound/hasStatus wrong for a 400")
	}
}

func TestNotFound(t *testing.T) {
	f := newFake(t, script(apiErr(404, "Gate not found")))
	c := f.client()
	_, err := c.GetGate(context.Background(), "gone")
	if !NotFound(err) {
		t.Fatalf("NotFound(%v) = false", err)
	}
	if !NotFound(fmt.Errorf("wrapped: %w", err)) {
		t.Error("NotFound does not see through wrapping")
	}
	if err.Error() != `Unable to read gate "gone": 404 Not Found: Gate not found` {
		t.Errorf("Error() = %s", err)
	}
	if f.count() != 1 {
		t.Errorf("a 404 was retried: %d requests", f.count())
	}
	if NotFound(nil) || NotFound(errors.New("404")) || NotFound(&DecodeError{Op: "x", Err: errors.New("y")}) {
		t.Error("NotFound true for a non-404")
	}
	err = c.DeleteMetricSource(context.Background(), "gone")
	if !NotFound(err) {
		t.Errorf("delete: NotFound(%v) = false", err)
	}
}

func TestUnauthorizedNeverShowsKey(t *testing.T) {
	for _, body := range []string{
		`{"status":401,"message":"Unauthorized"}`,
		`{"status":401,"message":"invalid SERVICE-API-KEY ` + testKey + `"}`,
		`invalid key: ` + testKey,
		`<html><body>key ` + testKey + ` rejected</body></html>`,
		``,
	} {
		f := newFake(t, script(reply{Status: 401, Body: body}))
		_, err := f.client().GetGate(context.Background(), "g")
		if !hasStatus(err, 401) {
			t.Fatalf("body %q: got %v", body, err)
		}
		// The advice to check the key is the provider's (TestFailureDetail); the key never appears.
		noKey(t, "401 error", err.Error())
		var ae *APIError
		errors.As(err, &ae)
		noKey(t, "APIError.Message", ae.Message)
		noKey(t, "APIError.Body", string(ae.Body))
		if f.count() != 1 {
			t.Errorf("a 401 was retried: %d requests", f.count())
		}
	}
}

// Whatever the service puts in a body, the key the client sent never reaches an error text.
func TestErrorsNeverShowKey(t *testing.T) {
	bodies := []reply{
		{Status: 400, Body: `{"status":400,"message":"key ` + testKey + ` may not do this"}`},
		{Status: 403, Body: `{"error":"forbidden for ` + testKey + `"}`},
		{Status: 422, Body: `plain text echo ` + testKey},
		{Status: 200, Body: `{"message":"ok","data":{"id":"` + testKey + `"`},
		{Status: 200, Body: `not json ` + testKey},
		{Status: 200, Body: `{"message":"ok","data":["` + testKey + `"]}`},
	}
	for _, rep := range bodies {
		f := newFake(t, script(rep))
		_, err := f.client().GetGate(context.Background(), "g")
		if err == nil {
			t.Fatalf("%q: no error", rep.Body)
		}
		noKey(t, "error for "+rep.Body, err.Error())
		var ae *APIError
		if errors.As(err, &ae) {
			noKey(t, "APIError.Message", ae.Message)
			noKey(t, "APIError.Body", string(ae.Body))
		}
		var de *DecodeError
		if errors.As(err, &de) {
			noKey(t, "DecodeError.Body", string(de.Body))
		}
	}
}

func TestOddErrorBodies(t *testing.T) {
	cases := []struct {
		name  string
		reply reply
		want  string
	}{
		{"empty body", reply{Status: 400}, `Unable to read gate "g": 400 Bad Request`},
		{"whitespace body", reply{Status: 409, Body: " \n "}, `Unable to read gate "g": 409 Conflict`},
		{"plain text", reply{Status: 400, Body: "bad things happened\n", Header: map[string]string{"Content-Type": "text/plain"}},
			`Unable to read gate "g": 400 Bad Request: unexpected response body: bad things happened`},
		{"html from a proxy", reply{Status: 502, Body: "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>",
			Header: map[string]string{"Content-Type": "text/html"}},
			`Unable to read gate "g": 502 Bad Gateway: the service answered with an HTML page instead of JSON`},
		{"html without content type", reply{Status: 403, Body: "<!DOCTYPE html><html>denied</html>", Header: map[string]string{"Content-Type": "application/octet-stream"}},
			`Unable to read gate "g": 403 Forbidden: the service answered with an HTML page instead of JSON`},
		{"truncated json", reply{Status: 400, Body: `{"status":400,"mess`}, `Unable to read gate "g": 400 Bad Request: unexpected response body: {"status":400,"mess`},
		{"message not a string", reply{Status: 400, Body: `{"status":400,"message":{"a":1}}`},
			`Unable to read gate "g": 400 Bad Request: unexpected response body: {"status":400,"message":{"a":1}}`},
		{"error field", reply{Status: 403, Body: `{"error":"project is read-only"}`}, `Unable to read gate "g": 403 Forbidden: project is read-only`},
		{"json array", reply{Status: 400, Body: `["a"]`}, `Unable to read gate "g": 400 Bad Request: unexpected response body: ["a"]`},
		{"huge body is cut", reply{Status: 400, Body: strings.Repeat("x", 5000)},
			`Unable to read gate "g": 400 Bad Request: unexpected response body: ` + strings.Repeat("x", 200) + "…"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, script(tc.reply))
			_, err := f.client(func(c *Config) { c.MaxRetries = 0 }).GetGate(context.Background(), "g")
			var ae *APIError
			if !errors.As(err, &ae) {
				t.Fatalf("got %T %v", err, err)
			}
			if err.Error() != tc.want {
				t.Errorf("Error() =\n %s\nwant\n %s", err, tc.want)
			}
		})
	}
}

// A 2xx the client cannot understand is a DecodeError, never a panic or a silently empty object.
func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		name string
		body string
		want string
	}{
		{"empty", "", "empty response body"},
		{"truncated", `{"message":"ok","data":{"id":"g","rules":[`, "unexpected end of JSON input"},
		{"html", "<html><body>Welcome to nginx</body></html>", "HTML page"},
		{"not json", "OK", "body starts: OK"},
		{"data of the wrong type", `{"message":"ok","data":[1,2]}`, "cannot unmarshal array"},
		{"field of the wrong type", `{"message":"ok","data":{"id":"g","rules":"none"}}`, "cannot unmarshal string"},
		{"json null", `null`, "carries no data"},
		{"no data", `{"message":"ok"}`, "carries no data"},
		{"null data", `{"message":"ok","data":null}`, "carries no data"},
		{"some other JSON API", `{"ok":true}`, "carries no data"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, script(reply{Status: 200, Body: tc.body}))
			g, err := f.client().GetGate(context.Background(), "g")
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("got %v, %T %v; want *DecodeError", g, err, err)
			}
			if !strings.HasPrefix(err.Error(), `Unable to read gate "g": the service's response could not be decoded: `) ||
				!strings.Contains(err.Error(), tc.want) {
				t.Errorf("Error() = %s; want it to mention %q", err, tc.want)
			}
			if f.count() != 1 {
				t.Errorf("decode error retried: %d requests", f.count())
			}
		})
	}
}

// A dry run only validates: its answer may carry no data.
func TestDryRunWithoutData(t *testing.T) {
	f := newFake(t, script(reply{Status: 200, Body: `{"message":"valid"}`}))
	c := f.client()
	if _, err := c.CreateMetricSource(context.Background(), MetricSource{Name: "m", DryRun: true}); err != nil {
		t.Errorf("create dry run: %v", err)
	}
	if _, err := c.UpdateMetricSource(context.Background(), "m", MetricSource{DryRun: true}); err != nil {
		t.Errorf("update dry run: %v", err)
	}
	if _, err := c.CreateMetricSource(context.Background(), MetricSource{Name: "m"}); err == nil {
		t.Error("a real create answered without data was accepted")
	}
}

func TestDeleteAcceptsEmptyAnswers(t *testing.T) {
	for _, rep := range []reply{
		{Status: 204},
		{Status: 200},
		{Status: 200, Body: `{"message":"deleted"}`},
		{Status: 200, Body: `{"message":"deleted","data":null}`},
		{Status: 202, Body: `{"message":"deleted","data":{}}`},
	} {
		f := newFake(t, script(rep))
		if err := f.client().DeleteMetricSource(context.Background(), "m"); err != nil {
			t.Errorf("%d %q: %v", rep.Status, rep.Body, err)
		}
	}
}

// A redirect must not turn a write into a read, nor carry the key to another host.
func TestRedirectsAreNotFollowed(t *testing.T) {
	other := newFake(t, script(ok(`{"id":"x"}`)))
	for _, target := range []string{other.srv.URL + "/console/v1/gates/x/rules", "/elsewhere"} {
		f := newFake(t, func(n int, r seen) reply {
			if r.Path == "/elsewhere" {
				return ok(`{"id":"x"}`)
			}
			return reply{Status: http.StatusMovedPermanently, Header: map[string]string{"Location": target}}
		})
		_, err := f.client().UpdateGateRules(context.Background(), "x", nil)
		if err == nil {
			t.Errorf("redirect to %s: write reported as success", target)
		} else {
			noKey(t, "error", err.Error())
			if !strings.Contains(err.Error(), "301") || !strings.Contains(err.Error(), target) {
				t.Errorf("redirect error does not name the status and location: %s", err)
			}
		}
		if f.count() != 1 {
			t.Errorf("redirect to %s followed: %d requests", target, f.count())
		}
	}
	if other.count() != 0 {
		t.Errorf("the key was sent to another host %d times", other.count())
	}
}

func TestInvalidKeyCharacters(t *testing.T) {
	for _, key := range []string{"sk-a\nb" + testKey, testKey + "\x00", "sk\r\n" + testKey, " \n\t "} {
		_, err := New(Config{BaseURL: "https://x.example.com", APIKey: key})
		if err == nil {
			t.Errorf("key %q accepted", key)
			continue
		}
		noKey(t, "error", err.Error())
	}
}

// A key read from a file keeps its trailing newline; it is sent without it.
func TestKeyIsTrimmed(t *testing.T) {
	f := newFake(t, script(ok(`{"id":"g"}`)))
	c := f.client(func(cfg *Config) { cfg.APIKey = " " + testKey + "\n" })
	if _, err := c.GetGate(context.Background(), "g"); err != nil {
		t.Fatal(err)
	}
	checkHeaders(t, f.requests()[0], false, false)
}
