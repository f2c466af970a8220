package playground_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/httpapi"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
	"github.com/claimcheck/claimcheck/internal/playground"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/schema"
	"github.com/claimcheck/claimcheck/service"
)

var (
	shotDir = flag.String("screenshots", "", "write the browser test's screenshots to `dir` (default: a temporary directory)")
	update  = flag.Bool("update", false, "write the screenshot of docs/serving.md, ../../docs/playground.png")
)

// readmeShot is the picture of docs/serving.md: the case of that name, at readmeWidth.
const (
	readmeShot  = "rational-division-by-zero"
	readmeWidth = 1000
)

// TestBrowser drives the page in headless Chromium against the real
// handlers, in-process: for each case it fills a form, checks, waits for the
// verdict and compares what the page drew with what the tool answers
// (schema.Execute, called here), then saves a screenshot. Without a
// Chromium it is skipped, except in CI (CI=true), where it fails.
func TestBrowser(t *testing.T) {
	if !testutil.Long() && !*update && *shotDir == "" {
		// A browser takes seconds to start: the normal run leaves it to the
		// long run, which .ci/run makes with the browser installed.
		t.Skipf("the browser test runs in the long run (%s=1), as CI runs it", testutil.LongEnv)
	}
	exe := findBrowser(t)
	srv := httptest.NewServer(playground.Handler(httpapi.New(httpapi.Options{})))
	t.Cleanup(srv.Close)
	dir := *shotDir
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}

	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(readmeWidth, 700), chromedp.Flag("hide-scrollbars", true))...)
	t.Cleanup(cancelAlloc)
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelBrowser)
	started := time.Now()
	if err := chromedp.Do(bctx); err != nil { // starts the browser, with no deadline
		t.Fatalf("starting %s: %v", exe, err)
	}
	t.Logf("browser started in %v", time.Since(started))
	ctx, cancel := context.WithTimeout(bctx, 90*time.Second)
	t.Cleanup(cancel)
	b := &browser{ctx: ctx, base: srv.URL, dir: dir}
	if err := chromedp.Listen(ctx, b.record); err != nil {
		t.Fatal(err)
	}
	b.open(t, "/")
	t.Logf("page open after %v; screenshots in %s", time.Since(started), dir)

	t.Run("page", func(t *testing.T) {
		unlabelled := run(t, ctx, chromedp.Evaluate[[]string](
			`[...document.querySelectorAll("input, select, textarea")].filter((e) => e.labels.length === 0).map((e) => e.id)`))
		if len(unlabelled) != 0 {
			t.Errorf("fields without a label: %q", unlabelled)
		}
		// The tabs work from the keyboard: arrows move between them.
		do(t, ctx, chromedp.Focus(chromedp.ID("tab-rational")), chromedp.KeyEvent(kb.ArrowRight))
		if got := run(t, ctx, chromedp.Evaluate[string](`document.activeElement.id + " " + !document.getElementById("panel-equality").hidden`)); got != "tab-equality true" {
			t.Errorf("after ArrowRight on the first tab: focus and panel %q, want %q", got, "tab-equality true")
		}
		// Each tab starts with its tool's first example.
		for _, tool := range schema.Tools() {
			ex := tool.Examples[0].Input
			got := run(t, ctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => {
				const p = document.querySelector('[data-tool=%q]');
				const t = p.querySelector("textarea");
				return t ? JSON.stringify(JSON.parse(t.value)) : JSON.stringify({expression: p.querySelector("[name=expression]").value,
					claimed_value: p.querySelector("[name=claimed_value]").value, require_canonical: p.querySelector("[name=require_canonical]").checked});
			})()`, tool.ID)))
			if !jsonEqual(got, string(ex)) {
				t.Errorf("%s starts with %s, want its first example %s", tool.ID, got, ex)
			}
		}
	})

	for _, tc := range []struct {
		name, tool string
		// rational: the three fields, typed; the others: the document.
		expression, claim string
		canonical         bool
		doc               string
		ctrlEnter         bool // check with Ctrl+Enter rather than the button
		reason            string
	}{
		{name: "rational-division-by-zero", tool: "rational-expression-check", expression: "1/3 + 1/(2 - 2)", claim: "1/3", canonical: true,
			reason: "the divisor (2 - 2) is marked, not the first division"},
		{name: "rational-value-mismatch", tool: "rational-expression-check", expression: "1 + 1/2 + 1/3 + 1/4", claim: "13/6",
			reason: "value, claim and difference"},
		{name: "rational-not-canonical", tool: "rational-expression-check", expression: "1/2 + 1/2", claim: "2/2", canonical: true,
			reason: "the canonical claim beside the claim"},
		{name: "rational-error-astral", tool: "rational-expression-check", expression: "1 + 😀/2", claim: "1",
			reason: "an error document; the position counts 😀 as one code point, the page's string as two units"},
		{name: "rational-error-limit", tool: "rational-expression-check", expression: "2 * " + strings.Repeat("9", 501), claim: "1",
			reason: "an error document with a limit"},
		{name: "equality-mismatch", tool: "multiset-equality-check", ctrlEnter: true,
			doc:    "{\n  \"source\": [\"a\", \"😀\", \"b\", \"b\"],\n  \"claim\": [\"b\", \"a\", \"😀\", \"c\"]\n}",
			reason: `"b" at /source/2 counted 2 and 1; its first occurrence, not the other "b"s, is marked; checked with Ctrl+Enter`},
		{name: "equality-extra", tool: "multiset-equality-check",
			doc:    `{"source": [1, 1.0], "claim": [1e0, 1, -0]}`,
			reason: "a claim value absent from the source: /claim/2, counts 0 and 1"},
		{name: "difference-mismatch", tool: "multiset-difference-check",
			doc:    `{"left": ["a", "b", "a"], "right": ["a"], "claim": {"left_only": ["a", "b"], "right_only": []}}`,
			reason: "the earliest occurrence cancels, so left_only must start with \"b\": expected and actual at /claim/left_only/0"},
		{name: "difference-short", tool: "multiset-difference-check",
			doc:    `{"left": [1, 2, 2], "right": [2], "claim": {"left_only": [1], "right_only": []}}`,
			reason: "the claim has no element at the path: its list is marked instead"},
		{name: "equality-error", tool: "multiset-equality-check",
			doc:    `{"source": [1, {"a": [1]}], "claim": []}`,
			reason: "an error document at /source/1: the object is marked whole"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.reason == "" {
				t.Fatal("case without a reason")
			}
			sent := tc.doc
			if tc.doc == "" {
				sent = rationalDoc(tc.expression, tc.claim, tc.canonical)
			}
			b.fill(t, tc.tool, tc.expression, tc.claim, tc.canonical, tc.doc)
			if tc.ctrlEnter {
				do(t, ctx, chromedp.Focus(chromedp.CSS(panelSel(tc.tool)+" textarea")),
					chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl)))
			} else {
				do(t, ctx, chromedp.Click(chromedp.CSS(panelSel(tc.tool)+" button[type=submit]")))
			}
			got := b.verdict(t, tc.tool)
			checkVerdict(t, tc.tool, sent, got)
			b.screenshot(t, tc.name, tc.name == readmeShot)
		})
	}

	t.Run("deep-link", func(t *testing.T) {
		doc := `{"left": [1, 2], "right": [3], "claim": {"left_only": [1, 2], "right_only": [4]}}`
		b.open(t, link("multiset-difference-check", doc))
		got := b.verdict(t, "multiset-difference-check")
		checkVerdict(t, "multiset-difference-check", doc, got)
		if v := run(t, ctx, chromedp.Value(chromedp.ID("difference-input"))); v != doc {
			t.Errorf("the editor holds %q, want the link's input %q", v, doc)
		}
		if sel := run(t, ctx, chromedp.Evaluate[string](`document.querySelector("[role=tab][aria-selected=true]").id`)); sel != "tab-difference" {
			t.Errorf("the selected tab is %s, want tab-difference", sel)
		}
		b.screenshot(t, "deep-link", false)
	})

	t.Run("copy-link", func(t *testing.T) {
		b.fill(t, "rational-expression-check", "7 ÷ (1 − 1)", "0", false, "")
		do(t, ctx, chromedp.Click(chromedp.CSS(panelSel("rational-expression-check")+" .copy")))
		copied := run(t, ctx, chromedp.Poll[string](`document.getElementById("rational-link").value`,
			chromedp.WithPollingTimeout(10*time.Second)))
		if !strings.HasPrefix(copied, srv.URL+"/#tool=rational-expression-check&input=") {
			t.Fatalf("Copy link made %q", copied)
		}
		b.open(t, strings.TrimPrefix(copied, srv.URL))
		sent := rationalDoc("7 ÷ (1 − 1)", "0", false)
		checkVerdict(t, "rational-expression-check", sent, b.verdict(t, "rational-expression-check"))
		for id, want := range map[string]string{"rational-expression": "7 ÷ (1 − 1)", "rational-claim": "0"} {
			if v := run(t, ctx, chromedp.Value(chromedp.ID(id))); v != want {
				t.Errorf("after opening the copied link, #%s holds %q, want %q", id, v, want)
			}
		}
	})

	t.Run("width-375", func(t *testing.T) {
		defer do(t, ctx, chromedp.EmulateReset())
		do(t, ctx, chromedp.EmulateViewport(375, 812, chromedp.EmulateMobile))
		doc := rationalDoc("1/3 + 1/(2 - 2)", "1/3", true)
		b.open(t, link("rational-expression-check", doc))
		checkVerdict(t, "rational-expression-check", doc, b.verdict(t, "rational-expression-check"))
		wide := run(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("body *")]
			.filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
			.map((e) => e.tagName + (e.id ? "#" + e.id : "") + (e.className ? "." + e.className : ""))`))
		if len(wide) != 0 {
			t.Errorf("at 375 px these reach past the right edge: %q", wide)
		}
		if w := run(t, ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); w > 375 {
			t.Errorf("at 375 px the page scrolls sideways: scrollWidth %d", w)
		}
		b.screenshot(t, "width-375", true)
	})

	// The whole service mounted under /api/ with http.StripPrefix, as a
	// user's mux does: the page loads its files and the tools from under
	// the prefix (its requests are relative) and posts to the prefixed
	// execute_url, and it asks for nothing outside /api/.
	t.Run("under-prefix", func(t *testing.T) {
		mux := http.NewServeMux()
		mux.Handle("/api/", http.StripPrefix("/api", service.New(service.Options{BasePath: "/api"})))
		prefixed := httptest.NewServer(mux)
		defer prefixed.Close()
		b.mu.Lock()
		from := len(b.requests)
		b.mu.Unlock()
		defer func(base string) { b.base = base }(b.base)
		b.base = prefixed.URL + "/api"
		b.open(t, "/")
		doc := `{"source": [1, 2, 2], "claim": [2, 1, 1]}`
		b.fill(t, "multiset-equality-check", "", "", false, doc)
		do(t, ctx, chromedp.Click(chromedp.CSS(panelSel("multiset-equality-check")+" button[type=submit]")))
		checkVerdict(t, "multiset-equality-check", doc, b.verdict(t, "multiset-equality-check"))
		b.screenshot(t, "under-prefix", false)
		b.mu.Lock()
		defer b.mu.Unlock()
		var posted bool
		for _, u := range b.requests[from:] {
			posted = posted || strings.HasSuffix(u, "/execute")
			if !strings.HasPrefix(u, prefixed.URL+"/api/") && u != "about:blank" {
				t.Errorf("under /api/ the page requested %s", u)
			}
		}
		if !posted {
			t.Error("under /api/ the page posted no check")
		}
		b.requests = b.requests[:from]
	})

	b.mu.Lock()
	defer b.mu.Unlock()
	for _, u := range b.requests {
		if !strings.HasPrefix(u, srv.URL+"/") && u != "about:blank" {
			t.Errorf("the page requested %s, outside its origin", u)
		}
	}
	for _, m := range b.problems {
		t.Errorf("browser console: %s", m)
	}
	if *update {
		src, dst := filepath.Join(dir, readmeShot+".png"), filepath.Join("..", "..", "docs", "playground.png")
		png, err := os.ReadFile(src)
		if err == nil {
			err = os.WriteFile(dst, png, 0o644)
		}
		if err != nil {
			t.Fatalf("-update: %v", err)
		}
		t.Logf("wrote %s", dst)
	}
}

// checkVerdict compares the drawn verdict with the tool's own answer to sent.
func checkVerdict(t *testing.T, toolID, sent string, got drawn) {
	t.Helper()
	tool, err := schema.Lookup(toolID, "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	out, err := docOf(tool.Execute([]byte(sent)))
	if e, ok := errors.AsType[*claimcheck.Error](err); ok {
		checkError(t, toolID, sent, e, got)
		return
	} else if err != nil {
		t.Fatal(err)
	}
	var o struct {
		Valid       bool
		Reason      string
		Value       *string
		Discrepancy *struct {
			Path             string
			Expected, Actual json.RawMessage
		}
		FirstDiscrepancy *struct {
			ClaimedValue   string  `json:"claimed_value"`
			CanonicalClaim string  `json:"canonical_claim"`
			Difference     *string `json:"difference"`
			Position       *int
			DivisorText    *string `json:"divisor_text"`
		} `json:"first_discrepancy"`
	}
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatal(err)
	}
	want := drawn{Verdict: o.Reason, Facts: map[string]string{}}
	if o.Valid {
		want.Verdict = "valid"
	}
	switch d := o.FirstDiscrepancy; {
	case toolID != "rational-expression-check":
		if o.Valid {
			break
		}
		p := o.Discrepancy.Path
		if toolID == "multiset-difference-check" {
			p = "/claim" + p
		}
		mark, before, exact := span(t, sent, p)
		want.Mark, want.Before = &mark, before
		if toolID == "multiset-equality-check" {
			want.Cells = []string{mark, unquote(t, o.Discrepancy.Expected), unquote(t, o.Discrepancy.Actual)}
		} else {
			actual := string(o.Discrepancy.Actual)
			if !exact {
				actual += " (the claim has no element here)"
			}
			want.Cells = []string{string(o.Discrepancy.Expected), actual}
		}
	case o.Reason == "division_by_zero":
		expr := []rune(field(t, sent, "expression"))
		start := *d.Position + 1
		for expr[start] == ' ' {
			start++
		}
		mark := *d.DivisorText
		want.Mark, want.Before = &mark, string(expr[:start])
		want.Facts = map[string]string{"Divisor": mark + ", which is 0", "Division at position": strconv.Itoa(*d.Position),
			"Value": "none", "Claim": d.ClaimedValue}
	default:
		claim := field(t, sent, "claimed_value")
		want.Facts = map[string]string{"Value": *o.Value, "Claim": claim, "Difference (value − claim)": "0"}
		if d != nil {
			want.Facts["Difference (value − claim)"] = *d.Difference
			if d.CanonicalClaim != claim {
				want.Facts["Claim in canonical form"] = d.CanonicalClaim
			}
		}
	}
	compare(t, got, want)
}

// checkError compares a drawn error document with the tool's error e.
func checkError(t *testing.T, toolID, sent string, e *claimcheck.Error, got drawn) {
	t.Helper()
	want := drawn{Verdict: "error", Facts: map[string]string{"Code": string(e.Code), "Path": e.Path,
		"Position": "—", "Limit": "—", "Message": e.Message}}
	if e.Path == "" {
		want.Facts["Path"] = "(the whole document)"
	}
	if e.Limit != "" {
		want.Facts["Limit"] = e.Limit
	}
	if e.Position >= 0 {
		want.Facts["Position"] = strconv.Itoa(e.Position)
		expr := []rune(field(t, sent, "expression"))
		mark := ""
		if e.Position < len(expr) {
			mark = string(expr[e.Position])
		}
		want.Mark, want.Before = &mark, string(expr[:e.Position])
	} else if toolID != "rational-expression-check" && e.Path != "" {
		mark, before, _ := span(t, sent, e.Path)
		want.Mark, want.Before = &mark, before
	}
	compare(t, got, want)
}

func compare(t *testing.T, got, want drawn) {
	t.Helper()
	if len(want.Facts) == 0 {
		want.Facts = nil
	}
	if len(got.Facts) == 0 {
		got.Facts = nil
	}
	if len(got.Cells) == 0 {
		got.Cells = nil
	}
	if !reflect.DeepEqual(got.forCompare(), want.forCompare()) {
		g, _ := json.MarshalIndent(got.forCompare(), "", "  ")
		w, _ := json.MarshalIndent(want.forCompare(), "", "  ")
		t.Errorf("the page drew\n%s\nwant\n%s\n(banner: %q)", g, w, got.Banner)
	}
}

// drawn is what the page shows in a panel's verdict, read from the DOM by
// readVerdict.
type drawn struct {
	Verdict string            `json:"verdict"` // the banner's data-verdict
	Banner  string            `json:"banner"`  // its text, for messages only
	Mark    *string           `json:"mark"`    // the <mark>'s text, nil without one
	Before  string            `json:"before"`  // the text before the mark in its <pre>
	Facts   map[string]string `json:"facts"`   // the <dl>: term → description
	Cells   []string          `json:"cells"`   // the comparison table's cells
}

func (d drawn) forCompare() drawn { d.Banner = ""; return d }

// readVerdict returns the drawn verdict of the panel whose selector is its
// argument, or null while there is none yet.
const readVerdict = `((sel) => {
	const v = document.querySelector(sel + " .verdict");
	const b = v.querySelector(".banner[data-verdict]");
	if (!b || v.getAttribute("aria-busy") === "true") return null;
	const m = v.querySelector("mark");
	return {
		verdict: b.dataset.verdict, banner: b.textContent,
		mark: m ? m.textContent : null,
		before: m && m.previousSibling ? m.previousSibling.textContent : "",
		facts: Object.fromEntries([...v.querySelectorAll("dl.facts > div")].map((d) => [d.children[0].textContent, d.children[1].textContent])),
		cells: [...v.querySelectorAll("table td")].map((td) => td.textContent),
	};
})`

type browser struct {
	ctx       context.Context
	base, dir string
	loads     int

	mu       sync.Mutex
	requests []string // every URL the page asked for
	problems []string // exceptions, console errors, CSP reports
}

// record runs on chromedp's reading goroutine: it only appends.
func (b *browser) record(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		b.requests = append(b.requests, ev.Request.URL)
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		if d.Exception != nil {
			b.problems = append(b.problems, fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber, d.Exception.Description))
		} else {
			b.problems = append(b.problems, fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber, d.Text))
		}
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
			b.problems = append(b.problems, "console."+string(ev.Type)+" called")
		}
	case *log.EventEntryAdded:
		if ev.Entry.Source == log.EntrySourceNetwork && strings.HasSuffix(ev.Entry.URL, "/execute") {
			break // a tool refusing a document answers 400 or 422: the page's error cases
		}
		if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
			b.problems = append(b.problems, fmt.Sprintf("%s %s: %s (%s)", ev.Entry.Source, ev.Entry.Level, ev.Entry.Text, ev.Entry.URL))
		}
	}
}

// open loads path and waits until the page has its tools. The load is a
// new document, never a same-document jump to another fragment: a query
// that counts the loads makes each URL new.
func (b *browser) open(t *testing.T, path string) {
	t.Helper()
	b.loads++
	path = "/?load=" + strconv.Itoa(b.loads) + strings.TrimPrefix(path, "/")
	do(t, b.ctx, chromedp.Navigate(b.base+path))
	run(t, b.ctx, chromedp.Poll[bool](`document.documentElement.dataset.ready === "true"`, chromedp.WithPollingTimeout(10*time.Second)))
}

// fill selects the tool's tab and types the rational fields or sets the
// document, and clears the panel's verdict so the next one is new.
func (b *browser) fill(t *testing.T, tool, expression, claim string, canonical bool, doc string) {
	t.Helper()
	p := panelSel(tool)
	do(t, b.ctx, chromedp.Click(chromedp.CSS(`[role=tab][aria-controls=`+strings.TrimPrefix(p, "#")+`]`)),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("`+p+` .verdict").replaceChildren()`))
	if tool != "rational-expression-check" {
		b.setValue(t, p+" textarea", doc)
		return
	}
	for sel, text := range map[string]string{"[name=expression]": expression, "[name=claimed_value]": claim} {
		if strings.ContainsFunc(text, func(r rune) bool { return r > 0xFFFF }) || len(text) > 100 {
			b.setValue(t, p+" "+sel, text) // typing astral or long text would test chromedp, not the page
		} else {
			b.setValue(t, p+" "+sel, "")
			do(t, b.ctx, chromedp.SendKeys(chromedp.CSS(p+" "+sel), text))
		}
	}
	box := chromedp.CSS(p + " [name=require_canonical]")
	if run(t, b.ctx, chromedp.Evaluate[bool](`document.querySelector("`+p+` [name=require_canonical]").checked`)) != canonical {
		do(t, b.ctx, chromedp.Click(box))
	}
}

// setValue sets a field's value as a paste would.
func (b *browser) setValue(t *testing.T, sel, value string) {
	t.Helper()
	s, _ := json.Marshal(sel)
	v, _ := json.Marshal(value)
	do(t, b.ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%s).value = %s`, s, v)))
}

// verdict waits for the panel's verdict and reads it.
func (b *browser) verdict(t *testing.T, tool string) drawn {
	t.Helper()
	return run(t, b.ctx, chromedp.Poll[drawn](readVerdict+`("`+panelSel(tool)+`")`, chromedp.WithPollingTimeout(10*time.Second)))
}

// screenshot saves the viewport, or the whole page when full.
func (b *browser) screenshot(t *testing.T, name string, full bool) {
	t.Helper()
	shot := chromedp.CaptureScreenshot()
	if full {
		shot = chromedp.FullScreenshot(100) // 100: PNG
	}
	png := run(t, b.ctx, shot)
	if err := os.WriteFile(filepath.Join(b.dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

func panelSel(tool string) string {
	return map[string]string{
		"rational-expression-check": "#panel-rational",
		"multiset-equality-check":   "#panel-equality",
		"multiset-difference-check": "#panel-difference",
	}[tool]
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

func run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// findBrowser returns the Chromium to drive: Debian's chromium, or another
// Chrome on PATH.
func findBrowser(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	missing(t, "Chromium (apt-get install -y chromium)")
	return ""
}

// link is the path of a deep link, encoded as encodeURIComponent does.
func link(tool, doc string) string {
	return "/#tool=" + tool + "&input=" + strings.ReplaceAll(url.QueryEscape(doc), "+", "%20")
}

func rationalDoc(expression, claim string, canonical bool) string {
	b, _ := json.Marshal(map[string]any{"expression": expression, "claimed_value": claim, "require_canonical": canonical})
	return string(b)
}

func field(t *testing.T, doc, name string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatal(err)
	}
	return m[name].(string)
}

func unquote(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return s
}

func jsonEqual(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

// span is the test's own oracle for the page's locate: it walks doc with
// encoding/json's tokenizer and returns the text of the value at pointer,
// the text before it, and whether it is there. When it is not, it returns
// the deepest ancestor that is, as the page marks it.
func span(t *testing.T, doc, pointer string) (text, before string, exact bool) {
	t.Helper()
	spans := map[string][2]int{}
	dec := json.NewDecoder(strings.NewReader(doc))
	var walk func(path string) error
	walk = func(path string) error {
		start := int(dec.InputOffset())
		for start < len(doc) && strings.ContainsRune(" \t\r\n,:", rune(doc[start])) {
			start++
		}
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			for i := 0; dec.More(); i++ {
				key := "/" + strconv.Itoa(i)
				if d == '{' {
					k, err := dec.Token()
					if err != nil {
						return err
					}
					key = string(jsonwire.AppendPointerToken(nil, k.(string)))
				}
				if err := walk(path + key); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
		}
		spans[path] = [2]int{start, int(dec.InputOffset())}
		return nil
	}
	if err := walk(""); err != nil {
		t.Fatalf("oracle: %v", err)
	}
	p := pointer
	for {
		if s, ok := spans[p]; ok {
			return doc[s[0]:s[1]], doc[:s[0]], p == pointer
		}
		p = p[:strings.LastIndex(p, "/")]
	}
}

// docOf returns the document of an Execute's Output.
func docOf(out schema.Output, err error) ([]byte, error) { return out.Doc, err }
