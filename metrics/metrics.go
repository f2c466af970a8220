package metrics

import (
	"net/http"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/claimcheck/claimcheck/httpapi"
)

// Metrics are the collectors of one service.
type Metrics struct {
	requests  *prometheus.CounterVec
	duration  *prometheus.HistogramVec
	inFlight  prometheus.Gauge
	bodyBytes *prometheus.HistogramVec
	verdicts  *prometheus.CounterVec
}

// New creates the collectors and registers them with reg; it panics if one
// is already registered there (as prometheus.MustRegister does).
func New(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "claimcheck_http_requests_total",
			Help: "HTTP requests answered, by route, tool, version and status.",
		}, []string{"route", "tool", "version", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "claimcheck_http_request_duration_seconds",
			Help: "Time from a request's arrival at the handler to the end of its response, by route and tool.",
			// 100 µs to 26 s, ×4: a check takes microseconds to seconds.
			Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10),
		}, []string{"route", "tool"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "claimcheck_http_requests_in_flight",
			Help: "HTTP requests being served.",
		}),
		bodyBytes: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "claimcheck_http_request_body_bytes",
			Help: "Body bytes read per execute request, by tool.",
			// 64 B to 64 MiB, ×4.
			Buckets: prometheus.ExponentialBuckets(64, 4, 11),
		}, []string{"tool"}),
		verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "claimcheck_verdicts_total",
			Help: "Output documents answered, by tool, version and verdict: valid, or the document's reason.",
		}, []string{"tool", "version", "verdict"}),
	}
	reg.MustRegister(m.requests, m.duration, m.inFlight, m.bodyBytes, m.verdicts)
	return m
}

// Observe records one answered request. It has the signature of
// [httpapi.Options.Observe]; r is not used.
func (m *Metrics) Observe(_ *http.Request, o httpapi.Observation) {
	m.requests.WithLabelValues(o.Route, o.Tool, o.Version, strconv.Itoa(o.Status)).Inc()
	m.duration.WithLabelValues(o.Route, o.Tool).Observe(o.Duration.Seconds())
	if o.Route == httpapi.RouteExecute && o.Tool != "" {
		m.bodyBytes.WithLabelValues(o.Tool).Observe(float64(o.BodyBytes))
	}
	if o.Verdict != "" {
		m.verdicts.WithLabelValues(o.Tool, o.Version, o.Verdict).Inc()
	}
}

// InFlight returns h counting its requests in progress.
func (m *Metrics) InFlight(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.inFlight.Inc()
		defer m.inFlight.Dec()
		h.ServeHTTP(w, r)
	})
}
