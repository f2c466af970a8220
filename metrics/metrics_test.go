package metrics_test

import (
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/claimcheck/claimcheck/httpapi"
	"github.com/claimcheck/claimcheck/metrics"
)

// TestObserveConcurrent: Observe keeps the children of each label set in a
// cache that concurrent requests fill; every observation is counted once,
// under its own labels, whichever request made the child.
func TestObserveConcurrent(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := metrics.New(reg)
	obs := []httpapi.Observation{
		{Route: httpapi.RouteExecute, Tool: "multiset-equality-check", Version: "1.0.0", Status: 200, Verdict: "valid", BodyBytes: 10},
		{Route: httpapi.RouteExecute, Tool: "multiset-equality-check", Version: "1.0.0", Status: 200, Verdict: "claim_mismatch", BodyBytes: 10},
		{Route: httpapi.RouteExecute, Tool: "multiset-equality-check", Version: "1.0.0", Status: 400},
		{Route: "/healthz", Status: 200},
	}
	const goroutines, each = 8, 500
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				m.Observe(nil, obs[(g+i)%len(obs)])
			}
		})
	}
	wg.Wait()
	const per = goroutines * each / 4
	reqs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	counts, series := map[string]float64{}, map[string]int{}
	for _, f := range reqs {
		series[f.GetName()] = len(f.GetMetric())
		for _, mt := range f.GetMetric() {
			key := f.GetName()
			for _, l := range mt.GetLabel() {
				key += " " + l.GetName() + "=" + l.GetValue()
			}
			switch {
			case mt.Counter != nil:
				counts[key] = mt.GetCounter().GetValue()
			case mt.Histogram != nil:
				counts[key] = float64(mt.GetHistogram().GetSampleCount())
			}
		}
	}
	for key, want := range map[string]float64{
		"claimcheck_http_requests_total route=/v1/tools/{id}/versions/{version}/execute status=200 tool=multiset-equality-check version=1.0.0": 2 * per,
		"claimcheck_http_requests_total route=/v1/tools/{id}/versions/{version}/execute status=400 tool=multiset-equality-check version=1.0.0": per,
		"claimcheck_http_requests_total route=/healthz status=200 tool= version=":                                                              per,
		"claimcheck_verdicts_total tool=multiset-equality-check verdict=valid version=1.0.0":                                                   per,
		"claimcheck_verdicts_total tool=multiset-equality-check verdict=claim_mismatch version=1.0.0":                                          per,
		"claimcheck_http_request_body_bytes tool=multiset-equality-check":                                                                      3 * per,
		"claimcheck_http_request_duration_seconds route=/healthz tool=":                                                                        per,
	} {
		if counts[key] != want {
			t.Errorf("%s: %v, want %v", key, counts[key], want)
		}
	}
	if n := series["claimcheck_http_requests_total"]; n != 3 {
		t.Errorf("%d request series, want 3", n)
	}
}
