#!/usr/bin/python3
"""Run a command several times; print JSON with each wall time and the peak RSS of the runs.

Usage: measure.py REPEATS -- COMMAND...
"""
import json
import resource
import subprocess
import sys
import time

repeats = int(sys.argv[1])
cmd = sys.argv[sys.argv.index("--") + 1:]
times = []
out = ""
for _ in range(repeats):
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    times.append(time.perf_counter() - t0)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        sys.exit(f"command failed with status {proc.returncode}: {' '.join(cmd)}")
    out = proc.stdout
peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"times": times, "peak_rss_mib": peak_kib / 1024, "stdout": out}))
