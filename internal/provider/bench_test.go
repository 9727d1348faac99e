// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

const benchEventRecords = 100_000

// benchEvents are the 100,000 records of checkout_completed the mock serves, decoded by the client's
// types, and the size of their JSON.
func benchEvents(b *testing.B) ([]console.Event, int) {
	b.Helper()
	raw, err := json.Marshal(mockconsole.New(mockconsole.Config{EventRecords: benchEventRecords}).EventRecords("checkout_completed"))
	if err != nil {
		b.Fatal(err)
	}
	var evs []console.Event
	if err := json.Unmarshal(raw, &evs); err != nil {
		b.Fatal(err)
	}
	if len(evs) != benchEventRecords || len(evs[0].Metadata) == 0 {
		b.Fatalf("%d records, metadata %v", len(evs), evs[0].Metadata)
	}
	return evs, len(raw)
}

// eventsState is what the events data source's Read hands back to the framework: its model set
// into a state of the data source's schema.
func eventsState(b *testing.B, events types.List) tfsdk.State {
	ctx := context.Background()
	var sr datasource.SchemaResponse
	NewEventsDataSource().Schema(ctx, datasource.SchemaRequest{}, &sr)
	st := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(sr.Schema.Type().TerraformType(ctx), nil)}
	m := eventsModel{EventName: types.StringValue("checkout_completed"), MaxRecords: types.Int64Null(), Events: events}
	if d := st.Set(ctx, &m); d.HasError() {
		b.Fatal(d)
	}
	return st
}

// BenchmarkFlattenEvents100k: the events data source's work after the client has listed 100,000
// records: flatten them into framework values ("flatten"), and the whole of what follows until the
// response leaves the provider ("read": flatten, set the state, which converts the values to tftypes
// values, and encode that state as msgpack, as the response to Terraform carries it).
func BenchmarkFlattenEvents100k(b *testing.B) {
	evs, _ := benchEvents(b)
	ctx := context.Background()
	b.Run("flatten", func(b *testing.B) {
		for b.Loop() {
			if l := flattenEvents(evs); len(l.Elements()) != benchEventRecords {
				b.Fatal(len(l.Elements()))
			}
		}
		reportRecords(b)
	})
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			st := eventsState(b, flattenEvents(evs))
			if _, err := tfprotov6.NewDynamicValue(st.Schema.Type().TerraformType(ctx), st.Raw); err != nil {
				b.Fatal(err)
			}
		}
		reportRecords(b)
	})
}

func reportRecords(b *testing.B) {
	b.ReportMetric(float64(benchEventRecords)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkEventsLiveHeap100k measures how much live heap each form of 100,000 records holds, in
// multiples of their JSON size: what the provider's peak RSS is made of when the events data source
// reads them (the forms overlap in time while Read and the framework convert one into the next).
func BenchmarkEventsLiveHeap100k(b *testing.B) {
	ctx := context.Background()
	live := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	for b.Loop() {
		base := live()
		evs, jsonSize := benchEvents(b)
		afterEvents := live()
		list := flattenEvents(evs)
		afterList := live()
		st := eventsState(b, list)
		afterState := live()
		dv, err := tfprotov6.NewDynamicValue(st.Schema.Type().TerraformType(ctx), st.Raw)
		if err != nil {
			b.Fatal(err)
		}
		afterMsgpack := live()
		x := float64(jsonSize)
		b.ReportMetric(float64(jsonSize)/1e6, "json-MB")
		b.ReportMetric(float64(afterEvents-base)/x, "events-x")
		b.ReportMetric(float64(afterList-afterEvents)/x, "framework-x")
		b.ReportMetric(float64(afterState-afterList)/x, "tftypes-x")
		b.ReportMetric(float64(afterMsgpack-afterState)/x, "msgpack-x")
		runtime.KeepAlive(evs)
		runtime.KeepAlive(list)
		runtime.KeepAlive(st)
		runtime.KeepAlive(dv)
	}
}
