// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
)

// frameworkServer is what the framework's server implements, optional RPC groups included, so that
// the wrapper hides none of them from tf6server.
type frameworkServer interface {
	tfprotov6.ProviderServer
	tfprotov6.ListResourceServer
	tfprotov6.ActionServer
	tfprotov6.StateStoreServer
}

const eventsTypeName = "featureconsole_events"

// eventsServer delegates every RPC to the framework but ReadDataSource of featureconsole_events.
// Through the framework, 100,000 events cost about 1 GB of memory and 16-19 s of CPU (framework
// values, tftypes, state.Set, a copy for semantic equality, then msgpack); here each page is encoded
// to msgpack as it arrives and dropped (see BENCHMARKS.md). Whatever this path does not expect goes
// to the framework, whose answer it must match byte for byte (server_test.go).
type eventsServer struct {
	frameworkServer
	configured *atomic.Pointer[providerData]
}

// fastEventsReadHook, when set (by tests), is called with the client's base URL each time the
// events data source is answered below the framework.
var fastEventsReadHook func(baseURL string)

func (s *eventsServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	if req != nil && req.TypeName == eventsTypeName {
		if resp := s.readEvents(ctx, req); resp != nil {
			if fastEventsReadHook != nil {
				fastEventsReadHook(s.configured.Load().client.BaseURL())
			}
			return resp, nil
		}
	}
	return s.frameworkServer.ReadDataSource(ctx, req)
}

// eventsStateType is the Terraform type of the events data source's schema (asserted in a test).
var eventsStateType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"event_name":  tftypes.String,
	"max_records": tftypes.Number,
	"events": tftypes.List{ElementType: tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"timestamp": tftypes.String,
		"name":      tftypes.String,
		"source":    tftypes.String,
		"value":     tftypes.String,
		"user_id":   tftypes.String,
		"metadata":  tftypes.Map{ElementType: tftypes.String},
	}}},
}}

// readEvents answers the read, or returns nil to leave it to the framework.
func (s *eventsServer) readEvents(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) *tfprotov6.ReadDataSourceResponse {
	data := s.configured.Load()
	if data == nil || data.client == nil || req.Config == nil || !nullProviderMeta(req.ProviderMeta) ||
		(req.ClientCapabilities != nil && req.ClientCapabilities.DeferralAllowed) {
		return nil
	}
	name, maxRecords, ok := eventsConfig(req.Config)
	if !ok {
		return nil
	}

	enc := newEventsEncoder(name, maxRecords)
	err := data.client.EachEventsPage(ctx, name, console.ListOptions{
		MaxRecords:  int(maxRecords),
		Concurrency: data.readConcurrency,
	}, enc.page)
	if err != nil {
		// As the framework answers a failed Read: the configuration as the state, and the error.
		failure := eventsFailure(name)
		cfg, cerr := req.Config.Unmarshal(eventsStateType)
		if cerr != nil {
			return nil
		}
		st, cerr := tfprotov6.NewDynamicValue(eventsStateType, cfg)
		if cerr != nil {
			return nil
		}
		return &tfprotov6.ReadDataSourceResponse{
			State: &st,
			Diagnostics: []*tfprotov6.Diagnostic{{
				Severity: tfprotov6.DiagnosticSeverityError,
				Summary:  failure.Summary(),
				Detail:   failure.Detail(ctx, nil, err),
			}},
		}
	}
	state, err := enc.finish()
	if err != nil {
		return nil
	}
	resp := &tfprotov6.ReadDataSourceResponse{State: &tfprotov6.DynamicValue{MsgPack: state}}
	if enc.count == 0 {
		summary, detail := noEventsWarning(name)
		resp.Diagnostics = []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityWarning, Summary: summary, Detail: detail}}
	}
	return resp
}

// nullProviderMeta reports whether no provider_meta was sent: the provider declares no meta schema.
func nullProviderMeta(v *tfprotov6.DynamicValue) bool {
	if v == nil || (len(v.MsgPack) == 0 && len(v.JSON) == 0) {
		return true
	}
	return len(v.JSON) == 0 && bytes.Equal(v.MsgPack, []byte{0xc0})
}

// eventsConfig reads event_name and max_records (0 when null) from a wholly known configuration.
func eventsConfig(dv *tfprotov6.DynamicValue) (name string, maxRecords int64, ok bool) {
	cfg, err := dv.Unmarshal(eventsStateType)
	if err != nil || !cfg.IsFullyKnown() || cfg.IsNull() {
		return "", 0, false
	}
	var attrs map[string]tftypes.Value
	if cfg.As(&attrs) != nil {
		return "", 0, false
	}
	if attrs["event_name"].IsNull() || attrs["event_name"].As(&name) != nil || !attrs["events"].IsNull() {
		return "", 0, false
	}
	if mr := attrs["max_records"]; !mr.IsNull() {
		var n big.Float
		if mr.As(&n) != nil {
			return "", 0, false
		}
		i, acc := n.Int64()
		if acc != big.Exact || i < 1 {
			return "", 0, false
		}
		maxRecords = i
	}
	return name, maxRecords, true
}

// eventsEncoder writes the msgpack of the state as tftypes.Value.MarshalMsgPack does: an object is a
// map of its attributes in sorted order (event_name, events, max_records), a null is nil, an integral
// number the smallest int. Maps are written with sorted keys, where tftypes follows Go's map order.
// The list's length is known only at the end, so room is kept in front of the events for the head.
type eventsEncoder struct {
	buf        bytes.Buffer
	enc        *msgpack.Encoder
	name       string
	maxRecords int64
	reserved   int // bytes kept in front for the head
	count      int
	keys       []string
}

func newEventsEncoder(name string, maxRecords int64) *eventsEncoder {
	e := &eventsEncoder{name: name, maxRecords: maxRecords}
	e.enc = msgpack.NewEncoder(&e.buf)
	e.reserved = len(e.head(1 << 20)) // the longest array header
	e.buf.Write(make([]byte, e.reserved))
	return e
}

// head is the start of the state up to the events' array header.
func (e *eventsEncoder) head(count int) []byte {
	var b bytes.Buffer
	enc := msgpack.NewEncoder(&b)
	_ = enc.EncodeMapLen(3)
	_ = enc.EncodeString("event_name")
	_ = enc.EncodeString(e.name)
	_ = enc.EncodeString("events")
	_ = enc.EncodeArrayLen(count)
	return b.Bytes()
}

func (e *eventsEncoder) page(events []console.Event) error {
	enc := e.enc
	for _, ev := range events {
		_ = enc.EncodeMapLen(6)
		_ = enc.EncodeString("metadata")
		_ = enc.EncodeMapLen(len(ev.Metadata))
		e.keys = e.keys[:0]
		for k := range ev.Metadata {
			e.keys = append(e.keys, k)
		}
		slices.Sort(e.keys)
		for _, k := range e.keys {
			_ = enc.EncodeString(k)
			_ = enc.EncodeString(metadataString(ev.Metadata[k]))
		}
		_ = enc.EncodeString("name")
		_ = enc.EncodeString(ev.Name)
		_ = enc.EncodeString("source")
		_ = enc.EncodeString(ev.Source)
		_ = enc.EncodeString("timestamp")
		_ = enc.EncodeString(string(ev.Timestamp))
		_ = enc.EncodeString("user_id")
		_ = enc.EncodeString(ev.UserID)
		_ = enc.EncodeString("value")
		_ = enc.EncodeString(string(ev.Value))
	}
	e.count += len(events)
	return nil // writes to a bytes.Buffer do not fail
}

// finish writes max_records and the head and returns the state.
func (e *eventsEncoder) finish() ([]byte, error) {
	if int64(e.count) > math.MaxUint32 {
		return nil, fmt.Errorf("%d events do not fit a msgpack array", e.count)
	}
	_ = e.enc.EncodeString("max_records")
	if e.maxRecords == 0 {
		_ = e.enc.EncodeNil()
	} else {
		_ = e.enc.EncodeInt(e.maxRecords)
	}
	out := e.buf.Bytes()
	head := e.head(e.count)
	start := e.reserved - len(head)
	copy(out[start:], head)
	return out[start:], nil
}
