package metrics

import (
	"maps"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

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
	batch     *prometheus.CounterVec
	// The children of the vectors for each set of label values seen so
	// far, so that a request does not hash its labels into the vectors:
	// the sets are few and fixed (see the package documentation), and the
	// vectors keep every child anyway.
	series  cache[seriesKey, *series]
	verdict cache[verdictKey, prometheus.Counter]
	lines   cache[verdictKey, prometheus.Counter]
}

type seriesKey struct {
	route, tool, version string
	status               int
}

// A series holds the children of one request's labels.
type series struct {
	requests  prometheus.Counter
	duration  prometheus.Observer
	bodyBytes prometheus.Observer // nil but for an execute request of a tool
}

type verdictKey struct{ tool, version, verdict string }

// A cache is a map read without locks: an addition copies it.
type cache[K comparable, V any] struct {
	m  atomic.Pointer[map[K]V]
	mu sync.Mutex // held while adding
}

// get returns the value of k, made by mk (once per k) if k is new.
func (c *cache[K, V]) get(k K, mk func(K) V) V {
	if m := c.m.Load(); m != nil {
		if v, ok := (*m)[k]; ok {
			return v
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.m.Load()
	if old != nil {
		if v, ok := (*old)[k]; ok {
			return v
		}
	}
	m := make(map[K]V, 1)
	if old != nil {
		maps.Copy(m, *old)
	}
	v := mk(k)
	m[k] = v
	c.m.Store(&m)
	return v
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
		batch: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "claimcheck_batch_lines_total",
			Help: "Lines of batch requests answered, by tool, version and verdict: valid, the output document's reason, or error for an error document.",
		}, []string{"tool", "version", "verdict"}),
	}
	reg.MustRegister(m.requests, m.duration, m.inFlight, m.bodyBytes, m.verdicts, m.batch)
	return m
}

// Observe records one answered request. It has the signature of
// [httpapi.Options.Observe]; r is not used.
func (m *Metrics) Observe(_ *http.Request, o httpapi.Observation) {
	s := m.series.get(seriesKey{o.Route, o.Tool, o.Version, o.Status}, m.newSeries)
	s.requests.Inc()
	s.duration.Observe(o.Duration.Seconds())
	if s.bodyBytes != nil {
		s.bodyBytes.Observe(float64(o.BodyBytes))
	}
	if o.Verdict != "" {
		m.verdict.get(verdictKey{o.Tool, o.Version, o.Verdict}, m.newVerdict).Inc()
	}
	if o.Batch != nil {
		for _, c := range o.Batch.Verdicts {
			m.lines.get(verdictKey{o.Tool, o.Version, c.Verdict}, m.newLines).Add(float64(c.Count))
		}
	}
}

func (m *Metrics) newLines(k verdictKey) prometheus.Counter {
	return m.batch.WithLabelValues(k.tool, k.version, k.verdict)
}

func (m *Metrics) newSeries(k seriesKey) *series {
	s := &series{
		requests: m.requests.WithLabelValues(k.route, k.tool, k.version, strconv.Itoa(k.status)),
		duration: m.duration.WithLabelValues(k.route, k.tool),
	}
	if k.route == httpapi.RouteExecute && k.tool != "" {
		s.bodyBytes = m.bodyBytes.WithLabelValues(k.tool)
	}
	return s
}

func (m *Metrics) newVerdict(k verdictKey) prometheus.Counter {
	return m.verdicts.WithLabelValues(k.tool, k.version, k.verdict)
}

// InFlight returns h counting its requests in progress.
func (m *Metrics) InFlight(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.inFlight.Inc()
		defer m.inFlight.Dec()
		h.ServeHTTP(w, r)
	})
}
