package playground

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/claimcheck/claimcheck/internal/httpjson"
)

//go:embed assets/index.html assets/app.css assets/app.mjs assets/logic.mjs assets/icon.svg
var assetFS embed.FS

// CSP is the Content-Security-Policy of every response of [Handler]: the
// page's own origin for scripts, styles and fetches, nothing else, and no
// inline code (the page has none).
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// assetPrefix is the path under which the page's files are served.
const assetPrefix = "/playground/"

type asset struct {
	contentType string
	body        []byte
	etag        string
}

// assets maps a request path to its file, read once at init.
var assets = map[string]*asset{}

func init() {
	for path, f := range map[string]struct{ name, contentType string }{
		"/":                       {"index.html", "text/html; charset=utf-8"},
		assetPrefix + "app.css":   {"app.css", "text/css; charset=utf-8"},
		assetPrefix + "app.mjs":   {"app.mjs", "text/javascript; charset=utf-8"},
		assetPrefix + "logic.mjs": {"logic.mjs", "text/javascript; charset=utf-8"},
		assetPrefix + "icon.svg":  {"icon.svg", "image/svg+xml"},
	} {
		b, err := assetFS.ReadFile("assets/" + f.name)
		if err != nil {
			panic(err) // the embed directive and this table disagree
		}
		sum := sha256.Sum256(b)
		assets[path] = &asset{f.contentType, b, `"` + hex.EncodeToString(sum[:8]) + `"`}
	}
}

// Handler returns a handler that serves the page at GET / and its files
// under /playground/ and passes every other request to api (see the package
// documentation). Responses carry [CSP], X-Content-Type-Options nosniff,
// Referrer-Policy no-referrer and Cache-Control no-cache with an ETag, so a
// browser revalidates and a new binary's page is never stale.
func Handler(api http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p != "/" && !strings.HasPrefix(p, assetPrefix) {
			api.ServeHTTP(w, r)
			return
		}
		hd := w.Header()
		hd.Set("Content-Security-Policy", CSP)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		a := assets[p]
		if a == nil {
			httpjson.WriteError(w, httpjson.NoRoute(r))
			return
		}
		if !httpjson.Allow(w, r, "GET, HEAD") {
			return
		}
		hd.Set("Content-Type", a.contentType)
		hd.Set("Cache-Control", "no-cache")
		hd.Set("ETag", a.etag)
		// ServeContent answers HEAD, Range and If-None-Match.
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
	})
}
