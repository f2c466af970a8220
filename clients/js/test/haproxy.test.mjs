// Two replicas behind haproxy; one is killed mid-run: the stream completes,
// the bytes of claimcheck batch. Skipped when haproxy is not installed
// (failed instead when CI is set).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import net from "node:net";
import { Client, Raw } from "../src/index.mjs";
import { startServe, batch, corpusLines, splitLines, tools } from "./helpers.mjs";

const haproxy = ["/usr/sbin/haproxy", "/usr/local/sbin/haproxy", "haproxy"].find((p) => !spawnSync(p, ["-v"]).error);

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

test("a replica killed behind haproxy", { skip: haproxy || process.env.CI ? false : "haproxy is not installed (CI installs it)" }, async () => {
  assert.ok(haproxy, "haproxy is not installed (with CI set, that fails the test)");
  const t = tools.find((d) => d.id === "rational-expression-check");
  const name = `${t.id}@${t.version}`;
  const base = corpusLines(t.id);
  const lines = Array.from({ length: 40_000 }, (_, i) => base[i % base.length]);
  const want = splitLines(batch(name, Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")]))));
  const a = await startServe(), b = await startServe();
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "cc-haproxy-"));
  const cfg = path.join(dir, "haproxy.cfg");
  writeFileSync(
    cfg,
    `global
  maxconn 256
defaults
  mode http
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  retries 2
  option redispatch
frontend fe
  bind 127.0.0.1:${port}
  default_backend be
backend be
  # All to a while it is up, so that its requests are in flight when it dies.
  balance first
  option httpchk GET /healthz
  server a 127.0.0.1:${a.port} maxconn 64 check inter 200ms fall 1 rise 2
  server b 127.0.0.1:${b.port} maxconn 64 check inter 200ms fall 1 rise 2
`,
  );
  const hp = spawn(haproxy, ["-db", "-f", cfg], { stdio: ["ignore", "ignore", "pipe"] });
  let hpErr = "";
  hp.stderr.on("data", (d) => (hpErr += d));
  try {
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      const ok = await fetch(url + "/healthz").then((r) => r.ok, () => false);
      if (ok) break;
      if (i > 100) throw new Error(`haproxy did not come up: ${hpErr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const c = new Client(url, { maxLines: 1000, maxInFlight: 2, retryDelay: 100 });
    let n = 0;
    const got = [];
    // The kill comes from the producer, mid-request: the request it is
    // writing (to a, the first server) is open.
    async function* records() {
      for (let i = 0; i < lines.length; i++) {
        if (i % 200 === 0) await new Promise((r) => setImmediate(r));
        if (i === 10_500) await a.kill("SIGKILL");
        yield [name, new Raw(lines[i])];
      }
    }
    for await (const r of c.checkStream(records())) {
      got.push(r.raw);
      n++;
    }
    c.close();
    console.log(`# through haproxy: ${JSON.stringify(c.stats)}`);
    assert.equal(got.length, want.length);
    assert.ok(c.stats.retries > 0, "no request was cut by the kill");
    assert.ok(got.every((g, i) => g === want[i]), "the answers differ from claimcheck batch's");
  } finally {
    hp.kill("SIGKILL");
    await a.kill();
    await b.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
