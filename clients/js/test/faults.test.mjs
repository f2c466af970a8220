// Fake servers (node:http) that fail in the ways a batch request can fail.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client, ClaimcheckError } from "../src/index.mjs";
import { fakeServer, readLines, echo } from "./helpers.mjs";

const tool = "t@1";
const recs = (n) => Array.from({ length: n }, (_, i) => [tool, Client.raw(`{"n":${i}}`)]);
const opts = { retryDelay: 10, maxRetryDelay: 50 };

function answer(res, lines, { trailers = {} } = {}) {
  res.writeHead(200, { "Content-Type": "application/jsonl", Trailer: "Claimcheck-Lines, Claimcheck-Cut" });
  res.write(lines.map((l) => echo(l) + "\n").join(""));
  res.addTrailers({ "Claimcheck-Lines": String(lines.length), ...trailers });
  res.end();
}

function expectEcho(got, n) {
  assert.equal(got.length, n);
  got.forEach((r, i) => {
    assert.equal(r.valid, true);
    assert.equal(r.document.echo, `{"n":${i}}`);
  });
}

test("a 503 with Retry-After is retried after the time it says", async () => {
  const seen = [];
  const f = await fakeServer(async (req, res) => {
    const lines = await readLines(req);
    seen.push({ at: Date.now(), lines: lines.length });
    if (seen.length === 1) {
      res.writeHead(503, { "Content-Type": "application/json", "Retry-After": "1" });
      res.end('{"error":{"code":"overloaded","path":"","message":"try again"}}');
      return;
    }
    answer(res, lines);
  });
  const c = new Client(f.url, opts);
  const got = await c.checkMany(recs(30));
  c.close();
  await f.close();
  expectEcho(got, 30);
  assert.equal(seen.length, 2);
  assert.ok(seen[1].at - seen[0].at >= 950, `retried after ${seen[1].at - seen[0].at} ms`);
});

test("200 with fewer answers than lines and no Cut trailer: retried from the first unanswered line", async () => {
  const sizes = [];
  const f = await fakeServer(async (req, res) => {
    const lines = await readLines(req);
    sizes.push(lines.length);
    answer(res, sizes.length === 1 ? lines.slice(0, 10) : lines);
  });
  const c = new Client(f.url, opts);
  const got = await c.checkMany(recs(25));
  c.close();
  await f.close();
  expectEcho(got, 25);
  assert.deepEqual(sizes, [25, 15]);
});

test("a server that always answers short: a ClaimcheckError, never fewer results in silence", async () => {
  let calls = 0;
  const f = await fakeServer(async (req, res) => {
    const lines = await readLines(req);
    calls++;
    answer(res, lines.slice(0, lines[0] === '{"n":0}' ? 5 : 0));
  });
  const c = new Client(f.url, { ...opts, retries: 3 });
  const got = [];
  await assert.rejects(
    async () => {
      for await (const r of c.checkStream(recs(20))) got.push(r);
    },
    (e) => e instanceof ClaimcheckError && e.answered === 5 && e.status === null && /gave up after 4 attempts/.test(e.message),
  );
  c.close();
  await f.close();
  expectEcho(got, 5);
  assert.equal(calls, 1 + 4);
});

test("a Claimcheck-Cut trailer is retried; a premature close too", async () => {
  let calls = 0;
  const f = await fakeServer(async (req, res) => {
    const lines = await readLines(req);
    calls++;
    if (calls === 1) return answer(res, lines.slice(0, 7), { trailers: { "Claimcheck-Cut": "overloaded" } });
    if (calls === 2) {
      // Half an answer line, then the connection goes.
      res.writeHead(200, { "Content-Type": "application/jsonl" });
      res.write(echo(lines[0]) + "\n" + echo(lines[1]).slice(0, 5));
      setTimeout(() => res.socket.destroy(), 20);
      return;
    }
    answer(res, lines);
  });
  const c = new Client(f.url, opts);
  const got = await c.checkMany(recs(20));
  c.close();
  await f.close();
  expectEcho(got, 20);
  assert.equal(calls, 3);
});

test("a connection refused, then a server: retried with backoff", async () => {
  const f = await fakeServer(async (req, res) => answer(res, await readLines(req)));
  const url = f.url;
  await f.close();
  const c = new Client(url, { retryDelay: 200, maxRetryDelay: 400, retries: 8 });
  const { default: http } = await import("node:http");
  const port = Number(new URL(url).port);
  let srv;
  setTimeout(() => {
    srv = http.createServer(async (req, res) => answer(res, await readLines(req))).listen(port, "127.0.0.1");
  }, 300);
  const got = await c.checkMany(recs(5));
  c.close();
  srv.closeAllConnections();
  srv.close();
  expectEcho(got, 5);
});

for (const status of [400, 404, 413, 415]) {
  test(`${status} for the whole request is not retried`, async () => {
    let calls = 0;
    const f = await fakeServer(async (req, res) => {
      await readLines(req);
      calls++;
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(`{"error":{"code":"x${status}","path":"","message":"no"}}`);
    });
    const c = new Client(f.url, opts);
    await assert.rejects(c.checkMany(recs(3)), (e) => e instanceof ClaimcheckError && e.status === status && e.code === `x${status}` && e.document.error.message === "no" && e.answered === 0 && e.results.length === 0);
    c.close();
    await f.close();
    assert.equal(calls, 1);
  });
}

for (const status of [408, 429, 502, 504]) {
  test(`${status} is retried`, async () => {
    let calls = 0;
    const f = await fakeServer(async (req, res) => {
      const lines = await readLines(req);
      if (++calls === 1) {
        res.writeHead(status);
        return res.end("busy");
      }
      answer(res, lines);
    });
    const c = new Client(f.url, opts);
    expectEcho(await c.checkMany(recs(4)), 4);
    c.close();
    await f.close();
    assert.equal(calls, 2);
  });
}

test("more answers than lines is an error", async () => {
  const f = await fakeServer(async (req, res) => {
    const lines = await readLines(req);
    answer(res, [...lines, "extra"]);
  });
  const c = new Client(f.url, opts);
  await assert.rejects(c.checkMany(recs(3)), (e) => e instanceof ClaimcheckError && /more answers/.test(e.message));
  c.close();
  await f.close();
});

test("requests are bounded by maxLines and maxBytes; a line over maxBytes goes alone", async () => {
  const sizes = [];
  const f = await fakeServer(async (req, res) => {
    const lines = await readLines(req);
    sizes.push(lines.length);
    answer(res, lines);
  });
  const c = new Client(f.url, { maxLines: 10, maxInFlight: 1 });
  expectEcho(await c.checkMany(recs(35)), 35);
  assert.deepEqual(sizes, [10, 10, 10, 5]);
  sizes.length = 0;
  const c2 = new Client(f.url, { maxBytes: 30, maxInFlight: 1 }); // `{"n":0}\n` is 8 bytes
  const big = [tool, Client.raw(`{"n":"${"x".repeat(100)}"}`)];
  const got = await c2.checkMany([...recs(4), big, ...recs(2)]);
  assert.equal(got.length, 7);
  assert.deepEqual(sizes, [3, 1, 1, 2]);
  c.close();
  c2.close();
  await f.close();
});

test("resolving an id uses GET /v1/tools once, the newest version", async () => {
  let lists = 0;
  const paths = new Set();
  const f = await fakeServer(async (req, res) => {
    if (req.method === "GET") {
      lists++;
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify([{ id: "t", version: "1.9.0" }, { id: "t", version: "1.10.0" }, { id: "u", version: "2.0.0" }]));
    }
    paths.add(req.url);
    answer(res, await readLines(req));
  });
  const c = new Client(f.url + "/", opts);
  for (let i = 0; i < 3; i++) await c.checkMany([["t", {}], ["u", {}]]);
  c.close();
  await f.close();
  assert.equal(lists, 1);
  assert.deepEqual([...paths].sort(), ["/v1/tools/t/versions/1.10.0/batch", "/v1/tools/u/versions/2.0.0/batch"]);
});

test("a server that never answers: the timeout drops the request, retried, then a ClaimcheckError", async () => {
  let calls = 0;
  const f = await fakeServer((req) => {
    calls++;
    req.resume(); // read the body, answer nothing
  });
  const c = new Client(f.url, { ...opts, timeout: 200, retries: 2 });
  const t0 = Date.now();
  await assert.rejects(c.checkMany(recs(3)), (e) => e instanceof ClaimcheckError && e.cause?.code === "ETIMEDOUT" && e.answered === 0);
  c.close();
  await f.close();
  assert.equal(calls, 3);
  assert.ok(Date.now() - t0 >= 600);
});

test("200 concurrent check calls share maxInFlight and all complete", async () => {
  let open = 0, most = 0;
  const f = await fakeServer(async (req, res) => {
    most = Math.max(most, ++open);
    const lines = await readLines(req);
    setTimeout(() => {
      open--;
      answer(res, lines);
    }, 2);
  });
  const c = new Client(f.url, { ...opts, maxInFlight: 3 });
  const got = await Promise.all(Array.from({ length: 200 }, (_, i) => c.check(tool, Client.raw(`{"n":${i}}`))));
  c.close();
  await f.close();
  got.forEach((r, i) => assert.equal(r.document.echo, `{"n":${i}}`));
  assert.ok(most <= 3, `${most} requests at once`);
});
