// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

func TestReviewDiagnostics(t *testing.T) {
	var diags diag.Diagnostics
	held := &console.ReviewPendingError{Op: "update rules of gate", Object: `"g"`, ReviewID: "rev_9", Message: "Review submitted. Changes will be applied after approval."}
	if !reviewHeld(&diags, held, `Change to the rules of gate "g"`, reviewKeptState) || len(diags) != 1 {
		t.Fatalf("held: %v", diags)
	}
	d := diags[0]
	if d.Summary() != `Change to the rules of gate "g" awaits review` || !strings.Contains(d.Detail(), `review "rev_9"`) ||
		!strings.Contains(d.Detail(), reviewKeptState) || !strings.Contains(d.Detail(), "approved in the console") {
		t.Errorf("diagnostic %q: %q", d.Summary(), d.Detail())
	}
	diags = nil
	if reviewHeld(&diags, errors.New("other"), "x", "") || reviewHeld(&diags, nil, "x", "") || len(diags) != 0 {
		t.Errorf("not held: %v", diags)
	}

	warnPendingReview(&diags, `Gate "g"`, &console.ActiveReview{ReviewID: "rev_9", ReviewStatus: "pending"})
	if len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning || !strings.Contains(diags[0].Detail(), `"rev_9"`) {
		t.Errorf("pending: %v", diags)
	}
	diags = nil
	warnPendingReview(&diags, `Gate "g"`, &console.ActiveReview{ReviewID: "rev_9", ReviewStatus: "approved"})
	if len(diags) != 1 || diags[0].Summary() != `Gate "g" has an approved change waiting to be committed` ||
		!strings.Contains(diags[0].Detail(), `approved (review "rev_9")`) || !strings.Contains(diags[0].Detail(), "the next apply of the same change commits it") {
		t.Errorf("approved: %v", diags)
	}
	diags = nil
	warnPendingReview(&diags, `Gate "g"`, &console.ActiveReview{ReviewID: "rev_9", ReviewStatus: "COMMITTED"})
	warnPendingReview(&diags, `Gate "g"`, nil)
	if len(diags) != 0 {
		t.Errorf("not open: %v", diags)
	}

	// A gate's change held again: said as still awaiting, nothing sent.
	diags = nil
	again := &heldChange{ReviewPendingError: &console.ReviewPendingError{ReviewID: "rev_9"}, again: true}
	if !reviewHeld(&diags, again, `Change to gate "g"`, reviewKeptState) || len(diags) != 1 ||
		diags[0].Summary() != `Change to gate "g" still awaits review` || !strings.Contains(diags[0].Detail(), `review "rev_9"`) ||
		!strings.Contains(diags[0].Detail(), "nothing was sent again") || !strings.Contains(diags[0].Detail(), "the next apply commits it") {
		t.Errorf("again: %v", diags)
	}
}

// The rules of a held change survive a round trip through private state.
func TestPendingRulesPrivateState(t *testing.T) {
	ctx := context.Background()
	p := &memPrivate{}
	rules := []ruleModel{testRule(t, "a", "10"), testRule(t, "b", "33.33")}
	l, d := typesListOfRules(ctx, rules)
	if d.HasError() {
		t.Fatal(d)
	}
	if d := savePendingRules(ctx, p, l); d.HasError() {
		t.Fatal(d)
	}
	got := pendingRules(ctx, p)
	if len(got) != 2 || got[1].Name.ValueString() != "b" || !got[1].PassPercentage.Equal(rules[1].PassPercentage) {
		t.Fatalf("read back %+v", got)
	}
	p.data[pendingRulesKey] = []byte(`"not msgpack"`)
	if got := pendingRules(ctx, p); got != nil {
		t.Errorf("garbage read as %+v", got)
	}
}

type memPrivate struct{ data map[string][]byte }

func (m *memPrivate) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return m.data[key], nil
}

func (m *memPrivate) SetKey(_ context.Context, key string, value []byte) diag.Diagnostics {
	if m.data == nil {
		m.data = map[string][]byte{}
	}
	m.data[key] = value
	return nil
}

func typesListOfRules(ctx context.Context, rules []ruleModel) (types.List, diag.Diagnostics) {
	return types.ListValueFrom(ctx, ruleObjectType, rules)
}

// startCommitMock is a mock whose reviews of a gate's change are committed after approval.
func startCommitMock(t *testing.T) (*mockconsole.Server, string) {
	m, url := startMock(t, mockconsole.Config{})
	m.SetHabits(mergeHabits(m.Habits(), mockconsole.Habits{Reviews: true, ReviewCommits: true}))
	return m, url
}

// stillAwaits is the error of an apply of a change whose review id is still pending.
func stillAwaits(what, id string) *regexp.Regexp {
	return wrapped(what+" still awaits review", fmt.Sprintf(`review %q`, id), "nothing was sent again")
}

// reviewsSettled checks what an apply sent: no write of the gate or its rules (PATCH), commits
// commits of its reviews, and open reviews left open.
func reviewsSettled(m *mockconsole.Server, gateID string, commits, open int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := m.CountRequests(http.MethodPatch, "/gates/"); n != 0 {
			return fmt.Errorf("%d PATCH requests, want none", n)
		}
		if n := m.CountRequests(http.MethodPut, "/gates/"+gateID+"/reviews/"); n != commits {
			return fmt.Errorf("%d commits, want %d", n, commits)
		}
		if n := len(m.PendingReviews()); n != open {
			return fmt.Errorf("%d open reviews, want %d", n, open)
		}
		return nil
	}
}

// approveOnly approves every pending review; with a commit step nothing is applied yet.
func approveOnly(t *testing.T, m *mockconsole.Server) func() {
	return func() {
		if err := m.ApproveAllReviews(); err != nil {
			t.Error(err)
		}
		m.ResetRequests()
	}
}

// A change of a gate's rules held for review, on create and on update: applying it again while the
// review is pending submits nothing and says so with the id; once approved, the next apply commits
// the review (one commit, no second write) and the plan after it is empty.
func TestAccReviews_rulesCommittedOnce(t *testing.T) {
	t.Parallel()
	m, url := startCommitMock(t)
	config := func(rules string) string {
		return strings.Replace(gateRulesConfig(url, "dark_mode", rules), "write_limit = 0", "write_limit = 0\n  respect_review_settings = true", 1)
	}
	v1 := config(ruleHCL("everyone", "10"))
	v2 := config(ruleHCL("everyone", "20", `environments = ["production"]`))
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             checkGateHasNoRules(m, "dark_mode"),
		Steps: []resource.TestStep{
			{Config: v1, ExpectError: wrapped(`Change to the rules of gate "dark_mode" awaits review`, `review "rev_1"`)},
			{PreConfig: m.ResetRequests, Config: v1, ExpectError: stillAwaits(`Change to the rules of gate "dark_mode"`, "rev_1")},
			{
				// The create held before is recognised by the gate's open review: committed, not sent again.
				PreConfig: func() {
					if err := reviewsSettled(m, "dark_mode", 0, 1)(nil); err != nil {
						t.Error("applying a pending change again: ", err)
					}
					approveOnly(t, m)()
				},
				Config: v1,
				Check: resource.ComposeTestCheckFunc(reviewsSettled(m, "dark_mode", 1, 0),
					checkMockRules(m, "dark_mode", `everyone|10|null|[]|{}`)),
			},
			{PreConfig: m.ResetRequests, Config: v2, ExpectError: wrapped(`Change to the rules of gate "dark_mode" awaits review`, `review "rev_2"`)},
			{PreConfig: m.ResetRequests, Config: v2, ExpectError: stillAwaits(`Change to the rules of gate "dark_mode"`, "rev_2")},
			{
				PreConfig: func() {
					if err := reviewsSettled(m, "dark_mode", 0, 1)(nil); err != nil {
						t.Error("applying a pending change again: ", err)
					}
					approveOnly(t, m)()
				},
				Config: v2,
				Check: resource.ComposeTestCheckFunc(reviewsSettled(m, "dark_mode", 1, 0),
					checkMockRules(m, "dark_mode", `everyone|20|["production"]|[]|{}`)),
			},
			{
				// Destroy held for review keeps today's form: approved and committed in the console, it is done.
				Config: v2, Destroy: true, ExpectError: wrapped(`Removal of the rules of gate "dark_mode" awaits review`),
			},
			{
				PreConfig: func() {
					if err := m.ApproveAndCommitAllReviews(); err != nil {
						t.Error(err)
					}
				},
				Config: v2, Destroy: true,
			},
		},
	})
}

// The same for a change of the gate's own fields.
func TestAccReviews_gateCommittedOnce(t *testing.T) {
	t.Parallel()
	m, url := startCommitMock(t)
	provider := providerBlock(url, `respect_review_settings = true`)
	changed := provider + gateConfig(`description = "second"`)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockGate(m, "tfacc_checkout"),
		Steps: []resource.TestStep{
			{Config: provider + gateConfig(`description = "first"`)},
			{Config: changed, ExpectError: wrapped(`Change to gate "tfacc_checkout" awaits review`, `review "rev_1"`)},
			{PreConfig: m.ResetRequests, Config: changed, ExpectError: stillAwaits(`Change to gate "tfacc_checkout"`, "rev_1")},
			{
				PreConfig: func() {
					if err := reviewsSettled(m, "tfacc_checkout", 0, 1)(nil); err != nil {
						t.Error("applying a pending change again: ", err)
					}
					if g, _ := m.Gate("tfacc_checkout"); g.Description != "first" {
						t.Errorf("a held change was applied: %+v", g)
					}
					approveOnly(t, m)()
				},
				Config: changed,
				Check: resource.ComposeTestCheckFunc(reviewsSettled(m, "tfacc_checkout", 1, 0),
					resource.TestCheckResourceAttr(gateAddr, "description", "second"),
					func(*terraform.State) error {
						if g, _ := m.Gate("tfacc_checkout"); g.Description != "second" || m.ReviewStatus("rev_1") != "committed" {
							return fmt.Errorf("after the commit: %+v, review %s", g, m.ReviewStatus("rev_1"))
						}
						return nil
					}),
			},
		},
	})
}

// Rejected, a different change while one is pending, and a commit in the console, as the CLI shows
// them: a rejected review is said and the change submitted as a new review; a different change is
// submitted and the open review named; once a reviewer commits in the console, the plan is empty and
// apply sends nothing.
func TestAccReviews_rejectedAndCommittedInConsole(t *testing.T) {
	t.Parallel()
	m, url := startCommitMock(t)
	cli := newTFCLI(t)
	write := func(desc string) {
		cli.write("main.tf", providerBlock(url, `respect_review_settings = true`)+gateConfig(fmt.Sprintf("description = %q", desc)))
	}
	apply := func(code int) string {
		_, out := cli.run([]int{code}, "apply", "-input=false", "-no-color", "-auto-approve")
		return strings.Join(strings.Fields(out), " ")
	}
	contains := func(step, out string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", step, w, out)
			}
		}
	}
	write("first")
	cli.must("init", "-input=false", "-no-color")
	apply(0)

	write("second")
	contains("held", apply(1), `Change to gate "tfacc_checkout" awaits review`, `review "rev_1"`)
	_, out := cli.run([]int{2}, "plan", "-input=false", "-no-color", "-detailed-exitcode")
	contains("plan while pending", strings.Join(strings.Fields(out), " "), `has a change waiting for review (review "rev_1")`)

	if err := m.RejectReview("rev_1"); err != nil {
		t.Fatal(err)
	}
	m.ResetRequests()
	contains("rejected", apply(1), `Change to gate "tfacc_checkout": review "rev_1" was rejected`,
		"submits the change again, as a new review", `Change to gate "tfacc_checkout" awaits review`, `review "rev_2"`)
	if n := m.CountRequests(http.MethodPatch, "/gates/"); n != 1 || m.ReviewStatus("rev_2") != "pending" {
		t.Errorf("resubmitted with %d PATCH requests, review rev_2 %q", n, m.ReviewStatus("rev_2"))
	}

	write("third")
	contains("another change", apply(1), `review "rev_2" is open for another change`,
		"the service decides what becomes of the earlier review", `Change to gate "tfacc_checkout" awaits review`, `review "rev_3"`)

	if err := m.ApproveAllReviews(); err != nil {
		t.Fatal(err)
	}
	_, out = cli.run([]int{2}, "plan", "-input=false", "-no-color", "-detailed-exitcode")
	contains("plan when approved", strings.Join(strings.Fields(out), " "), "has an approved change waiting to be committed",
		`review "rev_3"`, "the next apply of the same change commits it")

	if err := m.CommitReview("rev_3"); err != nil {
		t.Fatal(err)
	}
	m.ResetRequests()
	if code, out := cli.run([]int{0, 2}, "plan", "-input=false", "-no-color", "-detailed-exitcode"); code != 0 {
		t.Errorf("committed in the console, the plan is not empty:\n%s", out)
	}
	apply(0)
	for _, r := range m.Requests() {
		if r.Method != http.MethodGet {
			t.Errorf("apply after a commit in the console sent %s %s", r.Method, r.Path)
		}
	}
	if g, _ := m.Gate("tfacc_checkout"); g.Description != "third" {
		t.Errorf("the gate holds %q", g.Description)
	}
	cli.must("destroy", "-input=false", "-no-color", "-auto-approve")
	if err := expectNoMockGate(m, "tfacc_checkout")(nil); err != nil {
		t.Error(err)
	}
}

// A commit whose answer is lost is not an error: the retry the service refuses as committed already
// is recognised by reading the review, and the gate is read instead.
func TestAccReviews_commitAnswerLost(t *testing.T) {
	t.Parallel()
	m, url := startCommitMock(t)
	provider := providerBlock(url, `respect_review_settings = true`, `max_retries = 1`)
	changed := provider + gateConfig(`description = "second"`)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoMockGate(m, "tfacc_checkout"),
		Steps: []resource.TestStep{
			{Config: provider + gateConfig(`description = "first"`)},
			{Config: changed, ExpectError: wrapped(`Change to gate "tfacc_checkout" awaits review`, `review "rev_1"`)},
			{
				PreConfig: func() {
					approveOnly(t, m)()
					m.SetFaults(mockconsole.Faults{LoseWriteEvery: 1})
				},
				Config: changed,
				Check: func(*terraform.State) error {
					m.SetFaults(mockconsole.Faults{})
					if g, _ := m.Gate("tfacc_checkout"); g.Description != "second" || m.CountRequests(http.MethodPatch, "/gates/") != 0 {
						return fmt.Errorf("after a lost commit answer: %+v, %d PATCH requests", g, m.CountRequests(http.MethodPatch, "/gates/"))
					}
					return nil
				},
			},
		},
	})
}
