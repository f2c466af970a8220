// @claimcheck/client: a client of claimcheck serve's streaming batch route,
// POST /v1/tools/{id}/versions/{version}/batch (JSON Lines in, JSON Lines
// out, line N answering line N).
//
// Records are grouped by tool into requests of at most maxLines lines and
// maxBytes bytes, each a chunked body written as the records arrive while
// its answers are read as they come (node:http, not fetch: fetch keeps a
// streamed request body in memory). Up to maxInFlight requests are open at
// once; results come back in record order. A request that fails or is cut
// (a network error, a premature close, a Claimcheck-Cut trailer, fewer
// answers than lines, 408/429/502/503/504) is sent again from its first
// unanswered line, with exponential backoff that honours Retry-After; when
// the client gives up it throws a ClaimcheckError, never fewer results in
// silence.
import http from "node:http";
import https from "node:https";
import { Buffer } from "node:buffer";

/** The defaults of the Client options (see index.d.ts). */
export const defaults = Object.freeze({
  timeout: 30_000, // ms without a byte either way before a request is dropped (and retried)
  retries: 8, // attempts after the first for a line that gets no answer
  maxInFlight: 4, // requests open at once, per Client
  maxLines: 10_000, // lines per request
  maxBytes: 8 << 20, // bytes of lines per request (8 MiB); a longer line goes alone
  maxPending: 20_000, // records read ahead of the results taken
  maxPendingBytes: 16 << 20, // bytes of the lines read ahead (16 MiB)
  linger: 1_000, // ms without a new record before an open request's body is ended
  retryDelay: 200, // ms, the first backoff; doubled each failed attempt
  maxRetryDelay: 10_000, // ms, the longest backoff
  maxRetryAfter: 60_000, // ms, the longest Retry-After honoured
});

const RETRYABLE = new Set([408, 429, 502, 503, 504]);
const FLUSH_BYTES = 64 << 10;
const NL = Buffer.from("\n");

/**
 * Raw JSON text, sent as written: the server, not the client, judges it, so
 * broken JSON comes back as an error document. A string is sent UTF-8
 * encoded; a Uint8Array byte for byte. It must not contain a newline.
 */
export class Raw {
  constructor(text) {
    if (typeof text === "string") {
      if (text.includes("\n")) throw new TypeError("claimcheck: a Raw text must not contain a newline (\\n): one document is one line");
    } else if (text instanceof Uint8Array) {
      if (text.indexOf(10) >= 0) throw new TypeError("claimcheck: a Raw text must not contain a newline (\\n): one document is one line");
    } else {
      throw new TypeError("claimcheck: Raw wants a string or a Uint8Array");
    }
    this.text = text;
  }
}

/** The client gave up, or the server refused the request. */
export class ClaimcheckError extends Error {
  constructor(message, { status = null, document = null, answered = 0, tool = null, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "ClaimcheckError";
    this.status = status; // the HTTP status of the last failure, or null (a network error)
    this.document = document; // the parsed error document of the server, if any
    this.code = document?.error?.code ?? null; // its error code
    this.answered = answered; // results delivered, in order, before this error
    this.tool = tool; // the tool (id@version) of the failed request
  }
}

/**
 * One answer: raw is the answer line as the server wrote it (a string,
 * without its newline); valid is true or false for an output document and
 * null for an error document; document is raw parsed (on first access).
 */
export class Result {
  #doc;
  constructor(raw) {
    this.raw = raw;
    if (raw.startsWith('{"valid":true')) this.valid = true;
    else if (raw.startsWith('{"valid":false')) this.valid = false;
    else if (raw.startsWith('{"error":')) this.valid = null;
    else {
      const d = this.document;
      this.valid = d !== null && typeof d === "object" && !("error" in d) && typeof d.valid === "boolean" ? d.valid : null;
    }
  }
  get document() {
    if (this.#doc === undefined) this.#doc = JSON.parse(this.raw);
    return this.#doc;
  }
  toJSON() {
    return { valid: this.valid, document: this.document, raw: this.raw };
  }
}

function finiteReplacer(key, value) {
  if (typeof value === "number" ? !Number.isFinite(value) : value instanceof Number && !Number.isFinite(value.valueOf())) {
    throw new TypeError(`claimcheck: ${value}${key === "" ? "" : ` (at key ${JSON.stringify(key)})`} is not a JSON number; JSON.stringify would send null`);
  }
  return value;
}

/** encode returns the line of a document (without "\n"): a string or bytes. */
export function encode(document) {
  if (document instanceof Raw) return document.text;
  const s = JSON.stringify(document);
  if (s === undefined) throw new TypeError("claimcheck: the document has no JSON form (undefined, a function or a symbol)");
  // NaN and ±Infinity become null: look closer only when a null is written.
  if (s.includes("null")) JSON.stringify(document, finiteReplacer);
  return s;
}

function versionLess(a, b) {
  const as = a.split("."), bs = b.split(".");
  for (let i = 0; i < as.length && i < bs.length; i++) {
    if (as[i].length !== bs[i].length) return as[i].length < bs[i].length;
    if (as[i] !== bs[i]) return as[i] < bs[i];
  }
  return as.length < bs.length;
}

function parseJSON(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function retryAfterMs(v) {
  if (v === undefined) return 0;
  const s = Number(v);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const t = Date.parse(v);
  return Number.isFinite(t) ? Math.max(0, t - Date.now()) : 0;
}

function posInt(name, v) {
  if (!Number.isSafeInteger(v) || v < 1) throw new TypeError(`claimcheck: option ${name} must be a positive integer, not ${v}`);
  return v;
}

function nonNegative(name, v) {
  if (typeof v !== "number" || !(v >= 0)) throw new TypeError(`claimcheck: option ${name} must be a number >= 0, not ${v}`);
  return v;
}

// Slots bound the requests open at once across a Client's runs.
class Slots {
  constructor(n, onWait) {
    this.free = n;
    this.waiters = [];
    this.onWait = onWait;
  }
  acquire() {
    if (this.free > 0) {
      this.free--;
      return true;
    }
    return false;
  }
  wait(w) {
    this.waiters.push(w);
    this.onWait();
  }
  waiting() {
    while (this.waiters.length > 0 && this.waiters[0].cancelled) this.waiters.shift();
    return this.waiters.length > 0;
  }
  release() {
    while (this.waiters.length > 0) {
      const w = this.waiters.shift();
      if (!w.cancelled) {
        w.fn();
        return;
      }
    }
    this.free++;
  }
}

export class Client {
  #mod;
  #url;
  #prefix;
  #agent;
  #ownAgent;
  #headers;
  #tools = null; // Promise of the descriptors
  #resolved = new Map(); // tool name -> {id, version, key, path}
  #slots;
  #open = new Set(); // attempts whose body is open, oldest first
  /** Counters of this Client: requests (batch requests started), retries (failed or cut requests resent), resent (lines sent again). */
  stats = { requests: 0, retries: 0, resent: 0 };

  constructor(baseUrl, options = {}) {
    const u = new URL(baseUrl);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new TypeError(`claimcheck: ${baseUrl}: want an http: or https: URL`);
    this.#mod = u.protocol === "https:" ? https : http;
    this.#url = u;
    this.#prefix = u.pathname.replace(/\/+$/, "");
    const o = { ...defaults, ...options };
    this.options = Object.freeze({
      timeout: nonNegative("timeout", o.timeout),
      retries: o.retries === 0 ? 0 : posInt("retries", o.retries),
      maxInFlight: posInt("maxInFlight", o.maxInFlight),
      maxLines: posInt("maxLines", o.maxLines),
      maxBytes: posInt("maxBytes", o.maxBytes),
      maxPending: posInt("maxPending", o.maxPending),
      maxPendingBytes: posInt("maxPendingBytes", o.maxPendingBytes),
      linger: nonNegative("linger", o.linger),
      retryDelay: nonNegative("retryDelay", o.retryDelay),
      maxRetryDelay: nonNegative("maxRetryDelay", o.maxRetryDelay),
      maxRetryAfter: nonNegative("maxRetryAfter", o.maxRetryAfter),
    });
    this.#headers = { ...(o.headers ?? {}) };
    this.#ownAgent = !o.agent;
    this.#agent = o.agent ?? new this.#mod.Agent({ keepAlive: true, scheduling: "lifo" });
    this.#slots = new Slots(this.options.maxInFlight, () => {
      // Someone waits for a slot: end the body of the oldest open request,
      // which gives its slot back once it is answered.
      for (const a of this.#open) {
        if (a.entries.length > 0) {
          a.run.endBody(a);
          break;
        }
      }
    });
  }

  /** Wrap JSON text to send as written. */
  static raw(text) {
    return new Raw(text);
  }

  /** Close the idle keep-alive connections (of an agent the Client made). */
  close() {
    if (this.#ownAgent) this.#agent.destroy();
  }

  /** The tool descriptors (GET /v1/tools), fetched once. */
  tools() {
    if (this.#tools === null) {
      this.#tools = this.#getJSON("/v1/tools");
      this.#tools.catch(() => {
        this.#tools = null;
      });
    }
    return this.#tools;
  }

  /** Check one document. */
  async check(tool, document) {
    const [r] = await this.checkMany([[tool, document]]);
    return r;
  }

  /** Check records ([tool, document] each); an array of results in order. */
  async checkMany(records, { onProgress } = {}) {
    const total = Array.isArray(records) ? records.length : undefined;
    const out = [];
    let last = Date.now();
    try {
      for await (const r of this.checkStream(records)) {
        out.push(r);
        if (onProgress && (out.length & 1023) === 0 && Date.now() - last >= 100) {
          last = Date.now();
          onProgress({ done: out.length, total });
        }
      }
    } catch (e) {
      if (e instanceof ClaimcheckError) e.results = out;
      throw e;
    }
    onProgress?.({ done: out.length, total });
    return out;
  }

  /** Results in record order, reading records lazily, memory bounded. */
  checkStream(records) {
    if (records == null || (typeof records[Symbol.iterator] !== "function" && typeof records[Symbol.asyncIterator] !== "function")) {
      throw new TypeError("claimcheck: checkStream wants an iterable or async iterable of [tool, document] records");
    }
    return new Run(this, records, this.#hooks()).results();
  }

  /**
   * checkStream for high throughput: chunks is an iterable or async
   * iterable of arrays of records; the results come as arrays, in order
   * (not grouped as the records were).
   */
  checkStreamBatched(chunks) {
    if (chunks == null || (typeof chunks[Symbol.iterator] !== "function" && typeof chunks[Symbol.asyncIterator] !== "function")) {
      throw new TypeError("claimcheck: checkStreamBatched wants an iterable or async iterable of arrays of records");
    }
    const run = new Run(this, chunks, this.#hooks());
    run.batched = true;
    return run.batches();
  }

  #hooks() {
    return {
      options: this.options,
      slots: this.#slots,
      open: this.#open,
      stats: this.stats,
      resolve: (t) => this.#resolve(t),
      request: (path, headers) => this.#request("POST", path, headers),
    };
  }

  #request(method, path, headers = {}) {
    const u = this.#url;
    const req = this.#mod.request({
      protocol: u.protocol,
      hostname: u.hostname.replace(/^\[|\]$/g, ""),
      port: u.port || undefined,
      method,
      path: this.#prefix + path,
      agent: this.#agent,
      headers: { ...this.#headers, ...headers },
    });
    if (this.options.timeout > 0) {
      req.setTimeout(this.options.timeout, () => req.destroy(Object.assign(new Error(`no byte for ${this.options.timeout} ms`), { code: "ETIMEDOUT" })));
    }
    return req;
  }

  async #getJSON(path) {
    const o = this.options;
    let lastErr;
    for (let attempt = 0; attempt <= o.retries; attempt++) {
      let status = null, document = null, retryAfter = 0, cause;
      try {
        const res = await new Promise((resolve, reject) => {
          const req = this.#request("GET", path, { Accept: "application/json" });
          req.on("error", reject);
          req.on("response", (res) => {
            const parts = [];
            res.on("data", (c) => parts.push(c));
            res.on("error", reject);
            res.on("end", () => resolve({ res, body: Buffer.concat(parts).toString("utf8") }));
          });
          req.end();
        });
        status = res.res.statusCode;
        document = parseJSON(res.body);
        if (status === 200 && document !== null) return document;
        retryAfter = retryAfterMs(res.res.headers["retry-after"]);
        if (!RETRYABLE.has(status)) {
          throw new ClaimcheckError(`GET ${path}: ${status} ${document?.error?.message ?? res.body.slice(0, 200)}`, { status, document });
        }
      } catch (e) {
        if (e instanceof ClaimcheckError) throw e;
        cause = e;
      }
      lastErr = new ClaimcheckError(`GET ${path}: ${status ?? cause?.message}`, { status, document, cause });
      if (attempt < o.retries) await sleep(backoff(o, attempt, retryAfter));
    }
    throw lastErr;
  }

  // #resolve returns the lane of a tool name, or a promise of it.
  #resolve(tool) {
    const hit = this.#resolved.get(tool);
    if (hit) return hit;
    if (typeof tool !== "string" || tool === "") throw new TypeError(`claimcheck: a tool is a string "id" or "id@version", not ${JSON.stringify(tool)}`);
    const at = tool.indexOf("@");
    if (at >= 0) {
      const id = tool.slice(0, at), version = tool.slice(at + 1);
      if (id === "" || version === "") throw new TypeError(`claimcheck: a tool is "id" or "id@version", not ${JSON.stringify(tool)}`);
      return this.#lane(tool, id, version);
    }
    return this.tools().then((tools) => {
      let best = null;
      for (const t of Array.isArray(tools) ? tools : []) {
        if (t?.id === tool && typeof t.version === "string" && (best === null || versionLess(best, t.version))) best = t.version;
      }
      if (best === null) {
        const document = { error: { code: "unknown_tool", path: "", message: `no tool ${tool}` } };
        throw new ClaimcheckError(`claimcheck: no tool ${tool} at ${this.#url.href}`, { status: 404, document, tool });
      }
      return this.#lane(tool, tool, best);
    });
  }

  #lane(name, id, version) {
    const key = `${id}@${version}`;
    const v = { key, path: `/v1/tools/${encodeURIComponent(id)}/versions/${encodeURIComponent(version)}/batch` };
    this.#resolved.set(name, v);
    return v;
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

function backoff(o, failures, retryAfter) {
  const d = Math.min(o.maxRetryDelay, o.retryDelay * 2 ** failures);
  const jittered = d / 2 + Math.random() * (d / 2);
  return Math.max(jittered, Math.min(retryAfter, o.maxRetryAfter));
}

// A Run is one checkStream: its records, read lazily into a window, the
// lanes (one per tool) that send them, and the results handed out in order.
class Run {
  constructor(client, source, hooks) {
    this.client = client;
    this.source = source;
    this.h = hooks;
    const o = hooks.options;
    this.o = o;
    this.maxLines = o.maxLines;
    this.windowLines = o.maxPending;
    this.windowBytes = o.maxPendingBytes;
    this.entries = []; // read, not yet handed out, in order
    this.head = 0; // index in entries of the next to hand out
    this.pendingBytes = 0;
    this.lanes = new Map();
    this.attempts = new Set();
    this.fatal = null;
    this.stopped = false;
    this.sourceDone = false;
    this.sourceError = null;
    this.wakeConsumer = null;
    this.wakeReader = null;
    this.batched = false;
    this.lastShort = -1; // the answers of the last short answer without a Cut trailer
  }

  pending() {
    return this.entries.length - this.head;
  }

  async *results() {
    for await (const batch of this.batches()) yield* batch;
  }

  // batches yields the results ready at once, in order, as arrays.
  async *batches() {
    const reader = this.read();
    let answered = 0;
    try {
      for (;;) {
        const out = [];
        while (this.head < this.entries.length && out.length < 4096) {
          const e = this.entries[this.head];
          if (e.raw === undefined) break;
          this.entries[this.head++] = undefined;
          this.pendingBytes -= e.size;
          out.push(new Result(e.raw));
        }
        if (this.head >= 4096 && this.head * 2 >= this.entries.length) {
          this.entries = this.entries.slice(this.head);
          this.head = 0;
        }
        if (out.length > 0) {
          if (this.wakeReader && this.pending() < this.windowLines && this.pendingBytes < this.windowBytes) this.wake("wakeReader");
          answered += out.length;
          yield out;
          continue;
        }
        if (this.head < this.entries.length ? this.fatal : this.sourceDone) {
          if (this.fatal) {
            this.fatal.answered = answered;
            throw this.fatal;
          }
          if (this.sourceError) throw this.sourceError;
          return;
        }
        await new Promise((r) => (this.wakeConsumer = r));
      }
    } finally {
      this.stop();
      // Not awaited: a source that never yields again must not hold us.
      reader.catch(() => {});
    }
  }

  wake(which) {
    const w = this[which];
    if (w) {
      this[which] = null;
      w();
    }
  }

  stop() {
    if (this.stopped) return;
    this.stopped = true;
    for (const a of [...this.attempts]) this.abort(a);
    for (const l of this.lanes.values()) {
      if (l.waiter) l.waiter.cancelled = true;
      clearTimeout(l.timer);
    }
    this.wake("wakeReader");
  }

  fail(err) {
    if (this.fatal) return;
    this.fatal = err;
    for (const a of [...this.attempts]) this.abort(a);
    this.wake("wakeReader");
    this.wake("wakeConsumer");
  }

  async read() {
    const src = this.source;
    const batched = this.batched;
    const isAsync = typeof src[Symbol.asyncIterator] === "function";
    let it;
    try {
      it = isAsync ? src[Symbol.asyncIterator]() : src[Symbol.iterator]();
      let count = 0, breathed = 0;
      for (;;) {
        while (!this.stopped && !this.fatal && (this.pending() >= this.windowLines || this.pendingBytes >= this.windowBytes)) {
          await new Promise((r) => (this.wakeReader = r));
        }
        if (this.stopped || this.fatal) break;
        let step = it.next();
        if (isAsync || typeof step?.then === "function") step = await step;
        if (step.done) {
          it = null;
          break;
        }
        if (this.stopped || this.fatal) break;
        const recs = batched ? step.value : [step.value];
        if (batched && !Array.isArray(recs)) throw new TypeError("claimcheck: checkStreamBatched wants arrays of records");
        for (const rec of recs) {
          if (!Array.isArray(rec) || rec.length < 2) throw new TypeError(`claimcheck: record ${count} is not a [tool, document] array`);
          let lane = this.h.resolve(rec[0]);
          if (typeof lane.then === "function") lane = await lane;
          const line = encode(rec[1]);
          const size = (typeof line === "string" ? Buffer.byteLength(line) : line.length) + 1;
          this.add(lane, { line, size, raw: undefined, tries: 0, lane: null });
          count++;
        }
        // Let the sockets breathe now and then on a synchronous source.
        if (!isAsync && count - breathed >= 4096) {
          breathed = count;
          await new Promise((r) => setImmediate(r));
        }
      }
    } catch (e) {
      if (e instanceof ClaimcheckError && !this.fatal) this.fail(e);
      else this.sourceError = e;
    } finally {
      this.sourceDone = true;
      if (it && typeof it.return === "function") {
        try {
          await it.return();
        } catch {
          // the source's own cleanup failed: nothing more to read anyway
        }
      }
      for (const l of this.lanes.values()) if (l.attempt) this.endBody(l.attempt);
      this.wake("wakeConsumer");
    }
  }

  add(v, e) {
    let lane = this.lanes.get(v.key);
    if (!lane) {
      lane = { key: v.key, path: v.path, queue: [], qhead: 0, attempt: null, notBefore: 0, timer: null, waiter: null, hold: false };
      this.lanes.set(v.key, lane);
    }
    e.lane = lane;
    this.entries.push(e);
    this.pendingBytes += e.size;
    lane.queue.push(e);
    if (this.entries.length - this.head === 1) this.wake("wakeConsumer");
    this.pump(lane);
  }

  // pump moves a lane's queued lines into its open request, starting one
  // when there is none (and a slot is free, and no backoff is pending).
  pump(lane) {
    while (lane.qhead < lane.queue.length && !this.fatal && !this.stopped) {
      let a = lane.attempt;
      if (!a) {
        const wait = lane.notBefore - Date.now();
        if (wait > 0) {
          if (!lane.timer) {
            lane.timer = setTimeout(() => {
              lane.timer = null;
              this.pump(lane);
            }, wait);
          }
          return;
        }
        if (lane.waiter || lane.hold) return;
        if (!this.h.slots.acquire()) {
          lane.waiter = {
            cancelled: false,
            fn: () => {
              lane.waiter = null;
              if (this.stopped || this.fatal) return this.h.slots.release();
              if (lane.hold || lane.notBefore > Date.now()) {
                // A failure of the lane's while it waited: back off first.
                this.h.slots.release();
                return this.pump(lane);
              }
              this.start(lane);
              this.pump(lane);
            },
          };
          this.h.slots.wait(lane.waiter);
          return;
        }
        a = this.start(lane);
      }
      if (a.blocked) return;
      const e = lane.queue[lane.qhead];
      if (a.entries.length > 0 && (a.entries.length >= this.maxLines || a.bytes + e.size > this.o.maxBytes)) {
        this.endBody(a);
        continue;
      }
      lane.queue[lane.qhead++] = undefined;
      if (lane.qhead >= 1024 && lane.qhead * 2 >= lane.queue.length) {
        lane.queue = lane.queue.slice(lane.qhead);
        lane.qhead = 0;
      }
      a.entries.push(e);
      a.bytes += e.size;
      a.lastWrite = Date.now();
      if (typeof e.line === "string") {
        a.str += e.line + "\n";
      } else {
        if (a.str !== "") {
          a.parts.push(Buffer.from(a.str));
          a.str = "";
        }
        a.parts.push(e.line, NL);
      }
      a.buffered += e.size;
      if (a.buffered >= FLUSH_BYTES) this.flush(a);
      else if (!a.flushSoon) {
        a.flushSoon = true;
        setImmediate(() => {
          a.flushSoon = false;
          if (a.open) this.flush(a);
        });
      }
    }
    // The queue went out: if other lanes wait for a slot, this request
    // takes no more lines, and its slot comes free once it is answered.
    const a = lane.attempt;
    if (a && !a.blocked && lane.qhead >= lane.queue.length && this.h.slots.waiting()) this.endBody(a);
  }

  flush(a) {
    if (a.buffered === 0) return;
    let data;
    if (a.parts.length === 0) data = a.str;
    else {
      if (a.str !== "") a.parts.push(Buffer.from(a.str));
      data = Buffer.concat(a.parts);
    }
    a.str = "";
    a.parts = [];
    a.buffered = 0;
    if (!a.req.write(data)) {
      a.blocked = true;
      a.req.once("drain", () => {
        a.blocked = false;
        if (a.open) this.pump(a.lane);
      });
    }
  }

  start(lane) {
    const a = {
      run: this,
      lane,
      entries: [],
      bytes: 0,
      answered: 0,
      open: true,
      blocked: false,
      str: "",
      parts: [],
      buffered: 0,
      flushSoon: false,
      settled: false,
      res: null,
      partial: null,
      lastWrite: Date.now(),
      linger: null,
      req: null,
    };
    const req = this.h.request(lane.path, { "Content-Type": "application/jsonl", "Transfer-Encoding": "chunked", Accept: "application/jsonl" });
    a.req = req;
    lane.attempt = a;
    this.attempts.add(a);
    this.h.stats.requests++;
    this.h.open.add(a);
    req.on("response", (res) => this.response(a, res));
    req.on("error", (err) => {
      // A write error (EPIPE, ECONNRESET) once the answer has begun: what
      // the answer says decides, when it ends.
      if (a.res && !a.res.destroyed) {
        a.writeError = err;
        a.res.once("close", () => this.closed(a));
        return;
      }
      this.settle(a, { error: err });
    });
    req.on("close", () => this.closed(a));
    if (this.o.linger > 0) {
      a.linger = setInterval(() => {
        if (a.open && Date.now() - a.lastWrite >= this.o.linger) this.endBody(a);
      }, Math.max(10, this.o.linger / 2));
      a.linger.unref?.();
    }
    return a;
  }

  // endBody ends a request's body: no more lines go into it.
  endBody(a) {
    if (!a.open) return;
    if (!a.settled) this.flush(a);
    a.open = false;
    clearInterval(a.linger);
    this.h.open.delete(a);
    if (a.lane.attempt === a) a.lane.attempt = null;
    if (!a.settled) a.req.end();
    this.pump(a.lane);
  }

  // closed settles an attempt whose connection closed, if nothing else has.
  closed(a) {
    if (a.settled) return;
    const res = a.res;
    if (res && res.statusCode !== 200) return this.settle(a, this.refusal(a));
    if (res?.complete) return this.settle(a, { end: true });
    const err = a.writeError ?? Object.assign(new Error("the connection closed before the answer ended"), { code: "ECONNRESET" });
    this.settle(a, { error: err });
  }

  refusal(a) {
    const body = Buffer.concat(a.errParts).toString("utf8");
    return { status: a.res.statusCode, document: parseJSON(body), body, retryAfter: retryAfterMs(a.res.headers["retry-after"]) };
  }

  response(a, res) {
    a.res = res;
    a.socket = res.socket;
    if (res.statusCode !== 200) {
      // A refusal: no more lines go into this request, and none into
      // another of the lane until it is read.
      a.lane.hold = true;
      if (a.open) {
        a.open = false;
        clearInterval(a.linger);
        this.h.open.delete(a);
        if (a.lane.attempt === a) a.lane.attempt = null;
      }
      a.errParts = [];
      let n = 0;
      res.on("data", (c) => {
        if (n < 1 << 16) a.errParts.push(c);
        n += c.length;
      });
      res.on("error", () => this.closed(a));
      res.on("end", () => this.settle(a, this.refusal(a)));
      return;
    }
    res.on("data", (chunk) => this.data(a, chunk));
    res.on("error", (err) => {
      a.writeError ??= err;
      this.closed(a);
    });
    res.on("end", () => this.settle(a, { end: true }));
  }

  data(a, chunk) {
    if (a.settled) return;
    let start = 0;
    let nl = chunk.indexOf(10);
    while (nl >= 0) {
      let raw;
      if (a.partial !== null) {
        raw = Buffer.concat([a.partial, chunk.subarray(0, nl)]).toString("utf8");
        a.partial = null;
      } else {
        raw = chunk.toString("utf8", start, nl);
      }
      if (a.answered >= a.entries.length) {
        this.settle(a, { extra: true });
        return;
      }
      const e = a.entries[a.answered];
      a.entries[a.answered++] = undefined; // the request needs only its unanswered lines
      e.raw = raw;
      e.line = null;
      if (e === this.entries[this.head]) this.wake("wakeConsumer");
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) a.partial = a.partial === null ? Buffer.from(chunk.subarray(start)) : Buffer.concat([a.partial, chunk]);
  }

  abort(a) {
    a.open = false;
    clearInterval(a.linger);
    this.h.open.delete(a);
    if (a.lane.attempt === a) a.lane.attempt = null;
    if (!a.settled) {
      a.settled = true;
      this.attempts.delete(a);
      this.h.slots.release();
      a.req.destroy();
    }
  }

  // settle ends an attempt: it succeeded, or its unanswered lines go back
  // to the front of the lane's queue, or the run gives up.
  settle(a, out) {
    if (a.settled) return;
    a.settled = true;
    this.attempts.delete(a);
    const wasOpen = a.open;
    a.open = false;
    clearInterval(a.linger);
    this.h.open.delete(a);
    const lane = a.lane;
    if (lane.attempt === a) lane.attempt = null;
    if (a.res && a.res.statusCode !== 200) lane.hold = false;
    this.h.slots.release();
    if (this.stopped || this.fatal) {
      a.req.destroy();
      return;
    }
    const unanswered = a.entries.slice(a.answered);
    const cut = a.res?.trailers?.["claimcheck-cut"];
    if (out.end && !cut && unanswered.length === 0 && a.partial === null && !wasOpen) {
      this.pump(lane);
      return;
    }
    // A cut or short answer: the server may not have read all of the body,
    // and what it did not read must never be taken for the next request on
    // this connection (net/http can keep such a connection: the rest of the
    // body then comes back as a 431 or 400 to the next request). Node's
    // agent may already have pooled the socket when the answer ended.
    a.req.destroy();
    a.socket?.destroy();
    const tool = lane.key;
    if (out.extra) {
      return this.fail(new ClaimcheckError(`claimcheck: ${tool}: the server sent more answers than the ${a.entries.length} lines of the request`, { status: 200, tool }));
    }
    if (out.status !== undefined && !RETRYABLE.has(out.status)) {
      const msg = out.document?.error?.message ?? out.body?.slice(0, 200);
      return this.fail(new ClaimcheckError(`claimcheck: ${tool}: ${out.status} ${msg}`, { status: out.status, document: out.document, tool }));
    }
    if (unanswered.length === 0) {
      this.pump(lane);
      return;
    }
    // A server's line cap: said by the trailer, or (behind a proxy that drops
    // trailers) the same short count twice running.
    if (a.answered > 0 && out.end && (cut === "max_batch_lines" || (!cut && a.answered === this.lastShort))) {
      this.maxLines = Math.min(this.maxLines, a.answered);
    }
    if (out.end && !cut) this.lastShort = a.answered;
    let why;
    if (out.status !== undefined) why = `${out.status} ${out.document?.error?.message ?? ""}`.trim();
    else if (out.error) why = out.error.code ? `${out.error.code}: ${out.error.message}` : out.error.message;
    else if (cut) why = `the server cut the stream (${cut})`;
    else why = `the answer ended after ${a.answered} of ${a.entries.length} lines`;
    let failures = 0;
    if (a.answered > 0) {
      for (const e of unanswered) e.tries = 0; // progress: start counting again
    } else {
      for (const e of unanswered) failures = Math.max(failures, ++e.tries);
      if (failures > this.o.retries) {
        return this.fail(
          new ClaimcheckError(`claimcheck: ${tool}: gave up after ${failures} attempts: ${why}`, {
            status: out.status ?? null,
            document: out.document ?? null,
            tool,
            cause: out.error,
          }),
        );
      }
    }
    const delay = failures > 0 ? backoff(this.o, failures - 1, out.retryAfter ?? 0) : 0;
    lane.notBefore = Math.max(lane.notBefore, Date.now() + delay);
    this.h.stats.retries++;
    this.h.stats.resent += unanswered.length;
    lane.queue = unanswered.concat(lane.queue.slice(lane.qhead));
    lane.qhead = 0;
    this.pump(lane);
  }
}
