package httpapi

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/schema"
)

// TestObserve: Observe is called once per request with its route, tool,
// status, error code, verdict and byte counts; an unknown tool id never
// reaches the observation.
func TestObserve(t *testing.T) {
	var mu sync.Mutex
	var got []Observation
	h := New(Options{MaxBodyBytes: 1000, Observe: func(r *http.Request, o Observation) {
		mu.Lock()
		got = append(got, o)
		mu.Unlock()
	}})
	eq := schema.Tools()[0]
	rat, _ := schema.Lookup(schema.RationalExpression, "")
	desc := "/v1/tools/" + eq.ID + "/versions/" + eq.Version
	tests := []struct {
		reason, method, path, body string
		want                       Observation
	}{
		{"list", "GET", "/v1/tools", "", Observation{Route: RouteTools, Status: 200}},
		{"descriptor", "GET", desc, "", Observation{Route: RouteDescriptor, Tool: eq.ID, Version: eq.Version, Status: 200}},
		{"valid verdict", "POST", eq.ExecuteURL, `{"source":[1],"claim":[1]}`,
			Observation{Route: RouteExecute, Tool: eq.ID, Version: eq.Version, Status: 200, Verdict: "valid"}},
		{"mismatch verdict", "POST", eq.ExecuteURL, `{"source":[1,1],"claim":[1]}`,
			Observation{Route: RouteExecute, Tool: eq.ID, Version: eq.Version, Status: 200, Verdict: "claim_mismatch"}},
		{"rational verdict with a null reason when valid", "POST", rat.ExecuteURL, `{"expression":"1/2","claimed_value":"1/2","require_canonical":true}`,
			Observation{Route: RouteExecute, Tool: rat.ID, Version: rat.Version, Status: 200, Verdict: "valid"}},
		{"rational mismatch", "POST", rat.ExecuteURL, `{"expression":"1/2","claimed_value":"1/3","require_canonical":true}`,
			Observation{Route: RouteExecute, Tool: rat.ID, Version: rat.Version, Status: 200, Verdict: "value_mismatch"}},
		{"invalid document", "POST", eq.ExecuteURL, `{"source":1}`,
			Observation{Route: RouteExecute, Tool: eq.ID, Version: eq.Version, Status: 400, Code: claimcheck.InvalidInput}},
		{"too large", "POST", eq.ExecuteURL, strings.Repeat(" ", 1001),
			Observation{Route: RouteExecute, Tool: eq.ID, Version: eq.Version, Status: 413, Code: claimcheck.LimitExceeded}},
		{"unknown tool is not echoed", "POST", executeURL("attacker-chosen", "1"), `{}`,
			Observation{Route: RouteExecute, Status: 404, Code: claimcheck.UnknownTool}},
		{"wrong method", "GET", eq.ExecuteURL, "",
			Observation{Route: RouteExecute, Tool: eq.ID, Version: eq.Version, Status: 405, Code: MethodNotAllowed}},
		{"no route", "GET", "/nowhere", "", Observation{Status: 404, Code: NotFound}},
	}
	for _, tc := range tests {
		if tc.reason == "" {
			t.Fatal("every row needs a reason")
		}
		t.Run(tc.reason, func(t *testing.T) {
			mu.Lock()
			got = nil
			mu.Unlock()
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, io.NopCloser(strings.NewReader(tc.body))))
			if len(got) != 1 {
				t.Fatalf("%d observations, want 1", len(got))
			}
			o := got[0]
			if o.Duration <= 0 {
				t.Errorf("duration %v, want > 0", o.Duration)
			}
			if o.ResponseBytes != int64(rec.Body.Len()) {
				t.Errorf("response bytes %d, want %d", o.ResponseBytes, rec.Body.Len())
			}
			switch tc.want.Status {
			case 200, 400:
				if o.BodyBytes != int64(len(tc.body)) {
					t.Errorf("body bytes %d, want %d", o.BodyBytes, len(tc.body))
				}
			case 413: // read up to the cap (the length was not declared)
				if o.BodyBytes < 1000 || o.BodyBytes > 1001 {
					t.Errorf("body bytes %d, want the cap 1000 (+1)", o.BodyBytes)
				}
			default: // refused before the body is read
				if o.BodyBytes != 0 {
					t.Errorf("body bytes %d, want 0", o.BodyBytes)
				}
			}
			o.Duration, o.ResponseBytes, o.BodyBytes = 0, 0, 0
			if o != tc.want {
				t.Errorf("got  %+v\nwant %+v", o, tc.want)
			}
		})
	}
}

// TestObservePanic: a panic is observed as the 500 it is answered with.
func TestObservePanic(t *testing.T) {
	var got []Observation
	h := newHandler(Options{Logger: discardLogger(), Observe: func(_ *http.Request, o Observation) { got = append(got, o) }},
		func(*schema.Tool, []byte) (schema.Output, error) { panic("boom") })
	eq := schema.Tools()[0]
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", eq.ExecuteURL, strings.NewReader(`{}`)))
	if len(got) != 1 || got[0].Status != 500 || got[0].Code != InternalError || got[0].Tool != eq.ID {
		t.Fatalf("observations %+v, want one 500 internal_error of %s", got, eq.ID)
	}
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
