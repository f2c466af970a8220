// Package metrics exports the claimcheck HTTP service's Prometheus metrics,
// with github.com/prometheus/client_golang. [New] registers the collectors;
// [Metrics.Observe] records one request and fits [httpapi.Options.Observe];
// [Metrics.InFlight] counts the requests in progress.
//
// It is a package of its own so that package httpapi stays
// standard-library-only: a program that embeds the handler compiles the
// Prometheus client only if it imports this package.
//
// # Metrics
//
//	claimcheck_http_requests_total{route,tool,version,status}      counter
//	claimcheck_http_request_duration_seconds{route,tool}          histogram
//	claimcheck_http_requests_in_flight                            gauge
//	claimcheck_http_request_body_bytes{tool}                      histogram (execute requests)
//	claimcheck_verdicts_total{tool,version,verdict}                counter
//	claimcheck_batch_lines_total{tool,version,verdict}             counter
//
// route is the route pattern (httpapi.RouteTools, RouteDescriptor or
// RouteExecute or RouteBatch, a route of package service such as /healthz or /mcp, or ""
// for a path with no route), tool and version the served tool (or ""),
// status the response
// status ("0": none was written, the client went away), verdict "valid" or
// the output document's reason (for a batch request's lines also "error",
// a line answered with an error document). Every label has a small, fixed set of
// values: an unknown tool id or a random path never becomes one.
package metrics
