// Package playground serves a page on which a person tries the claimcheck
// tools and sees why a claim fails: the expression with the zero divisor or
// the offending character marked, the value whose counts differ, the element
// at a discrepancy's or an error's path marked in the input document.
//
// # Routes
//
// [Handler] wraps the HTTP API's handler and takes only these requests:
//
//	GET, HEAD  /                      the page (index.html)
//	GET, HEAD  /playground/{asset}    its stylesheet and scripts
//
// Any other method on those paths is 405 and an unknown asset 404, both with
// a JSON error document as the API writes them; every other request goes to
// the API unchanged.
//
// # Guarantees
//
// The page, its stylesheet and its scripts are embedded in the binary and
// nothing is loaded from anywhere else: every response carries a
// Content-Security-Policy that allows scripts, styles and fetches from the
// page's own origin only, and no inline script or style. The page reads the
// descriptors from GET /v1/tools (their examples preload the forms, their
// execute_url is where a check is posted), so it needs the API at the same
// origin and root path, which is how claimcheck serve mounts both.
//
// # Deep links
//
// The fragment #tool=ID&input=DOCUMENT, DOCUMENT being the input document's
// JSON text encoded with encodeURIComponent, opens that tool with that input
// and checks it on load; the page's Copy link button writes such a link.
//
// The page's logic is in assets/logic.mjs, unit-tested with node --test
// (testdata/logic.test.mjs); the test of this package drives the page in
// headless Chromium.
package playground
