#!/usr/bin/env python3
"""Measure claimcheck_client against `claimcheck batch -j 2` on the same data.

    python3 clients/python/bench.py [--bin PATH] [--lines N] [--rounds R]

For each tool, and for the three tools mixed, it writes N lines drawn from
the public corpus (testdata/conformance) and runs, each in a process of its
own so that its peak RSS is its own (os.wait4's ru_maxrss):

  batch       claimcheck batch -j 2 TOOL FILE (for the mix: once per tool, the
              times added, the largest RSS)
  check_many  Client.check_many on the lines read into a list as
              (tool, bytes) records: every result is held
  iter_check  Client.iter_check on the file read lazily, results dropped
              as they come: the streaming footprint
  cli         python -m claimcheck_client URL TOOL < FILE > (a pipe), for
              one tool: the whole process's wall time, startup included

against one `claimcheck serve` on 127.0.0.1 (its peak RSS, VmHWM, is shown
at the end). It checks that every answer line is batch's. Times are the
median of the rounds; lines/s counts the records over the call's wall time
(the client's) or the process's (batch). The client and serve share the
machine's cores, as batch's two workers do.
"""
import argparse
import base64
import json
import os
import pathlib
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
TOOLS = ["multiset-equality-check", "multiset-difference-check", "rational-expression-check"]


def corpus(tool):
    out = []
    with open(REPO / "testdata" / "conformance" / (tool + ".jsonl"), encoding="utf-8") as f:
        for l in f:
            c = json.loads(l)
            b = c["input"].encode("utf-8", "surrogatepass") if "input" in c else base64.b64decode(c["input_base64"])
            out.extend(b.split(b"\n"))
    return out


def child(url, path, mode):
    sys.path.insert(0, str(HERE / "src"))
    from claimcheck_client import Client

    def records():
        with open(path, "rb") as f:
            for l in f:
                t, _, doc = l.rstrip(b"\n").partition(b"\t")
                yield t.decode(), doc

    with Client(url) as c, open(path + ".got", "wb") as g:
        c.check(TOOLS[0], {"source": [], "claim": []})  # resolve, connect
        if mode == "check_many":
            recs = list(records())
            t0 = time.perf_counter()
            res = c.check_many(recs)
            took = time.perf_counter() - t0
            n = len(res)
            for r in res:  # written after the clock stops, to check them
                g.write(r.raw)
                g.write(b"\n")
        else:
            t0 = time.perf_counter()
            n = 0
            for r in c.iter_check(records()):
                n += 1
                g.write(r.raw)  # to check them (buffered: a little of the time)
                g.write(b"\n")
            took = time.perf_counter() - t0
    print(json.dumps({"lines": n, "seconds": took}))


def run(cmd, stdin=None):
    """Run cmd: its stdout, stderr, exit code, wall seconds and peak RSS
    in bytes. The RSS is GNU time's %M: a child of this (large) process
    would report this process's RSS at fork as its own ru_maxrss, while
    time's child starts small. Without /usr/bin/time, VmHWM is polled."""
    rss_file = tempfile.NamedTemporaryFile(delete=False)
    rss_file.close()
    timed = os.path.exists("/usr/bin/time")
    if timed:
        cmd = ["/usr/bin/time", "-f", "%M", "-o", rss_file.name] + cmd
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    hwm = [0]
    if not timed:
        import threading

        def poll():
            while p.poll() is None:
                try:
                    with open("/proc/%d/status" % p.pid) as f:
                        for l in f:
                            if l.startswith("VmHWM"):
                                hwm[0] = max(hwm[0], int(l.split()[1]) * 1024)
                except (OSError, ValueError):
                    pass
                time.sleep(0.005)

        threading.Thread(target=poll, daemon=True).start()
    out, err = p.communicate()
    took = time.perf_counter() - t0
    rss = hwm[0]
    if timed:
        with open(rss_file.name) as f:
            rss = int(f.read().split()[-1]) * 1024
    os.unlink(rss_file.name)
    return out, err, p.returncode, took, rss


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.environ.get("CLAIMCHECK_BIN"), help="the claimcheck binary (default: built with go build)")
    ap.add_argument("--lines", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        return child(*a.child)
    work = tempfile.mkdtemp(prefix="ccbench-")
    bin = a.bin
    if not bin:
        bin = os.path.join(work, "claimcheck")
        subprocess.run(["go", "build", "-o", bin, "./cmd/claimcheck"], cwd=REPO, check=True)
    srv = subprocess.Popen([bin, "serve", "-addr", "127.0.0.1:0"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = None
    for line in srv.stderr:
        line = line.decode()
        if "listening on " in line:
            url = line.split("listening on ", 1)[1].split()[0]
            break
    if url is None:
        sys.exit("serve did not start")
    rnd = random.Random(1)
    pools = {t: corpus(t) for t in TOOLS}
    rows = []
    try:
        for name in TOOLS + ["mixed"]:
            tools = TOOLS if name == "mixed" else [name]
            recs = []
            for _ in range(a.lines):
                t = tools[rnd.randrange(len(tools))]
                p = pools[t]
                recs.append((t, p[rnd.randrange(len(p))]))
            path = os.path.join(work, name + ".tsv")
            with open(path, "wb") as f:
                f.write(b"".join(t.encode() + b"\t" + d + b"\n" for t, d in recs))
            want = {}
            per_tool = {}
            for t in tools:
                idx = [i for i, r in enumerate(recs) if r[0] == t]
                tp = os.path.join(work, t + ".jsonl")
                with open(tp, "wb") as f:
                    f.write(b"".join(recs[i][1] + b"\n" for i in idx))
                per_tool[t] = (tp, idx)
            res = {"batch": [], "check_many": [], "iter_check": []}
            if name != "mixed":
                res["cli"] = []
            for _ in range(a.rounds):
                secs, rss = 0.0, 0
                for t in tools:
                    tp, idx = per_tool[t]
                    out, err, code, took, r = run([bin, "batch", "-j", "2", t, tp])
                    assert code in (0, 1), err
                    for i, l in zip(idx, out.split(b"\n")):
                        want[i] = l
                    secs += took
                    rss = max(rss, r)
                res["batch"].append((secs, rss))
                for mode in ("check_many", "iter_check"):
                    out, err, code, took, r = run([sys.executable, __file__, "--child", url, path, mode])
                    assert code == 0, err.decode()
                    info = json.loads(out)
                    got = open(path + ".got", "rb").read().split(b"\n")[:-1]
                    if got != [want[i] for i in range(len(recs))]:
                        sys.exit("%s %s: the answers differ from claimcheck batch's" % (name, mode))
                    res[mode].append((info["seconds"], r))
                if name != "mixed":
                    tp, idx = per_tool[name]
                    env_path = os.environ.get("PYTHONPATH")
                    os.environ["PYTHONPATH"] = str(HERE / "src")
                    try:
                        with open(tp, "rb") as fin:
                            out, err, code, took, r = run([sys.executable, "-m", "claimcheck_client", url, name], stdin=fin)
                    finally:
                        if env_path is None:
                            del os.environ["PYTHONPATH"]
                        else:
                            os.environ["PYTHONPATH"] = env_path
                    assert code == 0, err.decode()
                    if out.split(b"\n")[:-1] != [want[i] for i in range(len(recs))]:
                        sys.exit("%s cli: the answers differ from claimcheck batch's" % name)
                    res["cli"].append((took, r))
            for k, v in res.items():
                secs = statistics.median(x[0] for x in v)
                rss = max(x[1] for x in v)
                rows.append((name, k, a.lines / secs, secs, rss))
    finally:
        hwm = ""
        try:
            with open("/proc/%d/status" % srv.pid) as f:
                hwm = [l for l in f if l.startswith("VmHWM")][0].split(":", 1)[1].strip()
        except (OSError, IndexError):
            pass
        srv.kill()
        srv.wait()
        shutil.rmtree(work, ignore_errors=True)
    print("%d lines a run, median of %d rounds, %d CPUs, Python %s" % (a.lines, a.rounds, os.cpu_count(), sys.version.split()[0]))
    print("| data | runner | lines/s | seconds | peak RSS |")
    print("|---|---|---:|---:|---:|")
    for name, k, lps, secs, rss in rows:
        print("| %s | %s | %s | %.2f | %.1f MiB |" % (name, k, format(int(lps), ","), secs, rss / 2**20))
    print("serve's peak RSS (VmHWM): %s" % hwm)


if __name__ == "__main__":
    main()
