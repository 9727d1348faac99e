// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"net/http"
	"net/url"
)

// Event is one recorded value of an event.
type Event struct {
	Timestamp string         `json:"timestamp"`
	Name      string         `json:"name"`
	Source    string         `json:"source"`
	Value     string         `json:"value"`
	UserID    string         `json:"userID"`
	Metadata  map[string]any `json:"metadata"`
}

// Events: the records of one event, listed only. The records of checkout_completed are generated
// on the fly (seed.go) unless a test set its own; an unknown event lists empty.

// SetEvents replaces the records of an event (overriding generated seed data).
// A nil slice makes the event unknown again (empty listing).
func (s *Server) SetEvents(name string, ev []Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == checkoutEvent {
		s.genEvents = 0
	}
	if ev == nil {
		delete(s.events, name)
		return
	}
	out := make([]Event, len(ev))
	for i, e := range ev {
		if e.Metadata != nil {
			e.Metadata, _ = normJSON(e.Metadata).(map[string]any)
		}
		out[i] = e.clone()
	}
	s.events[name] = out
}

// EventRecords returns a copy of every record of an event, in listing order (the generated
// records of checkout_completed included); an unknown event gives an empty slice.
func (s *Server) EventRecords(name string) []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, record := s.eventRecords(name)
	out := make([]Event, n)
	for i := range out {
		out[i] = record(i)
	}
	return out
}

// eventRecords gives the number of records of an event and a copy of the i-th; s.mu is held.
func (s *Server) eventRecords(name string) (int, func(i int) Event) {
	if evs, ok := s.events[name]; ok {
		return len(evs), func(i int) Event { return evs[i].clone() }
	}
	if name == checkoutEvent && s.genEvents > 0 {
		return s.genEvents, genCheckoutEvent
	}
	return 0, nil
}

func (s *Server) listEvents(r *http.Request, name string) response {
	p, e := s.parsePage(r)
	if e != nil {
		return *e
	}
	n, record := s.eventRecords(name)
	return listed(p, "/events/"+url.PathEscape(name), "Events", n, record)
}

func (e Event) clone() Event {
	if e.Metadata == nil {
		e.Metadata = map[string]any{}
	} else {
		e.Metadata, _ = copyJSON(e.Metadata).(map[string]any) // a map copies to a map
	}
	return e
}
