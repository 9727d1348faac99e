// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package mockconsole

import (
	"encoding/json"
	"fmt"
	"strconv"
)

const seedEpochMs = int64(1700000000000)

var firstNames = []string{"Ada", "Grace", "Linus", "Margaret", "Ken", "Barbara", "Dennis", "Frances", "Alan", "Radia", "Edsger", "Hedy"}
var lastNames = []string{"Lovelace", "Hopper", "Torvalds", "Hamilton", "Thompson", "Liskov", "Ritchie", "Allen", "Turing", "Perlman", "Dijkstra"}

func num(s string) json.Number { return json.Number(s) }

func (s *Server) seed(eventRecords int) {
	// users
	s.users = make([]User, 0, 250)
	for i := 1; i <= 250; i++ {
		u := User{
			Email:     fmt.Sprintf("user%03d@example.com", i),
			FirstName: firstNames[i%len(firstNames)],
			LastName:  lastNames[i%len(lastNames)],
			Role:      "member",
		}
		if i%10 == 1 {
			u.Role = "admin"
		}
		if i%7 == 0 {
			u.LastName = ""
		}
		s.users = append(s.users, u)
		if i%25 == 0 {
			// A stale member: listed only with include_stale_members=true.
			stale := User{
				Email: fmt.Sprintf("former%03d@example.com", i/25), FirstName: firstNames[(i/25)%len(firstNames)],
				LastName: lastNames[(i/25)%len(lastNames)], Role: "member", Stale: true,
			}
			if i%75 == 0 {
				stale.Role = "admin"
			}
			s.users = append(s.users, stale)
		}
	}

	// segments
	s.segments = map[string]*segmentState{}
	var segs []Segment
	for i := 1; i <= 12; i++ {
		sg := Segment{
			ID:               fmt.Sprintf("segment_%02d", i),
			IsEnabled:        i%4 != 0,
			Description:      fmt.Sprintf("Seeded segment %d", i),
			LastModifierName: "Seed Admin",
			LastModifierID:   "user_admin_1",
			Tags:             []string{},
		}
		sg.Name = sg.ID
		if i%3 == 0 {
			sg.Tags = []string{"seed", "team-" + strconv.Itoa(i%2)}
		}
		if i%2 == 1 {
			sg.Type = "id_list"
			for k := range i * 137 {
				sg.IDs = append(sg.IDs, fmt.Sprintf("seg%02d_user_%d", i, k))
			}
		} else {
			sg.Type = "rule_based"
			sg.Rules = []SegmentRule{{
				ID:             fmt.Sprintf("seg%02d_rule:100:1", i),
				BaseID:         fmt.Sprintf("seg%02d_rule", i),
				Name:           fmt.Sprintf("segment_%02d rule", i),
				PassPercentage: 100,
				Conditions: []Condition{{
					Type: "user_id", Operator: "any", TargetValue: []any{fmt.Sprintf("u%d", i), fmt.Sprintf("u%d", i+1)},
				}},
				ReturnValue: map[string]any{},
			}}
		}
		segs = append(segs, sg)
	}
	// segment_02: a single JSON number as targetValue.
	segs[1].Rules[0].Conditions = []Condition{{Type: "custom_field", Operator: "gt", Field: "age", TargetValue: num("5")}}
	// segment_04: fractional numbers, return value. (Strings and numbers mixed in one list, as rules
	// written in the console hold them, break the document: the tests that prove them put them.)
	segs[3].Rules[0].PassPercentage = 12.5
	segs[3].Rules[0].Conditions = []Condition{
		{Type: "country", Operator: "any", TargetValue: []any{"US", "12.5", "CA", "3"}},
		{Type: "app_version", Operator: "version_gt", TargetValue: []any{"1.2.3"}, CustomID: "stableID"},
	}
	segs[3].Rules[0].ReturnValue = map[string]any{"tier": "gold", "limit": num("10")}
	for _, sg := range segs {
		s.putSegment(sg)
	}

	// events
	s.genEvents = eventRecords
	s.events["signup"] = []Event{
		{Timestamp: strconv.FormatInt(seedEpochMs, 10), Name: "signup", Source: "web", Value: "", UserID: "user_00001", Metadata: map[string]any{}},
		{Timestamp: strconv.FormatInt(seedEpochMs+60000, 10), Name: "signup", Source: "ios", Value: "referral", UserID: "user_00002", Metadata: map[string]any{"campaign": "spring", "step": num("2")}},
		{Timestamp: strconv.FormatInt(seedEpochMs+120000, 10), Name: "signup", Source: "android", Value: "organic", UserID: "user_00003", Metadata: map[string]any{"verified": true, "device": map[string]any{"os": "android", "version": num("14")}}},
	}

	s.seedDynamicConfigs()

	// gates
	s.putGate(Gate{
		ID: "new_checkout", IsEnabled: true, Description: "The new checkout flow", Status: "In Progress",
		LastModifierName: "Seed Admin", LastModifierID: "user_admin_1", Tags: []string{"checkout", "web"},
		Rules: []Rule{
			{
				Name: "employees", PassPercentage: 100,
				Conditions:   []Condition{{Type: "email", Operator: "str_contains_any", TargetValue: []any{"@example.com"}}},
				ReturnValue:  map[string]any{},
				Environments: []string{"production"},
			},
			{
				Name: "beta", PassPercentage: 12.5,
				Conditions:  []Condition{{Type: "custom_field", Operator: "gt", Field: "age", TargetValue: []any{num("18")}}},
				ReturnValue: map[string]any{"color": "blue", "size": num("3")},
			},
		},
	})
	s.putGate(Gate{
		ID: "dark_mode", IsEnabled: true, Description: "Dark mode", Status: "In Progress",
		LastModifierName: "Seed Admin", LastModifierID: "user_admin_1", Tags: []string{"ui"},
	})
	s.putGate(Gate{
		ID: "search_v2", IsEnabled: false, Description: "Second search backend", Status: "In Progress",
		LastModifierName: "Seed Admin", LastModifierID: "user_admin_1", Tags: []string{},
		Rules: []Rule{{
			Name: "internal", PassPercentage: 50,
			Conditions:  []Condition{{Type: "user_id", Operator: "any", TargetValue: []any{"42", "43"}}},
			ReturnValue: map[string]any{},
		}},
	})
	for i := 1; i <= s.seedGates; i++ {
		id := fmt.Sprintf("gate_%03d", i)
		s.gates[id] = &gateState{gate: withGateDefaults(Gate{
			ID: id, IsEnabled: true, Description: "Benchmark gate " + id, Status: "In Progress",
			LastModifierName: "Seed Admin", LastModifierID: "user_admin_1", Rules: []Rule{}, Tags: []string{},
		})}
	}

	// pipelines
	s.putPipeline(Pipeline{
		ID: "pl_web", Name: "Web rollout", CreatorID: "user_admin_1", CreatedTime: seedEpochMs, LastModifierID: "user_admin_1",
		Phases: []Phase{
			{Name: "Canary", TimeIntervalMs: 3600000, RequiredReview: true, Rules: []PipelineRule{{
				Name:         "internal",
				Conditions:   []Condition{{Type: "user_id", Operator: "any", TargetValue: []any{"42"}}},
				Environments: []string{"staging"},
			}}},
			{Name: "General availability", TimeIntervalMs: 86400000, Rules: []PipelineRule{{
				Name:       "everyone",
				Conditions: []Condition{{Type: "public", Operator: "any", TargetValue: []any{}}},
			}}},
		},
	})
	s.putPipeline(Pipeline{
		ID: "pl_mobile", Name: "Mobile rollout", CreatorID: "user_admin_1", CreatedTime: seedEpochMs + 1000, LastModifierID: "user_admin_1",
		Phases: []Phase{{Name: "Beta testers", TimeIntervalMs: 7200000, Rules: []PipelineRule{{
			Name:       "app version",
			Conditions: []Condition{{Type: "app_version", Operator: "any", TargetValue: []any{"3.1.0", "3.2.0"}}},
		}}}},
	})
	s.putPipeline(Pipeline{
		ID: "pl_api", Name: "API rollout", CreatorID: "user_admin_1", CreatedTime: seedEpochMs + 2000, LastModifierID: "user_admin_1",
		Phases: []Phase{},
	})
}

var eventSources = []string{"web", "ios", "android", "server"}
var currencies = []string{"USD", "EUR", "GBP"}

// genCheckoutEvent generates seeded record i of "checkout_completed" on demand.
func genCheckoutEvent(i int) Event {
	cents := 999 + (i*7919)%50000
	md := map[string]any{
		"currency": currencies[i%len(currencies)],
		"items":    json.Number(strconv.Itoa(1 + i%5)),
		"total":    json.Number(fmt.Sprintf("%d.%02d", cents/100, cents%100)),
	}
	if i%4 == 0 {
		md["firstPurchase"] = true
	}
	if i%10 == 3 {
		md["device"] = map[string]any{"os": eventSources[i%3], "build": json.Number(strconv.Itoa(100 + i%50))}
	}
	value := fmt.Sprintf("%d.%02d", cents/100, cents%100)
	if i%9 == 8 {
		value = ""
	}
	return Event{
		Timestamp: strconv.FormatInt(seedEpochMs+int64(i)*1000, 10),
		Name:      checkoutEvent,
		Source:    eventSources[i%len(eventSources)],
		Value:     value,
		UserID:    fmt.Sprintf("user_%05d", 1+(i*31)%997),
		Metadata:  md,
	}
}
