#!/usr/bin/python3
"""Golden fixtures for the competition graders. Each module grader_cases/<id>.py defines
generate(g): it writes an answers file (answers.csv, or answers.jsonl), a leaderboard.csv and
several submissions into test/fixtures/graders/<id>/ (or $MLEBENCH_GRADER_FIXTURES/<id>/) and
records in independent.json, with g.record, the score upstream's steps redone with pandas +
scikit-learn (or the metric written out in numpy) give each one, or None where the submission
must be refused. expected.json, the scores upstream's own grade.py gives, is written by
upstream/oracle.py. Run with Debian's interpreter:
  /usr/bin/python3 scripts/golden/graders.py [ID ...]   (default: all modules)"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "grader_cases")
ROOT = os.environ.get("MLEBENCH_GRADER_FIXTURES") or os.path.join(HERE, "..", "..", "test", "fixtures", "graders")
sys.path.insert(0, CASES)

from _common import Golden  # noqa: E402


def run(cid):
    spec = importlib.util.spec_from_file_location(cid.replace("-", "_"), os.path.join(CASES, cid + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    g = Golden(ROOT, cid)
    module.generate(g)
    g.finish()
    print(cid, len(g.expected), "submissions", file=sys.stderr)


def main():
    ids = sys.argv[1:] or sorted(f[:-3] for f in os.listdir(CASES) if f.endswith(".py") and not f.startswith("_"))
    for cid in ids:
        run(cid)


if __name__ == "__main__":
    main()
