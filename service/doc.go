// Package service assembles the claimcheck HTTP service that
// "claimcheck serve" runs: the tools API (package httpapi), MCP over
// streamable HTTP (package mcpserver), the OpenAPI document, probes,
// Prometheus metrics (package metrics) and an optional access log, behind
// one http.Handler.
//
// # Routes
//
//	GET  /v1/tools, /v1/tools/...   the tools API (httpapi; JSON, including every error)
//	POST /mcp                       MCP, streamable HTTP, stateless, JSON responses
//	GET  /openapi.json              the OpenAPI 3.1 document of the tools API (httpapi.OpenAPI)
//	GET  /healthz                   200 {"status":"alive"} while the process serves
//	GET  /readyz                    200 {"status":"ready"}; 503 {"status":"shutting_down"} once BeginShutdown is called
//	GET  /metrics                   Prometheus text format (or only Service.Metrics, with Options.SeparateMetrics)
//	GET  /                          the playground page (or Options.Root, when set)
//	GET  /playground/{asset}        the page's stylesheet, scripts and icon
//
// HEAD is served wherever GET is. Any other path is the tools API's, so an
// unknown one is a 404 not_found error document. A wrong method on the
// probes, /openapi.json or /metrics is a 405 method_not_allowed error
// document with an Allow header. /mcp answers every failure, its own or the
// body's, with a JSON-RPC error object in application/json (see
// mcpserver.Server.HTTPHandler).
//
// A request whose Host is a name that is not allowed (Options.AllowedHosts:
// IP addresses and localhost always are) is answered 403 forbidden on every
// route, /mcp excepted, which answers it in MCP's own form (403 too): a
// page whose name was pointed at the server's address (DNS rebinding)
// sends its own name. /mcp also answers 403 to a request whose Origin is
// not an allowed origin (Options.AllowedOrigins: the service's own host,
// loopback and localhost pages always are; no Origin is served), as MCP
// requires.
//
// What is left of the body of an HTTP/1 request refused before its body
// was read whole is drained after the answer, within bounds (at most
// 128 MiB, or twice the body cap, and 5 s), so that a client that writes
// its whole body before reading gets the answer and not a reset.
//
// # Mounting under a prefix
//
// The routes above are relative to where the service is mounted. Under a
// prefix, strip it and say what it is, so that every advertised URL (the
// descriptors' execute_url, the OpenAPI servers) carries it:
//
//	svc := service.New(service.Options{BasePath: "/api"})
//	mux.Handle("/api/", http.StripPrefix("/api", svc))
//
// The page's requests are relative to the page, so /api/ serves a working
// page. "claimcheck serve -base-path /api" does exactly this.
package service
