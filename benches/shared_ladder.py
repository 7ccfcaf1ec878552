#!/usr/bin/env python3
"""Whole-process timings of a shared ladder on a local PostgreSQL server (BENCHMARKS.md).

    python3 benches/shared_ladder.py [--rungs target/release/rungs] [--runs 20] [--dir DIR]

Starts a throwaway server (initdb and pg_ctl into DIR, a Unix socket, no network; as root the
server runs as nobody through setpriv), builds whole_process.py's synthetic 1M-match CSV and
imports it into a ladder file, then times:

- `rungs copy FILE URL`: the whole ladder onto the server;
- a new machine's first pull: `rungs standings URL` with an empty cache directory;
- one `add-match URL` round trip: the whole process (open the replica, ask the server's head,
  the change through the gate, its append, the reply), median of --runs.

Standard library only.
"""

import argparse
import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import whole_process  # noqa: E402


def pg_bin():
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True) + ["/usr/local/bin"]:
        if os.path.exists(os.path.join(d, "initdb")):
            return d
    sys.exit("PostgreSQL's initdb is not installed (apt-get install postgresql)")


def as_server(argv):
    if os.geteuid() == 0:
        return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + argv
    return argv


def timed(argv, env):
    start = time.perf_counter()
    out = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - start
    if out.returncode != 0:
        sys.exit(f"{argv}: {out.stderr.decode()}")
    return took


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rungs", default="target/release/rungs")
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--dir")
    a = p.parse_args()
    work = a.dir or tempfile.mkdtemp(prefix="rungs-shared-bench-")
    os.makedirs(work, exist_ok=True)
    server = os.path.join(work, "pg")
    # A kept --dir keeps its CSV only: a new server and new replicas each run.
    for old in (server, os.path.join(work, "cache-a"), os.path.join(work, "cache-b")):
        shutil.rmtree(old, ignore_errors=True)
    os.makedirs(server, exist_ok=True)
    if os.geteuid() == 0:
        os.chown(server, 65534, 65534)
    bin_dir = pg_bin()
    data = os.path.join(server, "data")
    subprocess.run(as_server([f"{bin_dir}/initdb", "-D", data, "-U", "rungs_admin",
                              "--auth-local=trust", "--no-sync", "-E", "UTF8", "--locale=C"]),
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(as_server([f"{bin_dir}/pg_ctl", "start", "-w", "-D", data, "-l",
                              os.path.join(server, "log"), "-o",
                              f"-k {server} -c listen_addresses=''"]),
                   check=True, stdout=subprocess.DEVNULL)
    try:
        host = server.replace("/", "%2F")
        url = f"postgres://rungs_admin@{host}/postgres?ladder=big"
        csv_path = os.path.join(work, "big.csv")
        if not os.path.exists(csv_path):
            whole_process.build_csv(csv_path)
        ladder = os.path.join(work, "big.rungs")
        if os.path.exists(ladder):
            os.remove(ladder)
        env = dict(os.environ, RUNGS_CACHE_DIR=os.path.join(work, "cache-a"))
        subprocess.run([a.rungs, "new", ladder, "--system", "skyweaver"], check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run([a.rungs, "import", ladder, csv_path], check=True, stdout=subprocess.DEVNULL)
        copy = timed([a.rungs, "copy", ladder, url], env)
        print(f"copy FILE URL (1M matches): {copy:.2f} s (goal 15 s)")
        fresh = dict(os.environ, RUNGS_CACHE_DIR=os.path.join(work, "cache-b"))
        pull = timed([a.rungs, "standings", url], fresh)
        print(f"first pull on a new machine, standings URL: {pull:.2f} s (goal 10 s)")
        trips = []
        names = ["P00000", "P00001"]
        for i in range(a.runs):
            trips.append(timed([a.rungs, "add-match", url, names[i % 2], names[(i + 1) % 2], "1",
                                "--date", "2025-12-31"], fresh))
        print(f"add-match URL round trip, median of {a.runs}: {statistics.median(trips) * 1000:.1f} ms"
              f" (goal 50 ms; min {min(trips) * 1000:.1f}, max {max(trips) * 1000:.1f})")
    finally:
        subprocess.run(as_server([f"{bin_dir}/pg_ctl", "stop", "-m", "immediate", "-D", data]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not a.dir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
