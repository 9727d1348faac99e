// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
)

// Event is one recorded value of an event.
type Event struct {
	Timestamp FlexString                 `json:"timestamp"`
	Name      string                     `json:"name"`
	Source    string                     `json:"source"`
	Value     FlexString                 `json:"value"`
	UserID    string                     `json:"userID"`
	Metadata  map[string]json.RawMessage `json:"metadata"`
}

// ListEvents reads the recorded values of an event, every page unless opts.MaxRecords stops it.
func (c *Client) ListEvents(ctx context.Context, eventName string, opts ListOptions) ([]Event, error) {
	return listAll[Event](ctx, c, eventsRequest(eventName), opts)
}

// EachEventsPage reads the recorded values of an event like ListEvents, handing each page to fn in
// order instead of collecting them, so that a caller can encode and drop them as they arrive.
func (c *Client) EachEventsPage(ctx context.Context, eventName string, opts ListOptions, fn func([]Event) error) error {
	return eachPage(ctx, c, eventsRequest(eventName), opts, fn)
}

// eventsRequest is GET /events/{name}: the events are listed per name, so errors name the event.
func eventsRequest(eventName string) request {
	return request{method: http.MethodGet, path: "/events/" + pathEscape(eventName), op: "list events", object: strconv.Quote(eventName)}
}

// FlexString accepts a JSON string, or a number or bool rendered as its JSON text; null is "".
// The service documents strings, but timestamps and values have been seen as numbers.
type FlexString string

func (f *FlexString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = FlexString(s)
		return nil
	}
	if string(b) == "null" {
		*f = ""
		return nil
	}
	// Numbers keep their JSON text, even those beyond float64's range.
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return err
	}
	switch v.(type) {
	case json.Number, bool:
		*f = FlexString(bytes.TrimSpace(b))
		return nil
	}
	return &json.UnmarshalTypeError{Value: "object or array", Type: reflect.TypeOf("")}
}
