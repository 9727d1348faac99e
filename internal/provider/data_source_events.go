// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/framework"
)

// NewEventsDataSource is featureconsole_events as the framework serves it; server.go answers its
// usual reads below the framework, and must give the same state.
func NewEventsDataSource() datasource.DataSource {
	return newListDataSource(listDataSourceSpec[eventsModel]{
		typeName: "events",
		description: "Lists the recorded values of one event (`GET /events/{eventName}`), every page unless " +
			"`max_records` stops it, in the order the service returns them. An event with no records gives an empty list and a warning that says so (a misspelled `event_name` finds nothing).",
		filters: map[string]schema.Attribute{
			"event_name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Name of the event, such as `checkout_completed`.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"max_records": schema.Int64Attribute{
				Optional:            true,
				MarkdownDescription: "Stop after this many records (at least 1). Omit to read every record.",
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
		},
		listAttr:        "events",
		listDescription: "The recorded values.",
		item:            eventAttributes(),
		fill: func(ctx context.Context, client *console.Client, opts console.ListOptions, m *eventsModel, diags *diag.Diagnostics) (framework.APIFailure, error) {
			name := m.EventName.ValueString()
			opts.MaxRecords = int(m.MaxRecords.ValueInt64())
			events, err := client.ListEvents(ctx, name, opts)
			m.Events = flattenEvents(events)
			if err == nil && len(events) == 0 {
				diags.AddWarning(noEventsWarning(name))
			}
			return eventsFailure(name), err
		},
	})
}

type eventsModel struct {
	EventName  types.String `tfsdk:"event_name"`
	MaxRecords types.Int64  `tfsdk:"max_records"`
	Events     types.List   `tfsdk:"events"`
}

var eventObjType = framework.DataSourceObjectType(eventAttributes())

// eventAttributes returns the schema of one event; eventObjType (and server.go's encoder) follow it.
func eventAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"timestamp": framework.ComputedText("Milliseconds since the Unix epoch, as a string."),
		"name":      framework.ComputedText("Event name."),
		"source":    framework.ComputedText("Origin of the event."),
		"value":     framework.ComputedText("Value of the event; may be empty."),
		"user_id":   framework.ComputedText("User the event was recorded for."),
		"metadata": schema.MapAttribute{
			Computed:            true,
			ElementType:         types.StringType,
			MarkdownDescription: "Metadata of the event. String values as they are; numbers, booleans, objects and arrays JSON-encoded (`jsondecode` them).",
		},
	}
}

// noEventsWarning is the warning of a read that found no records of the event, here and in
// server.go alike: an empty list says nothing of why, and a misspelled name is the likeliest.
func noEventsWarning(name string) (summary, detail string) {
	return fmt.Sprintf("No records of event %q", name),
		fmt.Sprintf("The service holds no records of event %q in its window of recent records, so events is empty. "+
			"Check event_name against the events your apps log (a misspelled name finds nothing); an event not "+
			"logged recently has no records either.", name)
}

// eventsFailure names a failed read of events, here and in server.go alike.
func eventsFailure(name string) framework.APIFailure {
	return framework.APIFailure{Op: "list", Object: fmt.Sprintf("events %q", name)}
}

func flattenEvents(events []console.Event) types.List {
	vals := make([]attr.Value, len(events))
	for i, e := range events {
		vals[i] = types.ObjectValueMust(eventObjType.AttrTypes, map[string]attr.Value{
			"timestamp": types.StringValue(string(e.Timestamp)),
			"name":      types.StringValue(e.Name),
			"source":    types.StringValue(e.Source),
			"value":     types.StringValue(string(e.Value)),
			"user_id":   types.StringValue(e.UserID),
			"metadata":  flattenMetadata(e.Metadata),
		})
	}
	return types.ListValueMust(eventObjType, vals)
}

// flattenMetadata keeps string values as they are and JSON-encodes every other value.
func flattenMetadata(md map[string]json.RawMessage) types.Map {
	vals := make(map[string]attr.Value, len(md))
	for k, raw := range md {
		vals[k] = types.StringValue(metadataString(raw))
	}
	return types.MapValueMust(types.StringType, vals)
}

func metadataString(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '"' {
		if s, err := strconv.Unquote(string(raw)); err == nil {
			return s
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	return framework.CompactJSON(raw)
}
