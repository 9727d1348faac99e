// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"bytes"
	"strings"
	"testing"
)

func validSource(name string) map[string]any {
	return map[string]any{
		"name":            name,
		"sql":             "SELECT user_id, ts, amount FROM orders WHERE (amount > 0)",
		"timestampColumn": "ts",
		"idTypeMapping":   []any{map[string]any{"serviceUnitID": "userID", "column": "user_id"}},
		"description":     "Orders",
		"tags":            []any{"finance"},
		"customFieldMapping": []any{
			map[string]any{"key": "k", "formula": "amount * 2"},
		},
		"isVerified": true,
		"team":       "payments",
	}
}

func TestMetricSources(t *testing.T) {
	s, c := newClient(t, Config{})
	// dry run persists nothing
	body := validSource("orders")
	body["dryRun"] = true
	r := c.do("POST", "/metrics/metric_source", body)
	expect(t, r, 200)
	if len(s.MetricSourceNames()) != 0 {
		t.Fatal("dry run persisted")
	}
	delete(body, "dryRun")
	r = c.do("POST", "/metrics/metric_source", body)
	expect(t, r, 200)
	d := r.data()
	want := []string{"name", "description", "tags", "sql", "timestampColumn", "timestampAsDay", "idTypeMapping", "sourceType", "tableName"}
	if len(d) != len(want) {
		t.Fatalf("create response fields: %s", r.Raw)
	}
	for _, k := range want {
		if _, ok := d[k]; !ok {
			t.Fatalf("create response lacks %s", k)
		}
	}
	if d["sourceType"] != "query" {
		t.Fatalf("default sourceType %v", d["sourceType"])
	}
	r = c.do("POST", "/metrics/metric_source", body)
	expect(t, r, 400)
	if r.Body["message"] != "Name is already in use" {
		t.Fatalf("dup %v", r.Body["message"])
	}
	r = c.do("GET", "/metrics/metric_source/orders", nil)
	expect(t, r, 200)
	d = r.data()
	for _, k := range []string{"name", "sql", "timestampColumn", "idTypeMapping", "description", "tags", "timestampAsDay", "sourceType", "tableName", "datePartitionColumn", "customFieldMapping", "isReadOnly", "isVerified", "owner", "team", "teamID"} {
		if _, ok := d[k]; !ok {
			t.Fatalf("GET lacks %s: %s", k, r.Raw)
		}
	}
	if d["owner"] != nil || d["teamID"] != nil || d["team"] != "payments" || d["isVerified"] != true {
		t.Fatalf("GET %s", r.Raw)
	}
	expect(t, c.do("GET", "/metrics/metric_source/nope", nil), 404)

	// update
	upd := validSource("orders")
	upd["description"] = "changed"
	upd["sourceType"] = "table"
	upd["tableName"] = "db.orders"
	upd["dryRun"] = true
	expect(t, c.do("POST", "/metrics/metric_source/orders", upd), 200)
	if m, _ := s.MetricSource("orders"); m.Description != "Orders" {
		t.Fatal("update dry run persisted")
	}
	delete(upd, "dryRun")
	r = c.do("POST", "/metrics/metric_source/orders", upd)
	expect(t, r, 200)
	if r.data()["description"] != "changed" || r.data()["tableName"] != "db.orders" {
		t.Fatalf("update %s", r.Raw)
	}
	upd["name"] = "other"
	expect(t, c.do("POST", "/metrics/metric_source/orders", upd), 400)
	expect(t, c.do("POST", "/metrics/metric_source/nope", validSource("nope")), 404)

	// validation
	for mut, want := range map[string]string{
		"name":      "name",
		"sql":       "sql",
		"ts":        "timestampColumn",
		"idmap":     "idTypeMapping",
		"idcol":     "idTypeMapping[0].column",
		"srctype":   "sourceType",
		"table":     "tableName",
		"badsql":    `syntax error at or near "SELEC"`,
		"parens":    "unbalanced parentheses",
		"unknown":   `"bogus"`,
		"wrongtype": "timestampAsDay",
	} {
		b := validSource("v_" + mut)
		switch mut {
		case "name":
			b["name"] = ""
		case "sql":
			b["sql"] = " "
		case "ts":
			delete(b, "timestampColumn")
		case "idmap":
			b["idTypeMapping"] = []any{}
		case "idcol":
			b["idTypeMapping"] = []any{map[string]any{"serviceUnitID": "u"}}
		case "srctype":
			b["sourceType"] = "view"
		case "table":
			b["sourceType"] = "table"
		case "badsql":
			b["sql"] = "  SELEC * FROM x"
		case "parens":
			b["sql"] = "with a as (select 1 select * from a"
		case "unknown":
			b["bogus"] = 1
		case "wrongtype":
			b["timestampAsDay"] = "yes"
		}
		for _, dry := range []bool{true, false} {
			b["dryRun"] = dry
			r := c.do("POST", "/metrics/metric_source", b)
			expect(t, r, 400)
			if !strings.Contains(r.Body["message"].(string), want) {
				t.Errorf("%s: %v lacks %q", mut, r.Body["message"], want)
			}
		}
	}
	if n := s.MetricSourceNames(); len(n) != 1 {
		t.Fatalf("names %v", n)
	}

	// delete
	r = c.do("DELETE", "/metrics/metric_source/orders", nil)
	expect(t, r, 200)
	if string(bytes.TrimSpace(r.Raw)) != `{"message":"Metric source deleted successfully."}` {
		t.Fatalf("delete body %s", r.Raw)
	}
	expect(t, c.do("DELETE", "/metrics/metric_source/orders", nil), 404)

	// accessors
	s.PutMetricSource(MetricSource{Name: "b"})
	s.PutMetricSource(MetricSource{Name: "a", Owner: &Owner{OwnerID: "u1", OwnerType: "USER"}})
	if n := s.MetricSourceNames(); strings.Join(n, ",") != "a,b" {
		t.Fatalf("names %v", n)
	}
	r = c.do("GET", "/metrics/metric_source/a", nil)
	if !strings.Contains(string(r.Raw), `"ownerType":"USER"`) || !strings.Contains(string(r.Raw), `"tags":[]`) {
		t.Fatalf("put source %s", r.Raw)
	}
	s.DeleteMetricSource("a")
	if _, ok := s.MetricSource("a"); ok {
		t.Fatal("not deleted")
	}
}
