// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// fastEventsReads counts, per client base URL, the events reads answered below the framework.
var fastEventsReads = struct {
	sync.Mutex
	n map[string]int
}{n: map[string]int{}}

func init() {
	fastEventsReadHook = func(baseURL string) {
		fastEventsReads.Lock()
		defer fastEventsReads.Unlock()
		fastEventsReads.n[baseURL]++
	}
}

// fastEventsReadCount is how many events reads of the mock at url were answered below the framework.
func fastEventsReadCount(url string) int {
	fastEventsReads.Lock()
	defer fastEventsReads.Unlock()
	n := 0
	for base, c := range fastEventsReads.n {
		if strings.HasPrefix(base, url) {
			n += c
		}
	}
	return n
}

// checkFastEventsRead fails unless the events data source was read below the framework (server.go).
func checkFastEventsRead(url string) func(*terraform.State) error {
	return func(*terraform.State) error {
		if fastEventsReadCount(url) == 0 {
			return fmt.Errorf("no featureconsole_events read of %s went through the fast path", url)
		}
		return nil
	}
}

func TestEventsStateTypeMatchesSchema(t *testing.T) {
	ctx := context.Background()
	var sr datasource.SchemaResponse
	NewEventsDataSource().Schema(ctx, datasource.SchemaRequest{}, &sr)
	if got := sr.Schema.Type().TerraformType(ctx); !got.Equal(eventsStateType) {
		t.Fatalf("schema type %s, eventsStateType %s", got, eventsStateType)
	}
}

// configuredTestServer is a server whose provider is configured against url with apiKey.
func configuredTestServer(t *testing.T, url, apiKey string, readConcurrency int64) *eventsServer {
	t.Helper()
	ctx := context.Background()
	srv, err := newServerFactory(newTestProvider)()
	if err != nil {
		t.Fatal(err)
	}
	var pr provider.SchemaResponse
	newTestProvider().Schema(ctx, provider.SchemaRequest{}, &pr)
	typ := pr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
	}
	vals["base_url"] = tftypes.NewValue(tftypes.String, url)
	vals["api_key"] = tftypes.NewValue(tftypes.String, apiKey)
	vals["max_retries"] = tftypes.NewValue(tftypes.Number, 0)
	vals["read_concurrency"] = tftypes.NewValue(tftypes.Number, readConcurrency)
	cfg, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.11.4", Config: &cfg})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("ConfigureProvider: %v %v", err, resp.Diagnostics)
	}
	return srv.(*eventsServer)
}

func eventsReadRequest(t *testing.T, name tftypes.Value, maxRecords any) *tfprotov6.ReadDataSourceRequest {
	t.Helper()
	cfg, err := tfprotov6.NewDynamicValue(eventsStateType, tftypes.NewValue(eventsStateType, map[string]tftypes.Value{
		"event_name":  name,
		"max_records": tftypes.NewValue(tftypes.Number, maxRecords),
		"events":      tftypes.NewValue(eventsStateType.AttributeTypes["events"], nil),
	}))
	if err != nil {
		t.Fatal(err)
	}
	return &tfprotov6.ReadDataSourceRequest{TypeName: eventsTypeName, Config: &cfg}
}

// The fast path must answer what the framework answers, byte for byte; where an event has two or
// more metadata keys the framework writes them in Go's map order, so there the states are compared
// as values.
func TestFastEventsReadMatchesFramework(t *testing.T) {
	ctx := context.Background()
	m, url := startMock(t, mockconsole.Config{})

	long := strings.Repeat("é", 200) // str8 and str16 headers
	oneKey := make([]mockconsole.Event, 250)
	for i := range oneKey {
		oneKey[i] = mockconsole.Event{
			Timestamp: fmt.Sprint(1_700_000_000_000 + i), Name: "one_key", Source: "sdk", Value: fmt.Sprint(i), UserID: fmt.Sprintf("u%d", i%7),
		}
		switch i % 8 {
		case 0:
			oneKey[i].Metadata = map[string]any{}
		case 1:
			oneKey[i].Metadata = map[string]any{"amount": 12.5}
		case 2:
			oneKey[i].Metadata = map[string]any{"nested": map[string]any{"b": 1, "a": []any{"x", true, nil}}}
		case 3:
			oneKey[i].Metadata = map[string]any{"日本": "値 ✓ 🚀"}
		case 4:
			oneKey[i].Metadata = map[string]any{"long": long + long}
		case 5:
			oneKey[i].Value, oneKey[i].Source = "", long
		case 6:
			oneKey[i].Metadata = map[string]any{"n": nil}
		case 7:
			oneKey[i].Metadata = map[string]any{"big": 123456789012345678}
		}
	}
	m.SetEvents("one_key", oneKey)
	m.SetEvents("many_keys", testEvents(230))
	m.SetEvents("ünïcødé 🚀", oneKey[:9])

	fast := configuredTestServer(t, url, mockconsole.DefaultAPIKey, 3)
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	for _, tc := range []struct {
		name       string
		event      string
		maxRecords any
		sameBytes  bool
	}{
		{"all one key", "one_key", nil, true},
		{"max records across pages", "one_key", 130, true},
		{"max records within the first page", "one_key", 7, true},
		{"max records beyond the total", "one_key", 1000, true},
		{"empty list", "never_recorded", nil, true},
		{"empty list with max records", "never_recorded", 5, true},
		{"many keys", "many_keys", nil, false},
		{"many keys, max records", "many_keys", 101, false},
		{"unicode name", "ünïcødé 🚀", 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := eventsReadRequest(t, str(tc.event), tc.maxRecords)
			got := fast.readEvents(ctx, req)
			if got == nil {
				t.Fatal("the fast path declined the read")
			}
			want, err := fast.frameworkServer.ReadDataSource(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) || got.Deferred != nil || want.Deferred != nil {
				t.Fatalf("diagnostics %v, framework %v", got.Diagnostics, want.Diagnostics)
			}
			// An event with no records warns, on both paths alike (above); one with records does not.
			if empty := tc.event == "never_recorded"; empty != (len(got.Diagnostics) == 1 &&
				got.Diagnostics[0].Severity == tfprotov6.DiagnosticSeverityWarning &&
				got.Diagnostics[0].Summary == `No records of event "never_recorded"`) || !empty && len(got.Diagnostics) > 0 {
				t.Fatalf("diagnostics %+v", got.Diagnostics)
			}
			if tc.sameBytes {
				if !bytes.Equal(got.State.MsgPack, want.State.MsgPack) || got.State.JSON != nil {
					t.Fatalf("state differs from the framework's:\n%x\n%x", got.State.MsgPack, want.State.MsgPack)
				}
			}
			gv, err := got.State.Unmarshal(eventsStateType)
			if err != nil {
				t.Fatal(err)
			}
			wv, err := want.State.Unmarshal(eventsStateType)
			if err != nil {
				t.Fatal(err)
			}
			if diff, _ := gv.Diff(wv); len(diff) > 0 || !gv.Equal(wv) {
				t.Fatalf("state differs from the framework's: %v", diff)
			}
			var attrs map[string]tftypes.Value
			var events []tftypes.Value
			_ = gv.As(&attrs)
			_ = attrs["events"].As(&events)
			if len(events) == 0 && tc.event != "never_recorded" {
				t.Fatal("no events read")
			}
		})
	}
}

func TestFastEventsReadErrorMatchesFramework(t *testing.T) {
	ctx := context.Background()
	_, url := startMock(t, mockconsole.Config{})
	fast := configuredTestServer(t, url, "wrong-key", 4)
	req := eventsReadRequest(t, tftypes.NewValue(tftypes.String, "signup"), 10)
	got := fast.readEvents(ctx, req)
	if got == nil {
		t.Fatal("the fast path declined the read")
	}
	want, err := fast.frameworkServer.ReadDataSource(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fast path answered %+v %+v, framework %+v %+v", got.State, got.Diagnostics[0], want.State, want.Diagnostics)
	}
	status := "401"
	if envHabits(t).AuthAs403 {
		status = "403"
	}
	if d := got.Diagnostics[0]; d.Summary != `Unable to list events "signup"` || !strings.Contains(d.Detail, status) {
		t.Fatalf("diagnostic %q: %q", d.Summary, d.Detail)
	}
}

// What the fast path does not handle goes to the framework.
func TestFastEventsReadFallsBack(t *testing.T) {
	ctx := context.Background()
	_, url := startMock(t, mockconsole.Config{})
	known := eventsReadRequest(t, tftypes.NewValue(tftypes.String, "signup"), nil)

	unconfigured, err := newServerFactory(newTestProvider)()
	if err != nil {
		t.Fatal(err)
	}
	if unconfigured.(*eventsServer).readEvents(ctx, known) != nil {
		t.Error("unconfigured provider: fast path answered")
	}

	fast := configuredTestServer(t, url, mockconsole.DefaultAPIKey, 1)
	if fast.readEvents(ctx, known) == nil {
		t.Fatal("plain read: fast path declined")
	}
	for name, req := range map[string]*tfprotov6.ReadDataSourceRequest{
		"unknown event name": eventsReadRequest(t, tftypes.NewValue(tftypes.String, tftypes.UnknownValue), nil),
		"unknown max":        eventsReadRequest(t, tftypes.NewValue(tftypes.String, "signup"), tftypes.UnknownValue),
		"null event name":    eventsReadRequest(t, tftypes.NewValue(tftypes.String, nil), nil),
		"fractional max":     eventsReadRequest(t, tftypes.NewValue(tftypes.String, "signup"), big.NewFloat(1.5)),
		"zero max":           eventsReadRequest(t, tftypes.NewValue(tftypes.String, "signup"), 0),
		"no config":          {TypeName: eventsTypeName},
	} {
		if fast.readEvents(ctx, req) != nil {
			t.Errorf("%s: fast path answered", name)
		}
	}
	deferral := *known
	deferral.ClientCapabilities = &tfprotov6.ReadDataSourceClientCapabilities{DeferralAllowed: true}
	if fast.readEvents(ctx, &deferral) != nil {
		t.Error("deferral allowed: fast path answered")
	}
	meta, err := tfprotov6.NewDynamicValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"x": tftypes.String}},
		tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"x": tftypes.String}}, map[string]tftypes.Value{"x": tftypes.NewValue(tftypes.String, "y")}))
	if err != nil {
		t.Fatal(err)
	}
	withMeta := *known
	withMeta.ProviderMeta = &meta
	if fast.readEvents(ctx, &withMeta) != nil {
		t.Error("provider meta: fast path answered")
	}
	// Other data sources are the framework's.
	users := *known
	users.TypeName = "featureconsole_users"
	before := fastEventsReadCount(url)
	if _, err := fast.ReadDataSource(ctx, &users); err != nil {
		t.Fatal(err)
	}
	if fastEventsReadCount(url) != before {
		t.Error("featureconsole_users went through the events fast path")
	}
}

// The wrapper around the framework's server hides none of the RPCs of list resources (tf6server serves
// them only to a server that has them) and identity.
var (
	_ tfprotov6.ProviderServer     = (*eventsServer)(nil)
	_ tfprotov6.ListResourceServer = (*eventsServer)(nil)
)
