// The playground's DOM side: tabs, forms, checks and the drawing of
// verdicts. Everything that computes lives in logic.mjs.
//
// The descriptors come from GET v1/tools, relative to the page so that it
// works under any mount prefix (examples and execute URLs); a
// check is one POST of the input document to the tool's execute_url. Text
// from the server or the user is only ever set as textContent.

import {
  ancestorPath, charSpan, divisorSpan, exampleLabel, formatDocument, inputPath, locate,
  makeFragment, parseFragment, rationalDocument, rationalFields,
} from "./logic.mjs";

const status = document.getElementById("status");
const tabs = [...document.querySelectorAll("[role=tab]")];
const panels = [...document.querySelectorAll("[role=tabpanel]")].map(setupPanel);
const byTool = new Map(panels.map((p) => [p.tool, p]));

const TITLES = {
  valid: ["Valid", "the claim holds"],
  division_by_zero: ["Not valid", "the expression divides by zero"],
  value_mismatch: ["Not valid", "the claimed value is not the expression's value"],
  not_canonical: ["Not valid", "the value is right but not written in canonical form"],
  claim_mismatch: ["Not valid", "the claim does not match"],
};

function setupPanel(el) {
  const q = (sel) => el.querySelector(sel);
  const p = {
    el, tool: el.dataset.tool, kind: el.dataset.kind, descriptor: null, seq: 0,
    tab: document.getElementById(el.getAttribute("aria-labelledby")),
    form: q("form"), verdict: q(".verdict"), example: q(".example"),
    expression: q("[name=expression]"), claim: q("[name=claimed_value]"),
    canonical: q("[name=require_canonical]"), editor: q("textarea"),
    link: q(".link"), linkText: q(".link-text"), linkNote: q(".link .note"),
  };
  p.form.addEventListener("submit", (e) => {
    e.preventDefault();
    check(p);
  });
  q(".copy").addEventListener("click", () => copyLink(p));
  p.example.addEventListener("change", () => write(p, exampleText(p, Number(p.example.value))));
  p.tab.addEventListener("click", () => select(p));
  // Once edited, the input is no longer the example the menu names.
  p.form.addEventListener("input", (e) => {
    if (e.target !== p.example) p.example.selectedIndex = 0;
  });
  return p;
}

// read returns the panel's input document as sent to the tool.
function read(p) {
  if (p.kind === "json") return p.editor.value;
  return rationalDocument(p.expression.value, p.claim.value, p.canonical.checked);
}

// write shows an input document in the panel; false if the form cannot.
function write(p, text) {
  if (p.kind === "json") {
    p.editor.value = text;
    return true;
  }
  const f = rationalFields(text);
  if (f === null) return false;
  p.expression.value = f.expression;
  p.claim.value = f.claimedValue;
  p.canonical.checked = f.requireCanonical;
  return true;
}

function exampleText(p, i) {
  const input = p.descriptor.examples[i].input;
  return p.kind === "json" ? formatDocument(input) : JSON.stringify(input);
}

function select(p, focus = false) {
  for (const q of panels) {
    const on = q === p;
    q.tab.setAttribute("aria-selected", String(on));
    q.tab.tabIndex = on ? 0 : -1;
    q.el.hidden = !on;
  }
  if (focus) p.tab.focus();
}

// Tabs follow the ARIA tabs pattern: arrows, Home and End move between them.
document.getElementById("tabs").addEventListener("keydown", (e) => {
  const i = tabs.indexOf(document.activeElement);
  const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
  if (i < 0 || next === undefined) return;
  e.preventDefault();
  select(panels[(next + tabs.length) % tabs.length], true);
});

// Ctrl+Enter (Cmd+Enter) checks the open panel from anywhere on the page.
document.addEventListener("keydown", (e) => {
  if (e.key !== "Enter" || !(e.ctrlKey || e.metaKey)) return;
  const p = panels.find((q) => !q.el.hidden);
  if (!p) return;
  e.preventDefault();
  check(p);
});

async function check(p) {
  if (!p.descriptor) return;
  const sent = read(p);
  const seq = ++p.seq;
  for (const f of p.el.querySelectorAll("[aria-invalid]")) f.removeAttribute("aria-invalid");
  p.verdict.setAttribute("aria-busy", "true");
  p.verdict.replaceChildren(h("p", { class: "banner pending" }, "Checking…"));
  let doc, failure;
  try {
    const res = await fetch(p.descriptor.execute_url, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: sent,
    });
    doc = await res.json();
  } catch (e) {
    failure = e.message;
  }
  if (seq !== p.seq) return; // a later check owns the verdict
  p.verdict.replaceChildren(...(failure === undefined ? render(p, sent, doc)
    : [banner("unreachable", "Error", "no JSON answer from the server: " + failure)]));
  p.verdict.removeAttribute("aria-busy");
  const mark = p.verdict.querySelector("pre mark");
  if (mark) mark.parentElement.scrollTop = Math.max(0, mark.offsetTop - mark.parentElement.clientHeight / 2);
}

function render(p, sent, doc) {
  if (doc.error) return renderError(p, sent, doc.error);
  const [title, detail] = TITLES[doc.valid ? "valid" : doc.reason] ?? ["Not valid", doc.reason];
  const parts = [banner(doc.valid ? "valid" : doc.reason, title, detail, doc.reason)];
  if (p.tool === "rational-expression-check") return parts.concat(renderRational(sent, doc));
  if (doc.valid) return parts;
  const path = inputPath(p.tool, doc.discrepancy.path);
  const span = locate(sent, path);
  if (span && p.editor.value === sent) p.editor.setSelectionRange(span.start, span.end);
  const d = doc.discrepancy;
  if (p.tool === "multiset-equality-check") {
    const value = span && span.exact ? sent.slice(span.start, span.end) : "?";
    parts.push(table(["The value whose counts differ, first at ", h("code", {}, d.path)], ["Value", "In source", "In claim"],
      [h("code", {}, value), d.expected, d.actual]));
  } else {
    const missing = span && !span.exact ? " (the claim has no element here)" : "";
    parts.push(table(["The first difference, at ", h("code", {}, d.path), " of the claim"], ["Expected", "Claimed"],
      [h("code", {}, JSON.stringify(d.expected)), [h("code", {}, JSON.stringify(d.actual)), missing]]));
  }
  parts.push(documentView(sent, span, path));
  return parts;
}

function renderRational(sent, out) {
  const { expression, claimed_value: claim } = JSON.parse(sent);
  const d = out.first_discrepancy;
  if (out.reason === "division_by_zero") {
    const span = divisorSpan(expression, d.position, d.divisor_text) ?? charSpan(expression, d.position);
    return [
      expressionView(expression, span, "The divisor is marked."),
      list([["Divisor", [h("code", {}, d.divisor_text), ", which is 0"]],
        ["Division at position", String(d.position)], ["Value", "none"], ["Claim", h("code", {}, claim)]]),
    ];
  }
  const rows = [["Value", h("code", {}, out.value)], ["Claim", h("code", {}, claim)]];
  if (d && d.canonical_claim !== claim) rows.push(["Claim in canonical form", h("code", {}, d.canonical_claim)]);
  rows.push(["Difference (value − claim)", h("code", {}, d ? d.difference : "0")]);
  return [expressionView(expression, null, ""), list(rows)];
}

function renderError(p, sent, e) {
  const parts = [
    banner("error", "Error", "the tool refuses the document", e.code),
    list([["Code", h("code", {}, e.code)], ["Path", e.path === "" ? "(the whole document)" : h("code", {}, e.path)],
      ["Position", e.position ?? "—"], ["Limit", e.limit ?? "—"], ["Message", e.message]]),
  ];
  if (p.kind === "rational") {
    const field = { "/expression": p.expression, "/claimed_value": p.claim, "/require_canonical": p.canonical }[e.path];
    if (field) field.setAttribute("aria-invalid", "true");
    if (e.path === "/expression" && e.position != null) {
      const expression = JSON.parse(sent).expression;
      const span = charSpan(expression, e.position);
      const what = span.start === span.end ? "the end of the expression" : "the character there";
      parts.push(expressionView(expression, span, `Position ${e.position} is ${what}, marked.`));
    }
  } else if (e.path !== "") {
    const span = locate(sent, e.path);
    if (span && p.editor.value === sent) p.editor.setSelectionRange(span.start, span.end);
    if (span) parts.push(documentView(sent, span, e.path));
  }
  return parts;
}

// h makes an element; children are nodes, strings (as text) or arrays.
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...children.flat(Infinity).map((c) => (c instanceof Node ? c : String(c))));
  return el;
}

// banner is the verdict's first line; code, when given, is the reason or
// error code as the tool wrote it.
function banner(verdict, title, detail, code) {
  const kind = verdict === "valid" ? "valid" : verdict === "error" || verdict === "unreachable" ? "error" : "invalid";
  return h("p", { class: "banner " + kind, "data-verdict": verdict }, h("strong", {}, title), ": ", detail,
    code ? [" (", h("code", {}, code), ")"] : []);
}

function list(rows) {
  return h("dl", { class: "facts" }, rows.map(([k, v]) => h("div", {}, h("dt", {}, k), h("dd", {}, v))));
}

function table(caption, heads, cells) {
  return h("table", { class: "compare" }, h("caption", {}, caption),
    h("thead", {}, h("tr", {}, heads.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, h("tr", {}, cells.map((x) => h("td", {}, x)))));
}

// marked returns text with span wrapped in a <mark>; null span: plain text.
function marked(text, span) {
  if (!span) return [text];
  const mark = h("mark", span.start === span.end ? { class: "end", title: "end" } : {}, text.slice(span.start, span.end));
  return [text.slice(0, span.start), mark, text.slice(span.end)];
}

function expressionView(expression, span, note) {
  return h("figure", { class: "expression" }, h("figcaption", {}, note ? "Expression. " + note : "Expression"),
    h("pre", { class: "code" }, marked(expression, span)));
}

function documentView(text, span, path) {
  const caption = !span ? ["Input (", h("code", {}, path), " not found in it)"]
    : span.exact ? ["Input, ", h("code", {}, path), " marked"]
    : ["Input: ", h("code", {}, path), " is not there; ", h("code", {}, ancestorPath(path, span.depth) || "(the document)"), " is marked"];
  return h("figure", { class: "document" }, h("figcaption", {}, caption), h("pre", { class: "code" }, marked(text, span)));
}

async function copyLink(p) {
  const link = location.origin + location.pathname + makeFragment(p.tool, read(p));
  history.replaceState(null, "", link); // no hashchange: the link is not run again
  p.link.hidden = false;
  p.linkText.value = link;
  try {
    await navigator.clipboard.writeText(link);
    p.linkNote.textContent = "Copied.";
  } catch {
    p.linkText.focus();
    p.linkText.select();
    p.linkNote.textContent = "Press Ctrl+C (⌘+C) to copy it.";
  }
}

// openLink opens the tool and input of a #tool=ID&input=JSON fragment and
// checks it.
function openLink() {
  const { tool, input } = parseFragment(location.hash);
  if (tool === null) return;
  const p = byTool.get(tool);
  if (!p || !p.descriptor) {
    showStatus("error", "The link names a tool this server does not have: " + tool);
    return;
  }
  select(p);
  if (input === null) return;
  if (!write(p, input)) {
    p.verdict.replaceChildren(banner("error", "Error", "the link's input is not a document this form can show"));
    return;
  }
  p.example.selectedIndex = 0; // "Choose an example…": the input is the link's
  check(p);
}

function showStatus(kind, text) {
  status.className = "banner " + kind;
  status.textContent = text;
  status.hidden = false;
}

async function main() {
  let tools;
  try {
    const res = await fetch("v1/tools", { headers: { Accept: "application/json" } });
    if (!res.ok) throw new Error("GET /v1/tools answered " + res.status);
    tools = await res.json();
  } catch (e) {
    showStatus("error", "Could not load the tools: " + e.message);
    return;
  }
  for (const d of tools) {
    const p = byTool.get(d.id);
    if (!p || p.descriptor) continue; // the first version listed wins
    p.descriptor = d;
    p.el.querySelector(".description").textContent = d.description;
    p.example.add(new Option("Choose an example…", ""));
    p.example.options[0].disabled = true;
    d.examples.forEach((ex, i) => p.example.add(new Option(exampleLabel(ex, i), String(i), i === 0, i === 0)));
    write(p, exampleText(p, 0));
  }
  for (const p of panels) if (!p.descriptor) p.tab.disabled = true;
  status.hidden = true;
  addEventListener("hashchange", openLink);
  openLink();
  document.documentElement.dataset.ready = "true";
}

main();
