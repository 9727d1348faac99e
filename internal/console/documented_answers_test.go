// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/apidoc"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// Every documented answer read (issue 48): each 2xx example answer of the service's document, for
// every route the client calls, goes through the client's public methods. The real service answers
// as the document's examples do, not always as its schemas say (snake_case results, a message alone
// where the schema has data), so a decoded example must carry the example's facts, not only decode.
// The table is kept by hand; the test fails where it misses a route the client calls: a route the
// client sent whose examples no row fed, a documented route the mock serves that no row names, or a
// method of Client that no row calls.

// documentedCall is one way the client calls one route of the document.
type documentedCall struct {
	// method is the Client method the row calls; as tells rows of one method and route apart.
	method, as string
	// route is the document's operation, without the /console/v1 prefix: "GET /gates/{id}".
	route string
	call  func(ctx context.Context, c *Client) (any, error)
	// readBack is the route the client reads the object back with where an answer carries no data:
	// that route's first example then holds the facts.
	readBack string
	// partial: the example answers part of the object (no name, groups without ids), which the
	// client completes by reading it back: the read's example holds the facts.
	partial bool
	// facts are what the decoded value must hold of the example's data, by path: "id",
	// "rules.0.name", "#" (a list's length); "got=want" where the client's key is not the example's.
	facts []string
	// more checks what facts cannot say.
	more func(t *testing.T, got any)
}

// clientNeedsNoRow are the methods of Client that call no route of the document, and why.
var clientNeedsNoRow = map[string]string{
	"BaseURL":                   "sends nothing",
	"RespectsReviewSettings":    "sends nothing",
	"GetGateReview":             "GET /gates/{id}/reviews/{reviewID}: not in the 2025-10 document (mockconsole/document.go)",
	"CommitGateReview":          "PUT /gates/{id}/reviews/{reviewID}/commit: not in the document",
	"GetDynamicConfigReview":    "GET /dynamic_configs/{id}/reviews/{reviewID}: not in the document",
	"CommitDynamicConfigReview": "PUT /dynamic_configs/{id}/reviews/{reviewID}/commit: not in the document",
	"GetExperimentReview":       "GET /experiments/{id}/reviews/{reviewID}: not in the document",
	"CommitExperimentReview":    "PUT /experiments/{id}/reviews/{reviewID}/commit: not in the document",
}

// mockOnlyRoutes are documented routes the mock serves that the client never calls, and why.
var mockOnlyRoutes = map[string]string{
	"PUT /segments/{id}/archive": "the mock's test API archives a segment as the console does (row 45); the provider never archives one",
}

// collect gathers the pages an Each*Page method hands over.
func collect[T any](each func(fn func([]T) error) error) ([]T, error) {
	var out []T
	err := each(func(page []T) error {
		out = append(out, page...)
		return nil
	})
	return out, err
}

func documentedCalls() []documentedCall {
	none := ListOptions{}
	gateFacts := []string{"id", "name", "status", "idType", "type", "typeReason", "isEnabled", "createdTime"}
	configFacts := []string{"id", "idType", "rules.#", "rules.0.id", "rules.0.baseID", "rules.0.returnValue.key",
		"rules.0.conditions.0.type", "defaultValue.key", "tags.0"}
	segmentFacts := []string{"id", "type", "count", "tags.0", "lastModifierID"}
	pipelineFacts := []string{"id", "name", "createdTime", "phases.#", "phases.0.id", "phases.0.timeIntervalMs",
		"phases.0.rules.0.conditions.0.targetValue.1"}
	runFacts := []string{"id", "releasePipelineID", "status", "gateID", "currentPhaseID", "currentPhaseEndTime",
		"createdTime", "actions.0.type", "actions.0.timeMs"}
	runListFacts := []string{"#", "0.id", "0.status", "0.gateID", "0.actions.0.type", "1.status", "1.dynamicConfigID"}
	sourceFacts := []string{"name", "sql", "timestampColumn", "timestampAsDay", "sourceType", "tableName",
		"idTypeMapping.0.serviceUnitID", "idTypeMapping.0.column", "tags.0"}
	sourceListFacts := []string{"#", "0.name", "0.idTypeMapping.1.serviceUnitID", "0.customFieldMapping.#", "0.timestampAsDay"}
	experimentFacts := []string{"id", "status", "layerID", "groups.#", "groups.0.id", "groups.0.name", "groups.1.size",
		"allocation", "duration", "defaultConfidenceInterval", "tags.0"}
	experimentListFacts := []string{"#", "0.id", "0.name", "0.status", "0.groups.1.id", "0.primaryMetrics.0.name",
		"0.allocation", "1.status", "1.targetingGateID", "1.tags.1"}
	metricFacts := []string{"id", "name", "type", "directionality", "isVerified", "team", "unitTypes.0", "tags.#",
		"metricEvents.#", "metricEvents.0.name", "metricEvents.0.type"}
	// The listing's example holds an id that is not its name's ("___RENAME_FAILED___::composite_sum"
	// named "rename_test_success"), names of spaces, events without a type and a criterion's empty column.
	metricListFacts := []string{"#", "0.id", "0.name", "1.metricEvents.1.name", "2.metricEvents.0.criteria.0.condition",
		"2.metricEvents.0.criteria.0.values.0", "2.tags.0", "3.id", "3.name", "3.metricComponentMetrics.2.name",
		"4.metricEvents.0.criteria.0.column"}
	userFacts := []string{"#", "0.email", "0.role", "2.firstName", "7.lastName"}
	eventFacts := []string{"#", "0.timestamp", "0.name", "0.source", "0.value", "0.userID", "6.value"}
	// The results' figures under the client's keys, from the example's snake_case ones.
	var pulseFacts []string
	for _, list := range []string{"primaryMetrics", "secondaryMetrics"} {
		pulseFacts = append(pulseFacts, list+".#", list+".0.metricID")
		for got, want := range map[string]string{"percentChange": "percent_change", "pValue": "p_value",
			"percentConfidenceIntervalDelta": "percent_confidence_interval_delta", "confidenceIntervalDelta": "confidence_interval_delta",
			"controlMean": "control_mean", "testMean": "test_mean", "controlUnits": "control_units", "testUnits": "test_units",
			"absoluteChange": "value", "percentSequentialTestingConfidenceIntervalDelta": "percent_sequential_testing_confidence_interval_delta"} {
			pulseFacts = append(pulseFacts, list+".0."+got+"="+list+".0."+want)
		}
	}
	slices.Sort(pulseFacts)
	run := &ReleasePipelineTrigger{ID: "trigger_1646560789123", Status: TriggerInProgress, CurrentPhaseID: "phase_123456"}
	operate := func(op TriggerOperation) documentedCall {
		return documentedCall{method: "RunTriggerOperation", route: "PUT /release_pipeline_triggers/{id}/" + string(op),
			call: func(ctx context.Context, c *Client) (any, error) { return c.RunTriggerOperation(ctx, run, op) }}
	}
	moved := func(method, verb string, move func(ctx context.Context, c *Client) (*Experiment, error)) documentedCall {
		return documentedCall{method: method, route: "PUT /experiments/{id}/" + verb, readBack: "GET /experiments/{id}",
			call: func(ctx context.Context, c *Client) (any, error) { return move(ctx, c) }, facts: experimentFacts}
	}
	const exp = "a_experiment"

	return []documentedCall{
		// Gates: read, list, create, update, delete, their rules, archive and unarchive.
		{method: "CheckAccess", route: "GET /gates", call: func(ctx context.Context, c *Client) (any, error) { return nil, c.CheckAccess(ctx) }},
		{method: "EachGatesPage", route: "GET /gates", call: func(ctx context.Context, c *Client) (any, error) {
			return collect(func(fn func([]Gate) error) error { return c.EachGatesPage(ctx, none, fn) })
		}, facts: []string{"#", "0.id", "0.name", "0.status", "0.type", "0.createdTime"}},
		{method: "CreateGate", route: "POST /gates", call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateGate(ctx, GateFields{ID: "a_gate", Name: ptr("A Gate")})
		}, facts: gateFacts},
		{method: "GetGate", route: "GET /gates/{id}", call: func(ctx context.Context, c *Client) (any, error) { return c.GetGate(ctx, "a_gate") },
			facts: gateFacts},
		{method: "UpdateGate", route: "PATCH /gates/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateGate(ctx, "a_gate", GateFields{Description: ptr("d")})
		}, facts: gateFacts},
		{method: "DeleteGate", route: "DELETE /gates/{id}", call: func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteGate(ctx, "a_gate") }},
		{method: "UpdateGateRules", route: "PATCH /gates/{id}/rules", call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateGateRules(ctx, "a_gate", []Rule{{Name: "All Conditions", PassPercentage: 10}})
		}, facts: []string{"id", "status", "rules.#", "rules.0.id", "rules.0.baseID", "rules.0.name", "rules.0.passPercentage",
			"rules.0.conditions.0.targetValue.0", "rules.0.environments.0", "tags.0"}},
		{method: "ArchiveGate", route: "PUT /gates/{id}/archive", call: func(ctx context.Context, c *Client) (any, error) {
			return c.ArchiveGate(ctx, "a_gate", "")
		}, facts: gateFacts},
		{method: "UnarchiveGate", route: "PUT /gates/{id}/unarchive", call: func(ctx context.Context, c *Client) (any, error) {
			return c.UnarchiveGate(ctx, "a_gate", "")
		}, facts: gateFacts},

		// Dynamic configs and their rules, enable and disable, archive and unarchive.
		{method: "EachDynamicConfigsPage", route: "GET /dynamic_configs", call: func(ctx context.Context, c *Client) (any, error) {
			return collect(func(fn func([]DynamicConfig) error) error { return c.EachDynamicConfigsPage(ctx, none, fn) })
		}, facts: []string{"#", "0.id", "0.name", "0.targetApps.0", "0.team", "0.version", "0.createdTime"},
			more: func(t *testing.T, got any) {
				// schema comes as a string holding the schema's text: read as the schema itself.
				if s := string(got.([]DynamicConfig)[0].Schema); !strings.HasPrefix(s, `{"$schema"`) {
					t.Errorf("schema %s", s)
				}
			}},
		{method: "CreateDynamicConfig", route: "POST /dynamic_configs", call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateDynamicConfig(ctx, DynamicConfigFields{ID: "a_dynamic_config", Name: ptr("a dynamic config")})
		}, facts: []string{"id", "name", "idType", "isEnabled", "rules.#", "createdTime"}},
		{method: "GetDynamicConfig", route: "GET /dynamic_configs/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.GetDynamicConfig(ctx, "a_dynamic_config")
		}, facts: configFacts},
		{method: "UpdateDynamicConfig", route: "PATCH /dynamic_configs/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateDynamicConfig(ctx, "a_dynamic_config", DynamicConfigFields{Description: ptr("d")})
		}, facts: configFacts},
		{method: "UpdateDynamicConfigRules", route: "PATCH /dynamic_configs/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateDynamicConfigRules(ctx, "a_dynamic_config", []Rule{{Name: "All Conditions", PassPercentage: 10,
				ReturnValue: json.RawMessage(`{"key":true}`)}})
		}, facts: configFacts},
		{method: "DeleteDynamicConfig", route: "DELETE /dynamic_configs/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.DeleteDynamicConfig(ctx, "a_dynamic_config")
		}},
		// The document gives these four no example.
		{method: "SetDynamicConfigEnabled", route: "PUT /dynamic_configs/{id}/enable", call: func(ctx context.Context, c *Client) (any, error) {
			return c.SetDynamicConfigEnabled(ctx, "a_dynamic_config", true)
		}},
		{method: "SetDynamicConfigEnabled", route: "PUT /dynamic_configs/{id}/disable", call: func(ctx context.Context, c *Client) (any, error) {
			return c.SetDynamicConfigEnabled(ctx, "a_dynamic_config", false)
		}},
		{method: "ArchiveDynamicConfig", route: "PUT /dynamic_configs/{id}/archive", call: func(ctx context.Context, c *Client) (any, error) {
			return c.ArchiveDynamicConfig(ctx, "a_dynamic_config")
		}},
		{method: "UnarchiveDynamicConfig", route: "PUT /dynamic_configs/{id}/unarchive", call: func(ctx context.Context, c *Client) (any, error) {
			return c.UnarchiveDynamicConfig(ctx, "a_dynamic_config")
		}},

		// Segments of both types and their id lists, with the list's metadata.
		{method: "ListSegments", route: "GET /segments", call: func(ctx context.Context, c *Client) (any, error) { return c.ListSegments(ctx, none) },
			facts: []string{"#", "0.id", "0.type", "0.count", "1.id", "1.type", "1.rules.0.name=1.rules.name",
				"1.rules.0.passPercentage=1.rules.passPercentage", "1.rules.0.conditions.0.type=1.rules.conditions.0.type"},
			more: func(t *testing.T, got any) {
				for _, s := range got.([]Segment) {
					segmentRulesAsShown(t, &s)
				}
			}},
		{method: "EachSegmentsPage", route: "GET /segments", call: func(ctx context.Context, c *Client) (any, error) {
			return collect(func(fn func([]Segment) error) error { return c.EachSegmentsPage(ctx, none, fn) })
		}, facts: []string{"#", "0.id", "1.id", "1.rules.0.name=1.rules.name"}},
		{method: "CreateSegment", route: "POST /segments", call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateSegment(ctx, NewSegment{ID: "an_id_list", Type: SegmentIDList})
		}, facts: segmentFacts, more: segmentRulesAsShown},
		{method: "GetSegment", route: "GET /segments/{id}", call: func(ctx context.Context, c *Client) (any, error) { return c.GetSegment(ctx, "an_id_list") },
			facts: segmentFacts, more: segmentRulesAsShown},
		{method: "DeleteSegment", route: "DELETE /segments/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.DeleteSegment(ctx, "an_id_list")
		}},
		{method: "SetSegmentRules", route: "POST /segments/{id}/conditional", readBack: "GET /segments/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.SetSegmentRules(ctx, "a_rule_based_segment", []SegmentRule{{Name: "All Conditions", PassPercentage: 10}})
		}, facts: segmentFacts},
		{method: "SegmentIDList", route: "GET /segments/{id}/id_list", call: func(ctx context.Context, c *Client) (any, error) {
			return c.SegmentIDList(ctx, "small_id_list")
		}, facts: []string{"Name=name", "Count=count", "IDs.#=ids.#", "IDs.0=ids.0"}},
		{method: "SegmentIDs", route: "GET /segments/{id}/id_list", call: func(ctx context.Context, c *Client) (any, error) {
			return c.SegmentIDs(ctx, "small_id_list")
		}, facts: []string{"#=ids.#", "0=ids.0"}},
		{method: "AddSegmentIDs", route: "PATCH /segments/{id}/id_list", call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.AddSegmentIDs(ctx, "small_id_list", []string{"1", "2"})
		}},
		{method: "RemoveSegmentIDs", route: "DELETE /segments/{id}/id_list", call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.RemoveSegmentIDs(ctx, "small_id_list", []string{"1"})
		}},
		{method: "SegmentIDListMetadata", route: "GET /segments/{id}/idlist_metadata", call: func(ctx context.Context, c *Client) (any, error) {
			return c.SegmentIDListMetadata(ctx, "small_id_list")
		}, facts: []string{"currentVersion", "isUpdating"}, more: func(t *testing.T, got any) {
			if v := got.(*IDListMetadata).Version(); v != "3" {
				t.Errorf("version %q", v)
			}
		}},

		// Release pipelines and their runs, and each move of a run.
		{method: "ListReleasePipelines", route: "GET /release_pipelines", call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListReleasePipelines(ctx, none)
		}, facts: []string{"#", "0.id", "0.name", "1.id", "0.phases.0.timeIntervalMs", "1.phases.0.rules.0.conditions.0.targetValue.1"}},
		{method: "EachReleasePipelinesPage", route: "GET /release_pipelines", call: func(ctx context.Context, c *Client) (any, error) {
			return collect(func(fn func([]ReleasePipeline) error) error { return c.EachReleasePipelinesPage(ctx, none, fn) })
		}, facts: []string{"#", "0.id", "1.name"}},
		{method: "CreateReleasePipeline", route: "POST /release_pipelines", call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateReleasePipeline(ctx, ReleasePipelineUpdate{Name: "Pipeline 1"})
		}, facts: pipelineFacts},
		{method: "GetReleasePipeline", route: "GET /release_pipelines/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.GetReleasePipeline(ctx, "45aiIXz4aaAadWtYEetjko")
		}, facts: pipelineFacts},
		{method: "UpdateReleasePipeline", route: "POST /release_pipelines/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateReleasePipeline(ctx, "45aiIXz4aaAadWtYEetjko", ReleasePipelineUpdate{Name: "Pipeline 1"})
		}, facts: pipelineFacts},
		{method: "DeleteReleasePipeline", route: "DELETE /release_pipelines/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.DeleteReleasePipeline(ctx, "45aiIXz4aaAadWtYEetjko")
		}},
		{method: "ListReleasePipelineTriggers", route: "GET /release_pipeline_triggers", call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListReleasePipelineTriggers(ctx, TriggerFilter{ReleasePipelineID: "pipeline_123456"}, none)
		}, facts: runListFacts},
		{method: "ActiveReleasePipelineTriggers", route: "GET /release_pipeline_triggers", call: func(ctx context.Context, c *Client) (any, error) {
			return c.ActiveReleasePipelineTriggers(ctx, "pipeline_123456")
		}, facts: runListFacts},
		{method: "GetReleasePipelineTrigger", route: "GET /release_pipeline_triggers/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.GetReleasePipelineTrigger(ctx, run.ID)
		}, facts: runFacts},
		// The document gives the operations no example.
		operate(TriggerApprove), operate(TriggerPause), operate(TriggerUnpause), operate(TriggerSkip), operate(TriggerRollout), operate(TriggerAbort),

		// Metric sources, dry runs included.
		{method: "CreateMetricSource", route: "POST /metrics/metric_source", call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateMetricSource(ctx, MetricSource{Name: "test_metric_source2", SQL: "SELECT 1", TimestampColumn: "ts"})
		}, facts: sourceFacts},
		{method: "CreateMetricSource", as: "dry run", route: "POST /metrics/metric_source", call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateMetricSource(ctx, MetricSource{Name: "test_metric_source2", SQL: "SELECT 1", TimestampColumn: "ts", DryRun: true})
		}, facts: sourceFacts},
		{method: "GetMetricSource", route: "GET /metrics/metric_source/{name}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.GetMetricSource(ctx, "test_metric_source4")
		}, facts: sourceFacts},
		{method: "UpdateMetricSource", route: "POST /metrics/metric_source/{name}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateMetricSource(ctx, "test_metric_source4", MetricSource{SQL: "SELECT 1", TimestampColumn: "ts"})
		}, facts: sourceFacts},
		{method: "UpdateMetricSource", as: "dry run", route: "POST /metrics/metric_source/{name}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateMetricSource(ctx, "test_metric_source4", MetricSource{SQL: "SELECT 1", TimestampColumn: "ts", DryRun: true})
		}, facts: sourceFacts},
		{method: "DeleteMetricSource", route: "DELETE /metrics/metric_source/{name}", call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.DeleteMetricSource(ctx, "test_metric_source4")
		}},
		{method: "ListMetricSources", route: "GET /metrics/metric_source/list", call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListMetricSources(ctx, none)
		}, facts: sourceListFacts},
		{method: "EachMetricSourcesPage", route: "GET /metrics/metric_source/list", call: func(ctx context.Context, c *Client) (any, error) {
			return collect(func(fn func([]MetricSource) error) error { return c.EachMetricSourcesPage(ctx, none, fn) })
		}, facts: sourceListFacts},

		// Keys, target apps, tags and environments.
		{method: "CreateKey", route: "POST /keys", call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateKey(ctx, KeyWrite{Type: "SERVER", Description: new("web backend"), Environments: []string{"production"}})
		}, facts: []string{"key", "type", "status", "scopes.#", "environments.0", "primaryTargetApp", "secondaryTargetApps.0"}},
		{method: "GetKey", route: "GET /keys/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.GetKey(ctx, "secret-123")
		}, facts: []string{"key", "type", "status", "scopes.#", "environments.0", "primaryTargetApp", "secondaryTargetApps.0"}},
		{method: "UpdateKey", route: "PATCH /keys/{id}", readBack: "GET /keys/{id}", partial: true, call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateKey(ctx, "secret-123", KeyWrite{Environments: []string{"staging"}})
		}, facts: []string{"key", "type", "status", "scopes.#", "environments.0", "primaryTargetApp", "secondaryTargetApps.0"}},
		{method: "RotateKey", route: "PATCH /keys/{id}/rotate", call: func(ctx context.Context, c *Client) (any, error) {
			return c.RotateKey(ctx, "secret-before")
		}, facts: []string{"key", "type", "status", "scopes.#", "environments.0", "primaryTargetApp", "secondaryTargetApps.0"}},
		{method: "DeactivateKey", route: "PATCH /keys/{id}/deactivate", call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.DeactivateKey(ctx, "secret-123")
		}},
		{method: "DeleteKey", route: "DELETE /keys/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.DeleteKey(ctx, "secret-123")
		}},
		{method: "ListKeys", route: "GET /keys", call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListKeys(ctx, KeyFilter{PrimaryTargetApp: "primaryApp"}, none)
		}, facts: []string{"#", "0.key", "1.key", "1.scopes.1"}},
		{method: "EachKeysPage", route: "GET /keys", call: func(ctx context.Context, c *Client) (any, error) {
			return collect(func(fn func([]Key) error) error {
				return c.EachKeysPage(ctx, KeyFilter{Environment: "production"}, none, fn)
			})
		}, facts: []string{"#", "0.key", "1.type"}},
		{method: "FindKey", route: "GET /keys", call: func(ctx context.Context, c *Client) (any, error) {
			return c.FindKey(ctx, Fingerprint("console-123"))
		}, more: func(t *testing.T, got any) {
			if k := got.(*Key); k.Secret != "console-123" || k.Type != "CONSOLE" {
				t.Errorf("FindKey found %v", k)
			}
		}},
		{method: "ListEnvironments", route: "GET /environments", call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListEnvironments(ctx)
		}, more: func(t *testing.T, got any) {
			if envs := got.([]Environment); len(envs) != 3 || envs[2].Name != "production" || !envs[2].IsProduction {
				t.Errorf("environments read: %+v", envs)
			}
		}},
		{method: "CreateTargetApp", route: "POST /target_app", call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateTargetApp(ctx, TargetAppWrite{Name: "Target app 1", Description: "an app"})
		}, more: func(t *testing.T, got any) {
			// The example answers no id, and the listing's example gives none: an app named, without id.
			if a := got.(*TargetApp); a.Name != "Target app 1" || a.ID != "" {
				t.Errorf("created %+v", a)
			}
		}},
		{method: "GetTargetApp", route: "GET /target_app/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.GetTargetApp(ctx, "Example ID")
		}, facts: []string{"id", "name"}},
		{method: "UpdateTargetApp", route: "PATCH /target_app/{id}", readBack: "GET /target_app/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateTargetApp(ctx, "Example ID", TargetAppWrite{Name: "Target app 1"})
		}, facts: []string{"id", "name"}},
		{method: "DeleteTargetApp", route: "DELETE /target_app/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.DeleteTargetApp(ctx, "Example ID")
		}},
		{method: "ListTargetApps", route: "GET /target_app", call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListTargetApps(ctx, none)
		}, facts: []string{"#", "1.name"}},
		{method: "EachTargetAppsPage", route: "GET /target_app", call: func(ctx context.Context, c *Client) (any, error) {
			return collect(func(fn func([]TargetApp) error) error { return c.EachTargetAppsPage(ctx, none, fn) })
		}, facts: []string{"#", "0.name"}},
		{method: "FindTargetApp", route: "GET /target_app", call: func(ctx context.Context, c *Client) (any, error) {
			return c.FindTargetApp(ctx, "Server-apps")
		}, facts: []string{"name=1.name"}},
		{method: "CreateTag", route: "POST /tags", call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateTag(ctx, TagWrite{Name: "my_tag", IsCore: true})
		}, facts: []string{"id", "name", "isCore"}},
		{method: "GetTag", route: "GET /tags/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.GetTag(ctx, "string")
		}, facts: []string{"id", "name", "isCore"}},
		{method: "UpdateTag", route: "PATCH /tags/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateTag(ctx, "string", TagWrite{Name: "a tag"})
		}, facts: []string{"id", "name", "isCore"}},
		{method: "DeleteTag", route: "DELETE /tags/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.DeleteTag(ctx, "string")
		}},
		{method: "ListTags", route: "GET /tags", call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListTags(ctx, none)
		}, facts: []string{"#", "0.id", "0.name", "0.isCore"}},
		{method: "EachTagsPage", route: "GET /tags", call: func(ctx context.Context, c *Client) (any, error) {
			return collect(func(fn func([]Tag) error) error { return c.EachTagsPage(ctx, none, fn) })
		}, facts: []string{"#", "0.name"}},
		{method: "FindTag", route: "GET /tags", call: func(ctx context.Context, c *Client) (any, error) {
			return c.FindTag(ctx, "a tag")
		}, facts: []string{"id=0.id", "isCore=0.isCore"}},
		// TagCarriers reads every listing of tagged objects; the gates' stands for them (their other
		// rows feed the rest).
		{method: "TagCarriers", route: "GET /gates", call: func(ctx context.Context, c *Client) (any, error) {
			return c.TagCarriers(ctx, "no such tag")
		}},

		// Metrics, dry runs included, and their archive moves.
		{method: "CreateMetric", route: "POST /metrics", call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateMetric(ctx, MetricFields{Name: "TestMetricCapi", Type: "sum", MetricEvents: []MetricEvent{{Name: "add_to_cart"}}})
		}, facts: metricFacts},
		{method: "CreateMetric", as: "dry run", route: "POST /metrics", call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateMetric(ctx, MetricFields{Name: "TestMetricCapi", Type: "sum", MetricEvents: []MetricEvent{{Name: "add_to_cart"}}, DryRun: true})
		}, facts: metricFacts},
		{method: "GetMetric", route: "GET /metrics/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.GetMetric(ctx, "TestMetricCapi::sum")
		}, facts: metricFacts},
		{method: "UpdateMetric", route: "POST /metrics/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateMetric(ctx, "TestMetricCapi::sum", MetricFields{Tags: []string{}})
		}, facts: metricFacts},
		{method: "UpdateMetric", as: "dry run", route: "POST /metrics/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateMetric(ctx, "TestMetricCapi::sum", MetricFields{Tags: []string{}, DryRun: true})
		}, facts: metricFacts},
		{method: "DeleteMetric", route: "DELETE /metrics/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.DeleteMetric(ctx, "TestMetricCapi::sum")
		}},
		{method: "ScheduleMetricArchive", route: "PUT /metrics/{id}/schedule_archive", call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.ScheduleMetricArchive(ctx, "TestMetricCapi::sum")
		}},
		{method: "CancelMetricArchive", route: "PUT /metrics/{id}/cancel_archive", call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.CancelMetricArchive(ctx, "TestMetricCapi::sum")
		}},
		{method: "UnarchiveMetric", route: "PUT /metrics/{id}/unarchive", call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.UnarchiveMetric(ctx, "TestMetricCapi::sum")
		}},
		{method: "EachMetricsPage", route: "GET /metrics/list", call: func(ctx context.Context, c *Client) (any, error) {
			return collect(func(fn func([]Metric) error) error { return c.EachMetricsPage(ctx, none, fn) })
		}, facts: metricListFacts},

		// Experiments, their moves and results.
		{method: "ListExperiments", route: "GET /experiments", call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListExperiments(ctx, "", none)
		}, facts: experimentListFacts},
		{method: "EachExperimentsPage", route: "GET /experiments", call: func(ctx context.Context, c *Client) (any, error) {
			return collect(func(fn func([]Experiment) error) error { return c.EachExperimentsPage(ctx, ExperimentActive, none, fn) })
		}, facts: experimentListFacts},
		{method: "CreateExperiment", route: "POST /experiments", call: func(ctx context.Context, c *Client) (any, error) {
			return c.CreateExperiment(ctx, ExperimentFields{ID: exp, Name: ptr(exp)})
		}, facts: []string{"id", "name", "status", "hypothesis", "groups.#", "groups.0.id", "groups.1.parameterValues.assigned_group",
			"primaryMetrics.0.name", "primaryMetrics.0.type", "allocation", "duration", "defaultConfidenceInterval", "targetingGateID"}},
		{method: "GetExperiment", route: "GET /experiments/{id}", call: func(ctx context.Context, c *Client) (any, error) { return c.GetExperiment(ctx, exp) },
			facts: experimentFacts},
		{method: "UpdateExperiment", route: "PATCH /experiments/{id}", readBack: "GET /experiments/{id}", partial: true,
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateExperiment(ctx, exp, ExperimentFields{Hypothesis: ptr("Does 1 or 0 work better?")})
			}, facts: experimentFacts},
		{method: "DeleteExperiment", route: "DELETE /experiments/{id}", call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.DeleteExperiment(ctx, exp)
		}},
		moved("StartExperiment", "start", func(ctx context.Context, c *Client) (*Experiment, error) { return c.StartExperiment(ctx, exp) }),
		moved("MakeExperimentDecision", "make_decision", func(ctx context.Context, c *Client) (*Experiment, error) {
			return c.MakeExperimentDecision(ctx, exp, "4HbgLdfqlIeN3sHkyMG1qC", "Control wins", false)
		}),
		moved("AbandonExperiment", "abandon", func(ctx context.Context, c *Client) (*Experiment, error) {
			return c.AbandonExperiment(ctx, exp, "no traffic")
		}),
		moved("ArchiveExperiment", "archive", func(ctx context.Context, c *Client) (*Experiment, error) { return c.ArchiveExperiment(ctx, exp, "") }),
		moved("UnarchiveExperiment", "unarchive", func(ctx context.Context, c *Client) (*Experiment, error) { return c.UnarchiveExperiment(ctx, exp) }),
		moved("ResetExperiment", "reset", func(ctx context.Context, c *Client) (*Experiment, error) { return c.ResetExperiment(ctx, exp) }),
		// The document gives these two no example.
		{method: "SetExperimentGroupsDisabled", route: "POST /experiments/{id}/disable_groups", call: func(ctx context.Context, c *Client) (any, error) {
			return c.SetExperimentGroupsDisabled(ctx, exp, []string{"Test"}, true)
		}},
		{method: "SetExperimentGroupsDisabled", route: "POST /experiments/{id}/enable_groups", call: func(ctx context.Context, c *Client) (any, error) {
			return c.SetExperimentGroupsDisabled(ctx, exp, []string{"Test"}, false)
		}},
		{method: "GetPulseResults", route: "GET /experiments/{id}/pulse_results", call: func(ctx context.Context, c *Client) (any, error) {
			return c.GetPulseResults(ctx, exp, "4HbgLdfqlIeN3sHkyMG1qC", "test", PulseQuery{Confidence: 95})
		}, facts: pulseFacts, more: func(t *testing.T, got any) {
			res := got.(*PulseResults)
			// No metricName in the example: each metric is known by its metricID's name.
			if n := res.PrimaryMetrics[0].MetricName; n != "Purchase" {
				t.Errorf("primary metric named %q", n)
			}
			if n := res.SecondaryMetrics[0].MetricName; n != "Support Success Rate" {
				t.Errorf("secondary metric named %q", n)
			}
		}},

		// Users and events.
		{method: "ListUsers", route: "GET /users", call: func(ctx context.Context, c *Client) (any, error) { return c.ListUsers(ctx, none) },
			facts: userFacts},
		{method: "ListUsersFiltered", route: "GET /users", call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListUsersFiltered(ctx, UserFilter{IncludeStaleMembers: true}, none)
		}, facts: userFacts},
		{method: "ListEvents", route: "GET /events/{eventName}", call: func(ctx context.Context, c *Client) (any, error) {
			return c.ListEvents(ctx, "add_to_cart", none)
		}, facts: eventFacts},
		{method: "EachEventsPage", route: "GET /events/{eventName}", call: func(ctx context.Context, c *Client) (any, error) {
			return collect(func(fn func([]Event) error) error { return c.EachEventsPage(ctx, "add_to_cart", none, fn) })
		}, facts: eventFacts},
	}
}

// segmentRulesAsShown: a rule-based segment's one rule, shown as an object, is its rule list.
func segmentRulesAsShown(t *testing.T, got any) {
	t.Helper()
	s := got.(*Segment)
	if s.Type == SegmentRuleBased && (len(s.Rules) != 1 || s.Rules[0].Name != "All Conditions" || s.Rules[0].PassPercentage != 10) {
		t.Errorf("rules %+v", s.Rules)
	}
	if s.Type == SegmentIDList && s.Rules != nil {
		t.Errorf("an id list with rules %+v", s.Rules)
	}
}

const docPrefix = "/console/v1"

func TestDocumentedAnswers(t *testing.T) {
	doc := apidoc.MustLoad()
	examples := map[string][]apidoc.Example{}
	for _, ex := range doc.Examples() {
		examples[ex.Route] = append(examples[ex.Route], ex)
	}
	exampleKey := func(ex apidoc.Example) string { return ex.Route + " " + strconv.Itoa(ex.Status) + " " + ex.Name }

	var mu sync.Mutex
	sent := map[string]bool{} // every route the client sent, over the whole test
	fed := map[string]bool{}  // every example answered to the route under test

	calls := documentedCalls()
	for _, dc := range calls {
		route := documentedRoute(dc.route)
		exs := examples[route]
		if len(exs) == 0 {
			continue // nothing documented to feed; the checks below still hold the row to the document
		}
		for _, ex := range exs {
			t.Run(strings.Join(slices.DeleteFunc([]string{dc.method, dc.as, dc.route, ex.Name}, func(s string) bool { return s == "" }), " "), func(t *testing.T) {
				hit := false
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					_, _ = io.Copy(io.Discard, r.Body)
					at := doc.Route(r.Method, r.URL.RequestURI())
					mu.Lock()
					sent[at] = true
					answer := ex
					if at == route {
						fed[exampleKey(ex)], hit = true, true
					} else if others := examples[at]; len(others) > 0 {
						answer = others[0]
					} else {
						answer = apidoc.Example{}
					}
					mu.Unlock()
					if answer.Value == nil {
						t.Errorf("the client sent %s %s, a route the document gives no example answer for", r.Method, r.URL.RequestURI())
						w.WriteHeader(http.StatusNotImplemented)
						return
					}
					body, err := json.Marshal(answer.Value)
					if err != nil {
						t.Errorf("example of %s: %v", at, err)
					}
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(answer.Status)
					_, _ = w.Write(body)
				}))
				defer srv.Close()
				c, err := New(Config{BaseURL: srv.URL, APIKey: testKey, MaxRetries: 0, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				got, err := dc.call(ctx, c)
				if err != nil {
					t.Fatalf("the documented answer fails: %v", err)
				}
				mu.Lock()
				called := hit
				mu.Unlock()
				if !called {
					t.Fatalf("the call never sent %s", route)
				}
				// The facts of the object: the example's data, or where the answer is a message alone,
				// the object read back.
				want := dataOf(ex.Value)
				if (want == nil || dc.partial) && dc.readBack != "" {
					if rb := examples[documentedRoute(dc.readBack)]; len(rb) > 0 {
						want = dataOf(rb[0].Value)
					}
				}
				if len(dc.facts) > 0 && want == nil {
					t.Fatalf("the example carries no data to hold the facts to: %v", ex.Value)
				}
				checkFacts(t, got, want, dc.facts)
				if dc.more != nil {
					dc.more(t, got)
				}
			})
		}
	}

	// Every route the client sent had every one of its examples fed.
	for route := range sent {
		if route == "" {
			t.Errorf("the client sent a request the document has no route for")
			continue
		}
		for _, ex := range examples[route] {
			if !fed[exampleKey(ex)] {
				t.Errorf("the client calls %s, and no row feeds its example %q (%d): add a row", route, ex.Name, ex.Status)
			}
		}
	}

	// Every row names a method of Client and a route of the document; every method of Client that
	// sends a request has a row.
	client := reflect.TypeFor[*Client]()
	rowRoutes := map[string]bool{}
	named := map[string]bool{}
	for _, dc := range calls {
		if _, ok := client.MethodByName(dc.method); !ok {
			t.Errorf("row %s: Client has no method %s", dc.route, dc.method)
		}
		named[dc.method] = true
		rowRoutes[dc.route] = true
		if !documented(doc, documentedRoute(dc.route)) {
			t.Errorf("row %s %s: the document has no such route", dc.method, dc.route)
		}
	}
	for i := range client.NumMethod() {
		m := client.Method(i).Name
		if !named[m] && clientNeedsNoRow[m] == "" {
			t.Errorf("Client.%s has no row: add one for each route it calls (or say in clientNeedsNoRow why it needs none)", m)
		}
	}

	// Every documented route the mock serves is one the client calls, or one it says it never calls.
	for _, route := range mockServedRoutes(t, doc) {
		short := strings.Replace(route, " "+docPrefix, " ", 1)
		switch {
		case rowRoutes[short] && mockOnlyRoutes[short] != "":
			t.Errorf("%s has a row and is in mockOnlyRoutes", short)
		case !rowRoutes[short] && mockOnlyRoutes[short] == "":
			t.Errorf("the mock serves %s, which no row calls: add a row for the client method that calls it, or say in mockOnlyRoutes why none does", short)
		}
	}
}

// documentedRoute is a row's route as Document.Route names it.
func documentedRoute(short string) string {
	method, path, _ := strings.Cut(short, " ")
	return method + " " + docPrefix + path
}

// documented reports whether the document lists route ("GET /console/v1/gates/{id}").
func documented(doc *apidoc.Document, route string) bool {
	method, path, _ := strings.Cut(route, " ")
	item := doc.T.Paths.Value(path)
	return item != nil && item.GetOperation(method) != nil
}

// mockServedRoutes are the document's routes the mock serves: each is asked of the mock with its
// parameters filled in, and served unless the mock answers as it does a path it has no endpoint for
// (404 "Not found: <path>"), a method it does not serve there (405), or a fixed segment of the path
// as an id it does not know (another endpoint's answer).
func mockServedRoutes(t *testing.T, doc *apidoc.Document) []string {
	t.Helper()
	m := mockconsole.New(mockconsole.Config{NoSeed: true, NoIDListLimits: true})
	var out []string
	for _, path := range doc.T.Paths.InMatchingOrder() {
		for method := range doc.T.Paths.Value(path).Operations() {
			target := path
			for strings.Contains(target, "{") {
				i, j := strings.Index(target, "{"), strings.Index(target, "}")
				target = target[:i] + "x" + target[j+1:]
			}
			var body io.Reader
			if method != http.MethodGet {
				body = strings.NewReader("{}")
			}
			req := httptest.NewRequest(method, target, body)
			req.Header.Set("SERVICE-API-KEY", mockconsole.DefaultAPIKey)
			rec := httptest.NewRecorder()
			m.ServeHTTP(rec, req)
			var answer struct {
				Message string `json:"message"`
			}
			_ = json.Unmarshal(rec.Body.Bytes(), &answer)
			if rec.Code == http.StatusMethodNotAllowed || rec.Code == http.StatusNotFound && strings.HasPrefix(answer.Message, "Not found: ") {
				continue
			}
			// A fixed segment taken for an id (GET /experiments/assignment_sources read as the
			// experiment "assignment_sources") is another endpoint's answer.
			if rec.Code == http.StatusNotFound && slices.ContainsFunc(strings.Split(path, "/"), func(seg string) bool {
				return seg != "" && !strings.HasPrefix(seg, "{") && strings.Contains(answer.Message, strconv.Quote(seg))
			}) {
				continue
			}
			out = append(out, method+" "+path)
		}
	}
	slices.Sort(out)
	if len(out) < 20 {
		t.Fatalf("the mock serves only %q of the document: the probe is broken", out)
	}
	return out
}

// dataOf is the data of an example answer, nil for a message alone.
func dataOf(v any) any {
	if m, ok := v.(map[string]any); ok {
		return m["data"]
	}
	return nil
}

// checkFacts holds got, as the client would write it in JSON, to want (an example's data) at each
// fact's path; numbers compare by value.
func checkFacts(t *testing.T, got, want any, facts []string) {
	t.Helper()
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("the decoded value does not encode: %v", err)
	}
	var g any
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(want)
	var w any
	_ = json.Unmarshal(b, &w)
	for _, fact := range facts {
		gp, wp, ok := strings.Cut(fact, "=")
		if !ok {
			wp = gp
		}
		wv, wok := at(w, wp)
		if !wok || wv == nil {
			t.Errorf("the example holds no %s: the fact checks nothing", wp)
			continue
		}
		gv, gok := at(g, gp)
		if !gok || !reflect.DeepEqual(gv, wv) {
			t.Errorf("%s: the client read %v, the example says %v", gp, gv, wv)
		}
	}
}

// at is the value at a dotted path of decoded JSON: keys, list indexes, and "#" for a list's length.
func at(v any, path string) (any, bool) {
	for _, step := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[step]; !ok {
				return nil, false
			}
		case []any:
			if step == "#" {
				v = float64(len(x))
				continue
			}
			i, err := strconv.Atoi(step)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// TestDesignListsExampleDisagreements: DESIGN §7 ("The document") names, one line each, every
// route the client calls whose documented example answer breaks the document's own schema, so that
// a maintainer knows which form the mock's habit ExampleForms plays and why the client reads both.
func TestDesignListsExampleDisagreements(t *testing.T) {
	raw, err := os.ReadFile("../../DESIGN.md")
	if err != nil {
		t.Fatal(err)
	}
	design := string(raw)
	if i := strings.Index(design, "### The document"); i >= 0 {
		design = design[i:]
		if j := strings.Index(design, "\n## "); j >= 0 {
			design = design[:j]
		}
	} else {
		t.Fatal(`DESIGN.md has no section "### The document"`)
	}
	doc := apidoc.MustLoad()
	seen := map[string]bool{}
	for _, dc := range documentedCalls() {
		seen[documentedRoute(dc.route)] = true
	}
	for _, ex := range doc.Examples() {
		if !seen[ex.Route] {
			continue
		}
		method, path, _ := strings.Cut(ex.Route, " ")
		req := httptest.NewRequest(method, exampleTarget(path), nil)
		body, _ := json.Marshal(ex.Value)
		if doc.CheckResponse(req, body, ex.Status, "application/json") == nil {
			continue
		}
		short := method + " " + strings.TrimPrefix(path, "/console/v1")
		if !strings.Contains(design, "`"+short+"`") {
			t.Errorf("DESIGN §7 does not list %s, whose example (%s) breaks the document's schema", short, ex.Name)
		}
	}
}

// exampleTarget fills a route's path parameters with a placeholder id.
func exampleTarget(path string) string {
	for {
		i := strings.Index(path, "{")
		j := strings.Index(path, "}")
		if i < 0 || j < i {
			return path
		}
		path = path[:i] + "x" + path[j+1:]
	}
}
