// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package console

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Statuses of a release pipeline run. COMPLETED and ABORTED are final.
const (
	TriggerInProgress       = "IN_PROGRESS"
	TriggerPaused           = "PAUSED"
	TriggerWaitingForReview = "WAITING_FOR_REVIEW"
	TriggerCompleted        = "COMPLETED"
	TriggerAborted          = "ABORTED"
)

// TriggerStatuses lists every status a run can be in.
var TriggerStatuses = []string{TriggerInProgress, TriggerPaused, TriggerWaitingForReview, TriggerCompleted, TriggerAborted}

// TriggerOperation is one of the six operations on a run (PUT /release_pipeline_triggers/{id}/{op}).
type TriggerOperation string

const (
	TriggerApprove TriggerOperation = "approve"
	TriggerPause   TriggerOperation = "pause"
	TriggerUnpause TriggerOperation = "unpause"
	TriggerSkip    TriggerOperation = "skip"
	TriggerRollout TriggerOperation = "rollout"
	TriggerAbort   TriggerOperation = "abort"
)

// TriggerOperations lists the operations in the order the documentation gives them.
var TriggerOperations = []TriggerOperation{TriggerApprove, TriggerPause, TriggerUnpause, TriggerSkip, TriggerRollout, TriggerAbort}

// ActionType is the type the service records in the run's actions once the operation is done.
func (op TriggerOperation) ActionType() string {
	switch op {
	case TriggerApprove:
		return "APPROVED_FOR"
	case TriggerPause:
		return "PAUSED"
	case TriggerUnpause:
		return "UNPAUSED"
	case TriggerSkip:
		return "SKIPPED"
	case TriggerRollout:
		return "FULL_ROLL_OUT"
	case TriggerAbort:
		return "ABORTED"
	}
	return ""
}

// sendsPhase reports whether the operation carries {"phaseID"}: the service refuses it unless the
// id is the run's current phase, which makes a stale request harmless.
func (op TriggerOperation) sendsPhase() bool {
	switch op {
	case TriggerApprove, TriggerPause, TriggerUnpause, TriggerSkip:
		return true
	}
	return false
}

// TriggerAction is one operation recorded on a run.
type TriggerAction struct {
	Type      string `json:"type"`
	TimeMs    Millis `json:"timeMs"`
	PhaseID   string `json:"phaseID"`
	ActorName string `json:"actorName"`
}

// ReleasePipelineTrigger is one run of a release pipeline for one saved change of a gate.
type ReleasePipelineTrigger struct {
	ID                string `json:"id"`
	ReleasePipelineID string `json:"releasePipelineID"`
	GateID            string `json:"gateID"`
	// DynamicConfigID is set instead of GateID for a run of a dynamic config's change.
	DynamicConfigID     string          `json:"dynamicConfigID"`
	Status              string          `json:"status"`
	CurrentPhase        string          `json:"currentPhase"`
	CurrentPhaseID      string          `json:"currentPhaseID"`
	CurrentPhaseEndTime Millis          `json:"currentPhaseEndTime"`
	CreatedTime         Millis          `json:"createdTime"`
	Actions             []TriggerAction `json:"actions"`
}

// Final reports whether the run can no longer change.
func (t *ReleasePipelineTrigger) Final() bool {
	return t.Status == TriggerCompleted || t.Status == TriggerAborted
}

// CountActions counts recorded actions of the type; a non-empty phaseID must match too.
func (t *ReleasePipelineTrigger) CountActions(actionType, phaseID string) int {
	n := 0
	for _, a := range t.Actions {
		if a.Type == actionType && (phaseID == "" || a.PhaseID == phaseID) {
			n++
		}
	}
	return n
}

// TriggerFilter narrows a listing of runs; the service filters. Empty fields filter nothing.
type TriggerFilter struct {
	ReleasePipelineID string
	GateID            string
	DynamicConfigID   string
	Statuses          []string
}

// releasePipelineTriggers is GET /release_pipeline_triggers and /release_pipeline_triggers/{id};
// errors call a trigger a run, as the console does.
var releasePipelineTriggers = collection[ReleasePipelineTrigger]{path: "/release_pipeline_triggers", one: "release pipeline run", many: "release pipeline runs"}

// ListReleasePipelineTriggers reads every page of GET /release_pipeline_triggers.
func (c *Client) ListReleasePipelineTriggers(ctx context.Context, f TriggerFilter, opts ListOptions) ([]ReleasePipelineTrigger, error) {
	q := url.Values{}
	if f.ReleasePipelineID != "" {
		q.Set("releasePipelineID", f.ReleasePipelineID)
	}
	if f.GateID != "" {
		q.Set("gateID", f.GateID)
	}
	if f.DynamicConfigID != "" {
		q.Set("dynamicConfigID", f.DynamicConfigID)
	}
	for _, s := range f.Statuses {
		q.Add("status", s)
	}
	r := releasePipelineTriggers.listRequest()
	r.query = q
	return listAll[ReleasePipelineTrigger](ctx, c, r, opts)
}

// GetReleasePipelineTrigger reads GET /release_pipeline_triggers/{id}.
func (c *Client) GetReleasePipelineTrigger(ctx context.Context, id string) (*ReleasePipelineTrigger, error) {
	return releasePipelineTriggers.get(ctx, c, id)
}

// TriggerOperationResult is the run after an operation, and whether the answer was lost and the
// operation found in the run's actions instead.
type TriggerOperationResult struct {
	Run       *ReleasePipelineTrigger
	Recovered bool
}

// RunTriggerOperation sends op to the run as last read (its CurrentPhaseID is the phase sent). It
// goes through the same retries and pacing as every write, except that an attempt that may have
// reached the service is never sent again blindly: the run's actions tell whether it landed (an
// action of the operation's type beyond those in run), and only a run that shows neither the
// action nor any other change is sent the operation again.
func (c *Client) RunTriggerOperation(ctx context.Context, run *ReleasePipelineTrigger, op TriggerOperation) (*TriggerOperationResult, error) {
	if op.ActionType() == "" {
		return nil, fmt.Errorf("unknown release pipeline run operation %q", op)
	}
	r := request{
		method:   http.MethodPut,
		path:     releasePipelineTriggers.path + "/" + pathEscape(run.ID) + "/" + string(op),
		op:       string(op) + " release pipeline run",
		object:   strconv.Quote(run.ID),
		noResend: true,
	}
	phaseID := ""
	if op.sendsPhase() {
		phaseID = run.CurrentPhaseID
		r.body = struct {
			PhaseID string `json:"phaseID"`
		}{phaseID}
	}
	before := run.CountActions(op.ActionType(), phaseID)
	for attempt := 0; ; attempt++ {
		got, err := c.sendTriggerOperation(ctx, r)
		if err == nil {
			return &TriggerOperationResult{Run: got}, nil
		}
		var ae *APIError
		var te *TransportError
		isAPI := errors.As(err, &ae)
		// A 400 after a lost answer is the service refusing what it already did.
		maybeLanded := isAPI && (ae.MaybeCommitted || attempt > 0 && ae.StatusCode == http.StatusBadRequest) || errors.As(err, &te)
		if !maybeLanded || ctx.Err() != nil {
			return nil, err
		}
		now, rerr := c.GetReleasePipelineTrigger(ctx, run.ID)
		if rerr != nil {
			return nil, fmt.Errorf("%w\n\nThe operation may have reached the service; reading the run back to find out failed too: %v", err, rerr)
		}
		// Recorded at the phase sent, or (a service that records another phase id) one more of its type.
		if now.CountActions(op.ActionType(), phaseID) > before || phaseID != "" && now.CountActions(op.ActionType(), "") > run.CountActions(op.ActionType(), "") {
			return &TriggerOperationResult{Run: now, Recovered: true}, nil
		}
		if attempt >= c.maxRetries || now.Status != run.Status || now.CurrentPhaseID != run.CurrentPhaseID {
			return nil, fmt.Errorf("%w\n\nThe run does not record the operation; it is now %s at phase %q", err, now.Status, now.CurrentPhase)
		}
		t := time.NewTimer(backoff(c.http.RetryWaitMin, c.http.RetryWaitMax, attempt, nil))
		select {
		case <-ctx.Done():
			t.Stop()
			// An attempt that was sent may yet land: the write is not known to have failed.
			return nil, &CancelledError{Op: r.op, Object: r.object, MaybeCommitted: true, Err: ctx.Err()}
		case <-t.C:
		}
	}
}

// sendTriggerOperation sends one operation; a success without the run (an empty body, or no
// data) is answered by reading the run.
func (c *Client) sendTriggerOperation(ctx context.Context, r request) (*ReleasePipelineTrigger, error) {
	raw, err := c.send(ctx, r)
	if err != nil {
		return nil, err
	}
	var t ReleasePipelineTrigger
	if len(bytes.TrimSpace(raw)) > 0 {
		env := envelope[dataSink]{Data: dataSink{out: &t}}
		if err := decodeEnvelope(r, raw, &env); err != nil {
			return nil, c.redactDecodeError(err)
		}
		if env.Data.seen && t.ID != "" && t.Status != "" {
			return &t, nil
		}
	}
	id, _ := strconv.Unquote(r.object)
	return c.GetReleasePipelineTrigger(ctx, id)
}
