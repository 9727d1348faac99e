// Copyright (c) The terraform-provider-featureconsole Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/featureconsole/terraform-provider-featureconsole/internal/console"
	"github.com/featureconsole/terraform-provider-featureconsole/internal/mockconsole"
)

// A service that cannot say whether a write is on its way (no idlist_metadata): for a bounded time
// after this provider's write the state's ids are taken as held; after it, the pages are read.
func TestRefreshSegment_metadataUnreadable(t *testing.T) {
	var mu sync.Mutex
	var pages int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/idlist_metadata"):
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"status":404,"message":"Cannot GET"}`))
		case strings.HasSuffix(r.URL.Path, "/id_list"):
			mu.Lock()
			pages++
			mu.Unlock()
			_, _ = w.Write([]byte(`{"message":"ok","data":{"name":"s","count":1,"ids":["old"]},"pagination":{"itemsPerPage":100,"pageNumber":1,"nextPage":null}}`))
		default:
			_, _ = w.Write([]byte(`{"message":"ok","data":{"id":"s","type":"id_list","count":1,"rules":[]}}`))
		}
	}))
	defer srv.Close()
	c, err := console.New(console.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: 0, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	r := &segmentResource{resourceData{data: &providerData{client: c}}}
	held := []string{"a", "b", "c"}

	priv := idListPrivate{WrittenAt: time.Now().Add(-time.Minute).Unix(), Refused: []string{"c"}}
	got, err := refreshSegment(context.Background(), r.data, "s", held, &priv)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.ids, []string{"a", "b"}) || got.Count == nil || *got.Count != 2 || pages != 0 || priv.Refused != nil {
		t.Errorf("a minute after the write: ids %v count %d, %d pages, refused %v; want what was written, taken as held", got.ids, got.Count, pages, priv.Refused)
	}

	priv = idListPrivate{WrittenAt: time.Now().Add(-idListPropagation - time.Minute).Unix()}
	got, err = refreshSegment(context.Background(), r.data, "s", held, &priv)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.ids, []string{"old"}) || pages != 1 || priv.WrittenAt != 0 || priv.Version != "" {
		t.Errorf("long after the write: ids %v, %d pages, private %+v; want the pages read", got.ids, pages, priv)
	}
}

// The version this provider's writes lead to: counted from the list's version before them (or,
// while earlier writes of this provider are on their way, from where those lead), one step per
// write of at most 1,000 ids; a list at that version is taken as what was written (no page read),
// and one past it is read.
func TestSegmentIDListExpectedVersion(t *testing.T) {
	var mu sync.Mutex
	version, updating, pages := "7", false, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/idlist_metadata"):
			_, _ = w.Write([]byte(`{"message":"ok","data":{"currentVersion":` + version + `,"isUpdating":` + map[bool]string{true: "true", false: "false"}[updating] + `}}`))
		case strings.HasSuffix(r.URL.Path, "/id_list"):
			pages++
			_, _ = w.Write([]byte(`{"message":"ok","data":{"name":"s","ids":["a"]},"pagination":{"itemsPerPage":100,"pageNumber":1,"nextPage":null}}`))
		default:
			_, _ = w.Write([]byte(`{"message":"ok","data":{"id":"s","type":"id_list","rules":[]}}`))
		}
	}))
	defer srv.Close()
	c, err := console.New(console.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: 0, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	r := &segmentResource{resourceData{data: &providerData{client: c}}}
	ctx := context.Background()

	if got := idListWrites(2500); got != 3 {
		t.Errorf("2,500 ids take %d writes, want 3", got)
	}
	base, ok := idListBase(ctx, r.data, "s", idListPrivate{})
	if !ok || base != 7 {
		t.Fatalf("base %d, %v; want 7", base, ok)
	}
	// While writes are on their way, the base is where this provider's own lead; someone else's: unknown.
	mu.Lock()
	updating = true
	mu.Unlock()
	if base, ok := idListBase(ctx, r.data, "s", idListPrivate{Expected: "9"}); !ok || base != 9 {
		t.Errorf("on their way, ours: %d, %v; want 9", base, ok)
	}
	if _, ok := idListBase(ctx, r.data, "s", idListPrivate{}); ok {
		t.Error("on their way, not ours: a base was taken")
	}
	priv, onItsWay := afterIDWrite(ctx, r.data, "s", nil, expectedVersion(7, true, 3))
	if !onItsWay || priv.Expected != "10" || priv.WrittenAt == 0 {
		t.Fatalf("after the writes: %+v, on its way %v", priv, onItsWay)
	}

	held := []string{"a", "b"}
	for _, step := range []struct {
		version string
		pages   int
	}{{"10", 0}, {"10", 0}, {"11", 1}} {
		mu.Lock()
		version, updating, pages = step.version, false, 0
		mu.Unlock()
		p := priv
		p.WrittenAt = 1 // long ago: only the version tells
		got, err := refreshSegment(ctx, r.data, "s", held, &p)
		if err != nil {
			t.Fatal(err)
		}
		if pages != step.pages || step.pages == 0 && (!slices.Equal(got.ids, held) || p.Version != "10" || p.Expected != "") {
			t.Errorf("version %s: %d pages, ids %v, private %+v; want %d pages", step.version, pages, got.ids, p, step.pages)
		}
	}
}

// Segments at the service's scale (issue 32).

// noSegmentDeleted checks that no request deleted the segment itself.
func noSegmentDeleted(m *mockconsole.Server, id string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := requestsTo(m, http.MethodDelete, "/segments/"+id); n > 0 {
			return fmt.Errorf("the segment was deleted %d time(s)", n)
		}
		return nil
	}
}

// The cap: an id list of 3,000 ids against a project capped at 2,500 (the service's 10,000, scaled
// down). The create keeps the segment with the 2,000 ids the service took (two writes of 1,000;
// the third is refused whole) and says so; the next plan is an update of the 1,000 ids still to add
// (never a replacement), whose apply fails in words and keeps the segment; once the project has
// Large ID Lists the same apply completes. The segment is never deleted.
func TestAccSegment_idListCap(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{NoIDListLimits: true})
	m.SetIDListCap(2500)
	cfg := providerBlock(url) + idsConfig(0, 3000)
	update := []plancheck.PlanCheck{plancheck.ExpectResourceAction(segIDsAddr, plancheck.ResourceActionUpdate)}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoSegments(m),
		Steps: []resource.TestStep{
			{
				PreConfig:          m.ResetRequests,
				Config:             cfg,
				ExpectNonEmptyPlan: true, // the ids still to add
				ConfigPlanChecks:   resource.ConfigPlanChecks{PostApplyPostRefresh: update},
				Check:              resource.ComposeAggregateTestCheckFunc(expectSegmentIDs(m, "beta_testers", 0, 2000), noSegmentDeleted(m, "beta_testers")),
			},
			{
				PreConfig:        m.ResetRequests,
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: update},
				ExpectError: wrapped(`Segment "beta_testers": the service's id-list limit was reached`, "0 id(s) were written",
					"the segment now holds 2000", "1000 id(s) are still to add", "Large ID Lists must be enabled for the project"),
			},
			{
				// The failed apply kept the segment; the plan is still the update of the 1,000 ids.
				PreConfig: func() { noSegmentDeletedNow(t, m); m.SetLargeIDLists(true); m.ResetRequests() },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             update,
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(expectSegmentIDs(m, "beta_testers", 0, 3000), noSegmentDeleted(m, "beta_testers"),
					func(*terraform.State) error {
						if _, ids := idWrites(m, http.MethodPatch); !slices.Equal(ids, idRange(2000, 3000)) {
							return fmt.Errorf("added %d ids, want the 1,000 still to add", len(ids))
						}
						return nil
					}),
			},
		},
	})
}

func noSegmentDeletedNow(t *testing.T, m *mockconsole.Server) {
	t.Helper()
	if err := noSegmentDeleted(m, "beta_testers")(nil); err != nil {
		t.Error(err)
	}
}

// Late propagation: writes of lists over 1,000 ids take effect later (here: only when the test
// says). A plan right after adding 1,500 ids, and right after removing 300, is empty; entry_count
// follows what was written; once the writes take effect the service holds exactly the ids
// configured and the plan stays empty; a change made in the console while nothing of ours is on
// its way shows.
func TestAccSegment_idListLate(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{NoIDListLimits: true})
	m.SetIDListLag(time.Hour)
	onItsWay := func(want bool) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if got := m.IDListUpdating("beta_testers"); got != want {
				return fmt.Errorf("writes on their way: %v, want %v", got, want)
			}
			return nil
		}
	}
	empty := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoSegments(m),
		Steps: []resource.TestStep{
			{
				Config:            providerBlock(url) + idsConfig(0, 1500),
				ConfigPlanChecks:  empty,
				Check:             onItsWay(true),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(segIDsAddr, tfjsonpath.New("entry_count"), knownvalue.Int64Exact(1500))},
			},
			{
				Config:            providerBlock(url) + idsConfig(300, 1500),
				ConfigPlanChecks:  empty,
				Check:             onItsWay(true),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(segIDsAddr, tfjsonpath.New("entry_count"), knownvalue.Int64Exact(1200))},
			},
			{
				PreConfig: m.SettleIDLists,
				Config:    providerBlock(url) + idsConfig(300, 1500),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(onItsWay(false), expectSegmentIDs(m, "beta_testers", 300, 1500)),
			},
			{
				// A change in the console, nothing of ours on its way: it shows.
				PreConfig: func() {
					sg, _ := m.Segment("beta_testers")
					sg.IDs = append(sg.IDs, "intruder")
					m.PutSegment(sg)
				},
				Config:             providerBlock(url) + idsConfig(300, 1500),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// Big lists stay cheap after late writes: the provider knows the version its own writes lead to
// (one step per write taking effect). Once a create of 1,500 ids (two writes) has taken effect, two
// plans read none of its pages; so too after an update that removes 300 (one more write); a change
// in the console since (a further version) still shows.
func TestAccSegment_idListLateThenCheap(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{NoIDListLimits: true})
	m.SetIDListLag(time.Hour)
	noPages := func() {
		t.Helper()
		if n := requestsTo(m, http.MethodGet, "/segments/beta_testers/id_list"); n > 0 {
			t.Errorf("a plan of an unchanged list after its writes took effect read %d pages, want none", n)
		}
		m.ResetRequests()
	}
	settled := func() { m.SettleIDLists(); m.ResetRequests() }
	created, updated := providerBlock(url)+idsConfig(0, 1500), providerBlock(url)+idsConfig(300, 1500)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoSegments(m),
		Steps: []resource.TestStep{
			{Config: created},
			{PreConfig: settled, Config: created, PlanOnly: true},
			{PreConfig: noPages, Config: created, PlanOnly: true},
			{PreConfig: noPages, Config: updated},
			{PreConfig: settled, Config: updated, PlanOnly: true},
			{PreConfig: noPages, Config: updated, PlanOnly: true},
			{
				PreConfig: func() {
					noPages()
					if sg, _ := m.Segment("beta_testers"); len(sg.IDs) == 1200 {
						m.PutSegment(sg) // a change in the console: the version rises past the one expected
					} else {
						t.Errorf("the mock holds %d ids, want 1200", len(sg.IDs))
					}
				},
				Config:   updated,
				PlanOnly: true,
			},
			{
				PreConfig: func() {
					if n := requestsTo(m, http.MethodGet, "/segments/beta_testers/id_list"); n == 0 {
						t.Error("a version past the one expected (a change in the console) did not read the pages")
					}
					sg, _ := m.Segment("beta_testers")
					sg.IDs = append(sg.IDs, "intruder")
					m.PutSegment(sg)
				},
				Config:             updated,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// Refresh by version: two refreshes of an unchanged 2,000-id segment read none of its pages (two
// requests each: the segment and its version); a change in the console still shows.
func TestAccSegment_idListRefreshByVersion(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{NoIDListLimits: true})
	cfg := providerBlock(url) + idsConfig(0, 2000)
	unread := func() {
		t.Helper()
		pages := requestsTo(m, http.MethodGet, "/segments/beta_testers/id_list")
		reads := requestsTo(m, http.MethodGet, "/segments/beta_testers")
		meta := requestsTo(m, http.MethodGet, "/segments/beta_testers/idlist_metadata")
		if pages > 0 || reads == 0 || meta > reads {
			t.Errorf("refreshes of an unchanged list: %d page reads, %d segment reads, %d version reads; want no pages, a version read per segment read", pages, reads, meta)
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoSegments(m),
		Steps: []resource.TestStep{
			{Config: cfg},
			{PreConfig: m.ResetRequests, Config: cfg, PlanOnly: true},
			{PreConfig: func() { unread(); m.ResetRequests() }, Config: cfg, PlanOnly: true},
			{
				PreConfig: func() {
					unread()
					sg, _ := m.Segment("beta_testers")
					sg.IDs = sg.IDs[1:]
					m.PutSegment(sg)
				},
				Config:             cfg,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// otherReader reads target once as another client of the project would (again when the connection
// is dropped under it: the DropIdle habit).
func otherReader(t *testing.T, target string) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		req, _ := http.NewRequest(http.MethodGet, target, nil)
		req.Header.Set("SERVICE-API-KEY", mockconsole.DefaultAPIKey)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("the other reader's read: %s", resp.Status)
			}
			return
		}
		if attempt == 3 {
			t.Fatalf("the other reader's read: %v", err)
		}
	}
}

// Reads of id lists are rate limited: a read that runs out of time while the service refuses it
// says so in words about reads, not the write limit.
func TestAccSegment_idListReadLimit(t *testing.T) {
	m, url := mockWithoutSegments(t, mockconsole.Config{NoIDListLimits: true})
	cfg := providerBlock(url) + strings.Replace(idsConfig(0, 2000), `type       = "id_list"`, `type       = "id_list"
  timeouts   = { read = "3s" }`, 1)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             expectNoSegments(m),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				// A change in the console: the pages are read, at one a minute, and someone else
				// has just read one (so that a service answering the whole list at once limits too).
				PreConfig: func() {
					m.SetIDListReadLimit(mockconsole.IDLimit{N: 1, Window: time.Minute})
					sg, _ := m.Segment("beta_testers")
					m.PutSegment(sg)
					otherReader(t, url+"/console/v1/segments/beta_testers/id_list?page=1&limit=100")
				},
				Config:      cfg,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)read limit was exhausted.*Nothing was written`),
			},
			{
				PreConfig: func() { m.SetIDListReadLimit() },
				Config:    cfg,
				PlanOnly:  true,
			},
		},
	})
}
