#!/usr/bin/env python3
"""Four writers entering 250 matches each at once on one shared ladder (BENCHMARKS.md).

    python3 benches/shared_writers.py target/release/rungs

Starts a throwaway server as shared_ladder.py does, makes a 16-player Elo ladder on it, runs four
shell loops of `rungs add-match URL …` at once, each with a cache directory of its own (four
machines), then checks that the server holds exactly 1,000 matches and that every replica's
standings equal a fresh replay of `rungs export URL`. Standard library only.
"""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shared_ladder as s  # noqa: E402

R = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/release/rungs")
work = tempfile.mkdtemp(prefix="pg1000-"); os.chmod(work, 0o755)
server = os.path.join(work, "pg"); os.makedirs(server); os.chown(server, 65534, 65534)
b = s.pg_bin(); data = os.path.join(server, "data")
subprocess.run(s.as_server([f"{b}/initdb", "-D", data, "-U", "rungs_admin", "--auth-local=trust", "--no-sync", "-E", "UTF8", "--locale=C"]), check=True, stdout=subprocess.DEVNULL)
subprocess.run(s.as_server([f"{b}/pg_ctl", "start", "-w", "-D", data, "-l", os.path.join(server, "log"), "-o", f"-k {server} -c listen_addresses='' -c max_connections=50"]), check=True, stdout=subprocess.DEVNULL)
try:
    url = "postgres://rungs_admin@" + server.replace("/", "%2F") + "/postgres?ladder=club"
    env0 = dict(os.environ, RUNGS_CACHE_DIR=os.path.join(work, "c0"))
    subprocess.run([R, "new", url, "--system", "elo"], check=True, env=env0, stdout=subprocess.DEVNULL)
    names = [f"P{i:02}" for i in range(16)]
    for n in names:
        subprocess.run([R, "add-player", url, n], check=True, env=env0, stdout=subprocess.DEVNULL)
    script = os.path.join(work, "w.sh")
    open(script, "w").write(f"""#!/bin/bash
export RUNGS_CACHE_DIR={work}/c$1
fails=0
for i in $(seq 1 250); do
  a=P$(printf %02d $(( (i + $1*3) % 16 ))); b=P$(printf %02d $(( (i*7 + $1 + 1) % 16 )))
  [ $a = $b ] && b=P$(printf %02d $(( (i*7 + $1 + 2) % 16 )))
  {R} add-match "{url}" $a $b $(( i % 2 )) --date 2026-11-$(printf %02d $(( 1 + i % 28 ))) > /dev/null 2>> {work}/err$1 || fails=$((fails+1))
done
echo "writer $1 failures $fails"
""")
    t = time.time()
    ps = [subprocess.Popen(["bash", script, str(w)]) for w in range(1, 5)]
    for p in ps: p.wait()
    print(f"4 x 250 took {time.time()-t:.1f} s")
    for w in range(1, 5):
        e = os.path.join(work, f"err{w}")
        if os.path.exists(e) and os.path.getsize(e):
            print(f"err{w}:", open(e).read()[:600])
    out = os.path.join(work, "all.jsonl")
    subprocess.run([R, "export", url, out], check=True, env=env0, stdout=subprocess.DEVNULL)
    matches = sum(1 for l in open(out) if '"kind":"match"' in l)
    print("matches on the server (export):", matches)
    f = os.path.join(work, "fresh.rungs")
    subprocess.run([R, "import-log", f, out], check=True, stdout=subprocess.DEVNULL)
    fresh = subprocess.run([R, "standings", f, "--json"], check=True, capture_output=True).stdout
    for w in range(0, 5):
        env = dict(os.environ, RUNGS_CACHE_DIR=os.path.join(work, f"c{w}"))
        st = subprocess.run([R, "standings", url, "--json"], check=True, env=env, capture_output=True).stdout
        print(f"replica {w}: standings equal to a fresh replay of the export: {st == fresh}")
finally:
    subprocess.run(s.as_server([f"{b}/pg_ctl", "stop", "-m", "immediate", "-D", data]), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
