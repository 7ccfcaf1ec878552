#!/usr/bin/env python3
"""Whole-process timings of rungs beside reference programs (BENCHMARKS.md), interleaved in one run.

    cargo build --release
    python3 benches/whole_process.py [--rungs target/release/rungs] [--runs 5] [--dir DIR]
                                     [--only WORDS] [--against OTHER_RUNGS]

Builds a deterministic synthetic CSV (10,000 players with normally distributed skills,
1,000,000 matches dated over four centuries ending 2025-12-31, 10 % draws), then for each row
runs rungs and its reference alternately, `--runs` times each, and prints the medians (wall
time, peak memory of the process) and the ratio against the goal. `--only import` runs the
rows whose name holds the word; `--against OLD` runs another build's rungs in the same
interleaving (ours, the reference, the other's, in turn), for a before/after on a machine whose
load changes from minute to minute. Each figure also gives the process's CPU seconds (user and
system, all its threads), which another process's load disturbs less than the wall time.
Standard library only.
"""

import argparse
import datetime
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

PLAYERS = 10_000
MATCHES = 1_000_000
LAST_DAY = datetime.date(2025, 12, 31)
FIRST_DAY = datetime.date(1626, 1, 1)  # four centuries before the last


def build_csv(path, seed=27):
    """The synthetic CSV: same seed, same file, byte for byte."""
    rng = random.Random(seed)
    skill = [rng.gauss(0.0, 200.0) for _ in range(PLAYERS)]
    span = (LAST_DAY - FIRST_DAY).days
    with open(path, "w", newline="") as f:
        f.write("date,player_a,player_b,score\n")
        for i in range(MATCHES):
            day = FIRST_DAY + datetime.timedelta(days=i * span // (MATCHES - 1))
            a = rng.randrange(PLAYERS)
            b = rng.randrange(PLAYERS - 1)
            if b >= a:
                b += 1
            p_a = 1.0 / (1.0 + 10.0 ** ((skill[b] - skill[a]) / 400.0))
            roll = rng.random()
            score = "0.5" if roll < 0.1 else ("1" if roll < 0.1 + 0.9 * p_a else "0")
            f.write(f"{day.isoformat()},P{a:05},P{b:05},{score}\n")


def timed(argv, stdout=subprocess.DEVNULL):
    """Wall seconds, peak resident MB and CPU seconds (user + system) of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)} failed:\n{err}")
    return wall, usage.ru_maxrss / 1024.0, usage.ru_utime + usage.ru_stime


def python_sqlite_insert(csv_path, db_path):
    """Reference: Python's sqlite3 inserting the CSV's rows into a plain table, one commit."""
    code = (
        "import csv, sqlite3, sys\n"
        "db = sqlite3.connect(sys.argv[2])\n"
        "db.execute('CREATE TABLE m(date TEXT, a TEXT, b TEXT, score TEXT)')\n"
        "with open(sys.argv[1], newline='') as f:\n"
        "    r = csv.reader(f); next(r)\n"
        "    db.executemany('INSERT INTO m VALUES (?, ?, ?, ?)', r)\n"
        "db.commit()\n"
    )
    return [sys.executable, "-c", code, csv_path, db_path]


def python_csv_read(csv_path):
    """Reference: Python's csv module merely reading the CSV."""
    code = (
        "import csv, sys\n"
        "with open(sys.argv[1], newline='') as f:\n"
        "    for _ in csv.reader(f): pass\n"
    )
    return [sys.executable, "-c", code, csv_path]


def fresh(path):
    for suffix in ("", "-wal", "-shm"):
        try:
            os.remove(path + suffix)
        except FileNotFoundError:
            pass


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rungs", default=os.path.join(repo, "target", "release", "rungs"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--dir", default=None, help="where the CSV and ladders go (kept)")
    ap.add_argument("--only", default=None, help="run only the rows whose name holds this")
    ap.add_argument("--against", default=None,
                    help="another rungs binary run in the same interleaving (before/after)")
    args = ap.parse_args()
    rungs = os.path.abspath(args.rungs)
    other = os.path.abspath(args.against) if args.against else None
    work = args.dir or tempfile.mkdtemp(prefix="rungs-whole-")
    os.makedirs(work, exist_ok=True)
    csv_path = os.path.join(work, "synthetic-1m.csv")
    if not os.path.exists(csv_path):
        print(f"building {csv_path} …", file=sys.stderr)
        build_csv(csv_path)
    ladder = os.path.join(work, "bench.rungs")
    scratch = os.path.join(work, "scratch.rungs")
    ref_db = os.path.join(work, "reference.sqlite")
    intl = os.path.join(work, "intl.rungs")
    intl_csv = os.path.join(repo, "assets", "international_results.csv.gz")

    def import_new(path, binary=rungs):
        fresh(path)
        subprocess.run([binary, "new", path, "--system", "skyweaver"], check=True,
                       stdout=subprocess.DEVNULL)
        return [binary, "import", path, csv_path]

    # The ladders the read-only rows use.
    subprocess.run(import_new(ladder), check=True, stdout=subprocess.DEVNULL)
    fresh(intl)
    subprocess.run([rungs, "new", intl, "--system", "skyweaver"], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run([rungs, "import", intl, intl_csv, "--preset", "international"],
                   check=True, stdout=subprocess.DEVNULL)

    # (work, goal ratio or absolute seconds, rungs argv maker (given the binary), reference
    # argv maker, reference's name)
    rows = [
        ("import into a new skyweaver ladder", ("ratio", 0.6),
         lambda b: import_new(scratch, b),
         lambda: (fresh(ref_db), python_sqlite_insert(csv_path, ref_db))[1],
         "Python sqlite3 executemany"),
        ("replay FILE --json", ("ratio", 0.3),
         lambda b: [b, "replay", ladder, "--json"],
         lambda: python_csv_read(csv_path), "Python csv reading"),
        ("evaluate FILE (every system)", ("ratio", 2.5),
         lambda b: [b, "evaluate", ladder],
         lambda: [rungs, "replay", ladder, "--json"], "one rungs replay"),
        ("check FILE", ("ratio", 1.5),
         lambda b: [b, "check", ladder],
         lambda: [rungs, "replay", ladder, "--json"], "one rungs replay"),
        ("fit intl (skyweaver, 3 parameters)", ("seconds", 0.5),
         lambda b: [b, "fit", intl, "--until", "2000-01-01", "--system", "skyweaver"],
         None, "—"),
    ]
    if args.only:
        rows = [r for r in rows if args.only in r[0]]
    print(f"rungs: {rungs}\nwork: {work}\nruns: {args.runs} each, interleaved")
    if other:
        print(f"against: {other} (the rows marked \"against\")")
    print()
    print("| work | rungs | reference | ratio | goal |")
    print("|---|---:|---:|---:|---:|")

    def median(runs):
        return [statistics.median(r[i] for r in runs) for i in range(3)]

    for name, goal, ours, theirs, ref_name in rows:
        mine, refs, others = [], [], []
        for _ in range(args.runs):
            mine.append(timed(ours(rungs)))
            if theirs:
                refs.append(timed(theirs()))
            if other:
                others.append(timed(ours(other)))
        r = median(refs)[0] if refs else None
        for label, runs in [(name, mine), (f"{name} (against)", others)]:
            if not runs:
                continue
            t, mb, cpu = median(runs)
            figure = f"{t:.2f} s, {mb:.0f} MB, CPU {cpu:.2f} s"
            if r is not None:
                ratio = t / r
                ok = "✓" if ratio <= goal[1] else "✗"
                print(f"| {label} | {figure} | {ref_name}: {r:.2f} s | "
                      f"{ratio:.2f}× | ≤ {goal[1]}× {ok} |")
            else:
                ok = "✓" if t <= goal[1] else "✗"
                print(f"| {label} | {figure} | — | — | ≤ {goal[1]} s {ok} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
