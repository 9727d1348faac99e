// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

func TestMetricSourceExpandFlattenRoundTrip(t *testing.T) {
	ctx := context.Background()
	team := "Payments"
	src := &console.MetricSource{
		Name: "orders", SQL: "SELECT 1", TimestampColumn: "ts",
		IDTypeMapping:  []console.IDTypeMapping{{ServiceUnitID: "userID", Column: "uid"}},
		Description:    strp("d"),
		Tags:           []string{"a", "b"},
		TimestampAsDay: new(true), SourceType: strp("table"), TableName: strp("t"), DatePartitionColumn: strp("ds"),
		CustomFieldMapping: []console.CustomFieldMapping{{Key: "k", Formula: "f"}},
		IsReadOnly:         new(true), IsVerified: new(false), Team: &team,
		Owner: &console.Owner{OwnerID: "u1", OwnerType: "USER"},
	}
	var m metricSourceModel
	flattenMetricSource(src, &m)
	if !m.ValidateOnPlan.ValueBool() || m.Owner.IsNull() || !m.TeamID.IsNull() {
		t.Fatalf("unexpected model: %+v", m)
	}
	back, d := expandMetricSource(ctx, m)
	if d.HasError() {
		t.Fatal(d)
	}
	if !sameMetricSource(*src, back) {
		t.Fatalf("round trip changed the source:\n%+v\n%+v", *src, back)
	}
}

func TestMetricSourceFlattenAbsentFieldsAsDefaults(t *testing.T) {
	var m metricSourceModel
	flattenMetricSource(&console.MetricSource{Name: "x", SQL: "s", TimestampColumn: "ts", Team: strp("")}, &m)
	if m.Description.ValueString() != "" || m.Description.IsNull() || m.Tags.IsNull() || len(m.Tags.Elements()) != 0 ||
		m.SourceType.ValueString() != "query" || m.TableName.IsNull() || m.CustomFieldMapping.IsNull() ||
		m.IsReadOnly.IsNull() || !m.Team.IsNull() || !m.Owner.IsNull() {
		t.Fatalf("absent fields must read as the schema defaults: %+v", m)
	}
}

func TestMetricSourceSameIgnoresAbsentVersusZero(t *testing.T) {
	a := console.MetricSource{Name: "x", SQL: "s", TimestampColumn: "ts", IDTypeMapping: []console.IDTypeMapping{{ServiceUnitID: "u", Column: "c"}}}
	b := a
	b.Description, b.Tags, b.SourceType, b.TableName, b.IsVerified, b.Team = strp(""), []string{}, strp("query"), strp(""), new(false), strp("")
	b.Owner, b.DryRun = &console.Owner{OwnerID: "o"}, true
	if !sameMetricSource(a, b) {
		t.Fatal("absent and zero fields must compare equal")
	}
	b.Tags = []string{"t"}
	if sameMetricSource(a, b) {
		t.Fatal("different tags must differ")
	}
}

func TestMetricSourceExistsErrorNamesImport(t *testing.T) {
	e := &objectExistsError{creation: metricSourceCreation, id: "orders", cause: errors.New("Unable to create metric source \"orders\": 400 Bad Request: Name is already in use")}
	for _, want := range []string{`terraform import featureconsole_metric_source.<resource name> "orders"`, `id = "orders"`, "Name is already in use"} {
		if !strings.Contains(e.Error(), want) {
			t.Errorf("message lacks %q:\n%s", want, e.Error())
		}
	}
}

// loseFirstCreate answers the first create 502 without forwarding it, after running before:
// what the service looks like when an earlier attempt's answer was lost.
type loseFirstCreate struct {
	next   http.RoundTripper
	before func()
	done   bool
}

func (l *loseFirstCreate) RoundTrip(r *http.Request) (*http.Response, error) {
	if !l.done && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/metrics/metric_source") {
		l.done = true
		l.before()
		return &http.Response{StatusCode: http.StatusBadGateway, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
	}
	return l.next.RoundTrip(r)
}

// recoverMetricSource is what Create does with a failed create of sent.
func recoverMetricSource(r *metricSourceResource, sent console.MetricSource, err error) (*console.MetricSource, error) {
	got, _, err := recoverCreate(context.Background(), metricSourceCreation, sent.Name, err, r.data.client.GetMetricSource,
		func(got *console.MetricSource) bool { return sameMetricSource(sent, *got) })
	return got, err
}

func TestMetricSourceRecoverCreate(t *testing.T) {
	sent := console.MetricSource{
		Name: "orders", SQL: "SELECT 1", TimestampColumn: "ts",
		IDTypeMapping: []console.IDTypeMapping{{ServiceUnitID: "userID", Column: "uid"}},
		Description:   strp("d"), Tags: []string{"x"}, Team: strp("T"),
	}
	stored := mockconsole.MetricSource{
		Name: sent.Name, SQL: sent.SQL, TimestampColumn: sent.TimestampColumn,
		IDTypeMapping: []mockconsole.IDTypeMapping{{ServiceUnitID: "userID", Column: "uid"}},
		Description:   "d", Tags: []string{"x"}, Team: strp("T"),
	}
	for name, tc := range map[string]struct {
		stored     func() mockconsole.MetricSource
		wantErr    string
		wantStatus int
	}{
		"committed as sent": {stored: func() mockconsole.MetricSource { return stored }},
		"a different source": {
			stored: func() mockconsole.MetricSource {
				o := stored
				o.SQL = "SELECT 2"
				return o
			},
			wantErr: "differs from this configuration",
		},
	} {
		t.Run(name, func(t *testing.T) {
			m, url := mockWithoutSources(t)
			c, err := console.New(console.Config{
				BaseURL: url, APIKey: mockconsole.DefaultAPIKey, MaxRetries: 2, RetryWaitMin: 1, RetryWaitMax: 1,
				Transport: &loseFirstCreate{next: http.DefaultTransport, before: func() { m.PutMetricSource(tc.stored()) }},
			})
			if err != nil {
				t.Fatal(err)
			}
			r := &metricSourceResource{resourceData{data: &providerData{client: c}}}
			_, cerr := c.CreateMetricSource(context.Background(), sent)
			var ae *console.APIError
			if !errors.As(cerr, &ae) || !ae.MaybeCommitted || ae.StatusCode != http.StatusBadRequest {
				t.Fatalf("want a 400 that may have been committed, got %v", cerr)
			}
			got, err := recoverMetricSource(r, sent, cerr)
			if tc.wantErr == "" {
				if err != nil || got == nil || got.Name != "orders" {
					t.Fatalf("want recovery, got %v, %v", got, err)
				}
				return
			}
			var exists *objectExistsError
			if !errors.As(err, &exists) || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "terraform import") {
				t.Fatalf("want an exists error, got %v", err)
			}
		})
	}
}

func TestMetricSourceRecoverCreateLeavesOtherErrors(t *testing.T) {
	m, url := mockWithoutSources(t)
	c, _ := console.New(console.Config{BaseURL: url, APIKey: mockconsole.DefaultAPIKey})
	r := &metricSourceResource{resourceData{data: &providerData{client: c}}}
	orig := &console.APIError{Op: "create metric source", StatusCode: http.StatusBadRequest, Message: "SQL compilation error"}
	if _, err := recoverMetricSource(r, console.MetricSource{Name: "nope"}, orig); err != orig {
		t.Fatalf("a 400 for a name not in use must come back unchanged, got %v", err)
	}
	forbidden := &console.APIError{Op: "create metric source", StatusCode: http.StatusForbidden}
	if _, err := recoverMetricSource(r, console.MetricSource{Name: "nope"}, forbidden); err != forbidden {
		t.Fatalf("got %v", err)
	}
	if n := m.CountRequests(http.MethodGet, "/"); n != 1 {
		t.Fatalf("want one read-back (for the 400 only), got %d", n)
	}
}
