// index.d.ts is hand-written: check it against the module with nothing but
// node (CI has no TypeScript): every export is declared, every declared
// export and Client method exists, and package.json points at both.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as mod from "../src/index.mjs";

const dts = readFileSync(new URL("../src/index.d.ts", import.meta.url), "utf8");
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

test("index.d.ts declares exactly the module's exports", () => {
  const declared = new Set([...dts.matchAll(/^export declare (?:const|class|function) (\w+)/gm)].map((m) => m[1]));
  assert.deepEqual([...declared].sort(), Object.keys(mod).sort());
});

test("index.d.ts declares the Client's methods and options", () => {
  const body = dts.slice(dts.indexOf("export declare class Client"));
  const methods = [...body.matchAll(/^  (?:static )?(\w+)\(/gm)].map((m) => m[1]).filter((m) => m !== "constructor");
  const own = Object.getOwnPropertyNames(mod.Client.prototype).filter((m) => m !== "constructor");
  assert.deepEqual(methods.filter((m) => m !== "raw").sort(), own.sort());
  assert.equal(typeof mod.Client.raw, "function");
  const opts = dts.slice(dts.indexOf("interface ClientOptions"), dts.indexOf("export declare const defaults"));
  const names = [...opts.matchAll(/^  (\w+)\?:/gm)].map((m) => m[1]);
  assert.deepEqual(names.filter((n) => n !== "headers" && n !== "agent").sort(), Object.keys(mod.defaults).sort());
});

test("package.json: no dependencies, ESM, types and bin in place", () => {
  assert.equal(pkg.type, "module");
  for (const k of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) assert.equal(pkg[k], undefined, k);
  assert.equal(pkg.types, "./src/index.d.ts");
  assert.equal(pkg.exports["."].types, "./src/index.d.ts");
  assert.equal(pkg.exports["."].default, "./src/index.mjs");
  assert.equal(pkg.bin["claimcheck-client"], "./bin/claimcheck-client.mjs");
  assert.match(pkg.engines.node, />=\s*20/);
});
