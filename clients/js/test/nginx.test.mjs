// Two replicas behind nginx (which drops the upstream's trailers: the
// client counts answers instead); one is killed mid-run, and a replica cuts
// at -max-batch-lines. Skipped when nginx is not installed (failed instead
// when CI is set).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, rmSync, mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import net from "node:net";
import { Client, Raw } from "../src/index.mjs";
import { startServe, batch, corpusLines, splitLines, tools } from "./helpers.mjs";

const nginx = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "nginx"].find((p) => !spawnSync(p, ["-v"]).error);

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

test("a replica killed behind nginx, another cutting at -max-batch-lines 300", { skip: nginx || process.env.CI ? false : "nginx is not installed" }, async () => {
  assert.ok(nginx, "nginx is not installed (with CI set, that fails the test)");
  const t = tools.find((d) => d.id === "multiset-difference-check");
  const name = `${t.id}@${t.version}`;
  const base = corpusLines(t.id);
  const lines = Array.from({ length: 30_000 }, (_, i) => base[i % base.length]);
  const want = splitLines(batch(name, Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")]))));
  const a = await startServe(), b = await startServe(["-max-batch-lines", "300"]);
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "cc-nginx-"));
  for (const d of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(path.join(dir, d));
  const cfg = path.join(dir, "nginx.conf");
  writeFileSync(
    cfg,
    `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 0;
  upstream replicas {
    server 127.0.0.1:${a.port} max_fails=1 fail_timeout=30s;
    # b cuts every request at 300 lines, closing the connection: that is not a failure.
    server 127.0.0.1:${b.port} max_fails=0;
    keepalive 8;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://replicas;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_request_buffering off;
      proxy_buffering off;
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
`,
  );
  const ng = spawn(nginx, ["-p", dir, "-c", cfg], { stdio: ["ignore", "ignore", "pipe"] });
  let ngErr = "";
  ng.stderr.on("data", (d) => (ngErr += d));
  try {
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      let why;
      const ok = await fetch(url + "/healthz").then(
        (r) => r.ok || ((why = r.status), false),
        (e) => ((why = e.cause?.code ?? e.message), false),
      );
      if (ok) break;
      if (i > 100) throw new Error(`nginx did not come up (${why}): ${ngErr} ${readFileSync(path.join(dir, "error.log"), "utf8")}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const c = new Client(url, { maxLines: 1000, maxInFlight: 2 });
    let n = 0;
    const got = [];
    async function* records() {
      for (let i = 0; i < lines.length; i++) {
        if (i % 200 === 0) await new Promise((r) => setImmediate(r));
        yield [name, new Raw(lines[i])];
      }
    }
    try {
      for await (const r of c.checkStream(records())) {
        got.push(r.raw);
        if (++n === 8_000) await a.kill("SIGKILL");
      }
    } catch (e) {
      e.message += `; ${JSON.stringify(c.stats)}; nginx: ${readFileSync(path.join(dir, "error.log"), "utf8").split("\n").slice(-5).join("\n")}`;
      throw e;
    }
    c.close();
    console.log(`# through nginx: ${JSON.stringify(c.stats)}`);
    assert.equal(got.length, want.length);
    assert.ok(c.stats.retries > 0, "no request was cut");
    assert.ok(got.every((g, i) => g === want[i]), "the answers differ from claimcheck batch's");
  } finally {
    ng.kill("SIGKILL");
    await a.kill();
    await b.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
