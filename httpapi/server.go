package httpapi

import (
	"net/http"
	"time"

	"github.com/claimcheck/claimcheck/internal/intake"
)

// Server timeouts and header cap set by [NewServer]. ReadTimeout and
// WriteTimeout leave room for a 64 MiB document on a slow link and for
// checking it (the execute route sets its own read and write deadlines
// from Options.BodyTimeout and Options.WriteTimeout, so its 408 and 503
// answers are delivered whatever these are); a client that sends headers
// slower than ReadHeaderTimeout is dropped (Slowloris). IdleTimeout is
// longer than the 60 s after which common load balancers (AWS ALB, nginx's
// upstream keepalive_timeout) drop an idle backend connection, so the
// balancer, not the server, ends it: a server closing a connection the
// balancer is about to reuse loses that request.
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 60 * time.Second
	WriteTimeout      = 60 * time.Second
	IdleTimeout       = 75 * time.Second
	MaxHeaderBytes    = 64 << 10
)

// NewServer returns an [http.Server] serving h at addr with every timeout
// and the header size capped (the zero http.Server has none). The caller
// starts it (ListenAndServe, or Serve on its own listener) and stops it with
// Shutdown. Its ConnContext puts each connection in its requests' context,
// for the handler of [New] to set a request's read and write deadlines at
// the end of its body with one call instead of two; a caller that sets its
// own ConnContext should call this one from it (a handler served without
// it sets its deadlines through [http.ResponseController]).
func NewServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		// The handler's intake then sets a request's deadlines on the
		// connection itself, once its body is in: one call for two.
		ConnContext: intake.ConnContext,
	}
}
