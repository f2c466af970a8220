package metrics_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/claimcheck/claimcheck/httpapi"
	"github.com/claimcheck/claimcheck/metrics"
)

// New registers the collectors; its Observe method is httpapi's
// observation hook, so a handler of your own can feed them.
func ExampleNew() {
	reg := prometheus.NewRegistry()
	m := metrics.New(reg)
	h := httpapi.New(httpapi.Options{Observe: m.Observe})
	_ = h // serve h, e.g. with httpapi.NewServer

	m.Observe(nil, httpapi.Observation{Route: httpapi.RouteExecute, Tool: "rational-expression-check",
		Version: "1.0.0", Status: 200, Verdict: "valid"})
	families, _ := reg.Gather()
	for _, f := range families {
		if f.GetName() == "claimcheck_verdicts_total" {
			for _, m := range f.GetMetric() {
				var labels []string
				for _, l := range m.GetLabel() {
					labels = append(labels, l.GetName()+"="+l.GetValue())
				}
				fmt.Println(strings.Join(labels, " "), m.GetCounter().GetValue())
			}
		}
	}
	// Output:
	// tool=rational-expression-check verdict=valid version=1.0.0 1
}

// Metrics are one service's collectors: InFlight counts the requests being
// answered, Observe counts each answered one.
func ExampleMetrics() {
	reg := prometheus.NewRegistry()
	m := metrics.New(reg)
	h := m.InFlight(httpapi.New(httpapi.Options{Observe: m.Observe}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/tools", nil))
	families, _ := reg.Gather()
	for _, f := range families {
		if f.GetName() == "claimcheck_http_requests_total" {
			fmt.Println(f.GetName(), len(f.GetMetric()) > 0)
		}
	}
	// Output: claimcheck_http_requests_total true
}
