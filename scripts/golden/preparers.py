#!/usr/bin/env python3
"""Oracle for the upstream preparers. Each module in preparer_cases/ (named after a competition)
writes synthetic raw files shaped like that competition's Kaggle data (make_raw) and applies
upstream's documented preparation steps with pandas + scikit-learn (prepare). This script runs
them and records the md5 of every produced file in test/fixtures/preparers/<id>/independent.json,
next to the raw files (upstream's own preparers then write expected.json from the same raw files:
scripts/golden/upstream/oracle.py). MLEBENCH_PREPARER_FIXTURES names another fixtures root.
Run with Debian's /usr/bin/python3: `preparers.py [ID ...]` (default all)."""
import importlib.util
import json
import os
import shutil
import sys
import tempfile

import pandas as pd
import sklearn

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "preparer_cases")
ROOT = os.environ.get("MLEBENCH_PREPARER_FIXTURES") or os.path.join(HERE, "..", "..", "test", "fixtures", "preparers")
sys.path.insert(0, CASES)

from _common import listing  # noqa: E402


def load(cid):
    spec = importlib.util.spec_from_file_location(cid.replace("-", "_"), os.path.join(CASES, cid + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(cid):
    case = load(cid)
    out = os.path.join(ROOT, cid)
    shutil.rmtree(os.path.join(out, "raw"), ignore_errors=True)
    os.makedirs(os.path.join(out, "raw"))
    case.make_raw(os.path.join(out, "raw"))
    with tempfile.TemporaryDirectory() as tmp:
        public, private = os.path.join(tmp, "public"), os.path.join(tmp, "private")
        os.makedirs(public)
        os.makedirs(private)
        # The preparer may unpack into raw/; it works on a copy so the fixture stays as shipped.
        raw_copy = os.path.join(tmp, "raw")
        shutil.copytree(os.path.join(out, "raw"), raw_copy)
        case.prepare(raw_copy, public, private)
        expected = dict(sorted({**listing("public", public), **listing("private", private)}.items()))
    with open(os.path.join(out, "independent.json"), "w") as f:
        json.dump({"pandas": pd.__version__, "sklearn": sklearn.__version__, "md5": expected}, f, indent=2)
        f.write("\n")
    print(cid, len(expected), "files", file=sys.stderr)


def main():
    ids = sys.argv[1:] or sorted(f[:-3] for f in os.listdir(CASES) if f.endswith(".py") and not f.startswith("_"))
    for cid in ids:
        run(cid)


if __name__ == "__main__":
    main()
