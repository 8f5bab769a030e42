#!/usr/bin/python3
"""Upstream MLE-bench's own code as the oracle for the graders' and preparers' fixtures.

  /usr/bin/python3 scripts/golden/upstream/oracle.py --upstream PATH [--commit SHA] [--write]
      [--regenerate] [graders|preparers|all] [ID ...]

PATH is a checkout of openai/mle-bench at the pinned commit, or its git directory (then the
commit, by default the one src/sources/upstream/fetch.ts pins, is unpacked with `git archive`).
Upstream's grade.py / prepare.py run on each fixture's committed inputs (submissions and answers,
raw files) and write expected.json and oracle.json. With --regenerate the independent generators
(scripts/golden/graders.py, preparers.py) first rewrite the inputs and independent.json; their
float columns can then differ in the last bit from machine to machine (numpy picks SIMD math
kernels by CPU), so the committed inputs stay the reference. Without --write all of it happens in
a scratch copy, and any file that differs from the committed fixtures is reported (exit 1). Any case where upstream and the
independent re-implementation disagree without a reason in differences-<kind>.json fails too.

Run with Debian's /usr/bin/python3 (numpy, pandas, scikit-learn, scipy, plus python3-levenshtein,
python3-shapely, python3-pil, python3-bson, python3-py7zr, python3-tqdm, python3-yaml:
`bash scripts/setup-system.sh --oracle`)."""
import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(GOLDEN))
FIXTURES = os.path.join(REPO, "test", "fixtures")
STANDINS = os.path.join(HERE, "standins")
sys.path.insert(0, HERE)

import compat  # noqa: E402
from snapshot import Snapshot  # noqa: E402

KINDS = {"graders": ("graders.py", "MLEBENCH_GRADER_FIXTURES"), "preparers": ("preparers.py", "MLEBENCH_PREPARER_FIXTURES")}


def log(message):
    print(message, file=sys.stderr, flush=True)


def extra_shims():
    """Shims only the preparers need (compat_preparers.py)."""
    try:
        import compat_preparers
    except ImportError:
        return []
    return compat_preparers.install()


def standins_used():
    """Modules Debian lacks, served from standins/ (a real installed module always wins)."""
    import importlib.util

    used = []
    for name in sorted(os.listdir(STANDINS)):
        if os.path.isdir(os.path.join(STANDINS, name)) and not name.startswith("_") and importlib.util.find_spec(name) is None:
            used.append(name)
    if used:
        sys.path.append(STANDINS)
    return used


def regenerate(kind, root, ids):
    """Run the independent generator of kind into root (its env variable points it there)."""
    script, variable = KINDS[kind]
    env = {**os.environ, variable: root, "PYTHONWARNINGS": "ignore"}
    subprocess.run([sys.executable, os.path.join(GOLDEN, script), *ids], cwd=REPO, env=env, check=True)


def compare_trees(committed, fresh, ids):
    """Files that differ between the committed fixtures and the fresh ones (either side missing too)."""
    out = []
    for cid in ids or sorted(os.listdir(fresh)):
        a, b = os.path.join(committed, cid), os.path.join(fresh, cid)
        if not os.path.isdir(b):
            continue
        names = set()
        for root, folder in ((a, "committed"), (b, "fresh")):
            for d, _dirs, files in os.walk(root):
                names.update(os.path.relpath(os.path.join(d, f), root) for f in files)
        for rel in sorted(names):
            pa, pb = os.path.join(a, rel), os.path.join(b, rel)
            if not os.path.isfile(pa):
                out.append(f"{cid}/{rel}: not committed")
            elif not os.path.isfile(pb):
                out.append(f"{cid}/{rel}: committed but no longer generated")
            elif not filecmp.cmp(pa, pb, shallow=False):
                out.append(f"{cid}/{rel}: differs")
    return out


def main():
    if os.environ.get("PYTHONHASHSEED") != "0":
        # Upstream's messages print sets; a fixed string hash makes them the same on every run.
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--upstream", required=True, help="checkout or git directory of openai/mle-bench")
    parser.add_argument("--commit", help="commit to unpack from a git directory (default: the pinned one)")
    parser.add_argument("--write", action="store_true", help="write the fixtures in place instead of checking them")
    parser.add_argument("--regenerate", action="store_true", help="rerun the independent generators first (inputs, independent.json)")
    parser.add_argument("kind", nargs="?", default="all", choices=["all", *KINDS])
    parser.add_argument("ids", nargs="*", help="competition ids (default: every fixture)")
    args = parser.parse_args()

    snapshot = Snapshot(args.upstream, args.commit)
    provenance = {
        "upstream_commit": snapshot.commit,
        "libraries": compat.library_versions(),
        "shims": compat.install(),
        "standins": standins_used(),
    }
    log(f"oracle: upstream {snapshot.commit}; shims: {', '.join(provenance['shims']) or 'none'}; stand-ins: {', '.join(provenance['standins']) or 'none'}")

    problems = []
    for kind in KINDS if args.kind == "all" else [args.kind]:
        if kind == "preparers":
            # Installed only now, so the graders' records list only what the graders ran with.
            provenance = {**provenance, "shims": provenance["shims"] + extra_shims()}
            log(f"oracle: preparers also with: {', '.join(provenance['shims'])}")
        committed = os.path.join(FIXTURES, kind)
        with tempfile.TemporaryDirectory(prefix=f"mlebench-oracle-{kind}-") as scratch:
            root = committed if args.write else os.path.join(scratch, kind)
            if not args.write:
                shutil.copytree(committed, root, symlinks=True)
            if args.regenerate:
                regenerate(kind, root, args.ids)
            module = __import__(kind)
            problems += module.run(snapshot, root, args.ids, provenance, log)
            if not args.write:
                problems += [f"{kind}/{p}" for p in compare_trees(committed, root, args.ids)]
    for p in problems:
        log("oracle: " + p)
    log(f"oracle: {len(problems)} problem(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
