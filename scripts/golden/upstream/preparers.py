"""Upstream's own preparers on the preparer fixtures. For each test/fixtures/preparers/<id>/ it copies
raw/ into a scratch data folder laid out as upstream's (`<id>/raw`, `<id>/prepared/public`,
`<id>/prepared/private`), calls the prepare function config.yaml names with those three Paths, as
`mlebench prepare` upstream does, and lists the md5 of every output with preparer_cases/_common's
listing (zips by member), the listing independent.json holds.

It writes expected.json ({"md5": upstream's listing}) and oracle.json: the commit, library versions,
shims and stand-ins used, the preparer, and each file where independent.json differs, with the
reason differences-preparers.json gives ({"<id>": {"<file>": "why"}}). Two keys there are not files:
- "(cannot run)": why upstream's preparer cannot run on this fixture at all. expected.json then keeps
  the independent md5s and oracle.json says so.
- "(fails after writing)": why upstream's preparer may fail on the fixture in a final check after
  every output is written (a check of the real data's size, say); its outputs are then compared.

A file that differs is prepared a second time: where upstream's bytes change from run to run (an
archive recording the copies' times), expected.json and oracle.json hold null for its md5. For a
differing archive (.7z, .tar, .tar.gz) oracle.json also lists the md5 of each member, so its
content can still be compared with upstream's."""
import contextlib
import importlib
import io
import json
import logging
import os
import shutil
import sys
import tarfile
import tempfile
import traceback
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(os.path.dirname(HERE), "preparer_cases")
DIFFERENCES = os.path.join(HERE, "differences-preparers.json")
CANNOT_RUN = "(cannot run)"
FAILS_AFTER_WRITING = "(fails after writing)"
RESERVED = {CANNOT_RUN, FAILS_AFTER_WRITING}

if CASES not in sys.path:
    sys.path.insert(0, CASES)

from _common import listing, md5_bytes  # noqa: E402


def _pack_train_7z(raw):
    """Kaggle ships the speech commands' training audio as train.7z; the fixture keeps it unpacked."""
    import py7zr

    with py7zr.SevenZipFile(os.path.join(raw, "train.7z"), "w") as archive:
        archive.writeall(os.path.join(raw, "train"), "train")
    shutil.rmtree(os.path.join(raw, "train"))


# Raw files laid out as Kaggle ships them where the fixture keeps them in a more reviewable form.
ARRANGE = {"tensorflow-speech-recognition-challenge": _pack_train_7z}


def _load(path):
    with open(path) as f:
        return json.load(f)


def _differences():
    return _load(DIFFERENCES) if os.path.isfile(DIFFERENCES) else {}


def _write_json(path, data):
    with open(path, "w") as f:
        json.dump(data, f, indent=2, sort_keys=True)
        f.write("\n")


def _fresh_preparer(snapshot, cid):
    """The preparer, its module imported afresh so module-level state (a seeded RNG) starts anew."""
    spec = snapshot.config(cid)["preparer"]
    module = importlib.import_module(spec.split(":")[0])
    importlib.reload(module)
    return snapshot.function(spec)


def archive_members(path):
    """md5 of each file member of a 7z or tar archive, by name; None for other files."""
    name = path.lower()
    if name.endswith(".7z"):
        import py7zr

        with py7zr.SevenZipFile(path, "r") as archive:
            if all(info.is_directory for info in archive.list()):
                # Nothing to read (and py7zr refuses to read entries named by absolute paths).
                return {}
            return {k: md5_bytes(v.read()) for k, v in sorted(archive.readall().items())}
    if name.endswith((".tar", ".tar.gz", ".tgz")):
        with tarfile.open(path) as archive:
            return {m.name: md5_bytes(archive.extractfile(m).read()) for m in sorted(archive.getmembers(), key=lambda m: m.name) if m.isfile()}
    return None


class Outcome:
    """What one run of upstream's preparer left: md5 listing, archive members, the failure if any."""

    def __init__(self, md5, members, error, where, in_prepare):
        self.md5, self.members, self.error, self.where, self.in_prepare = md5, members, error, where, in_prepare


def run_upstream(snapshot, fixture, cid, independent):
    """Upstream's preparer on a copy of the fixture's raw/ (independent: the md5s it is compared with)."""
    import compat_preparers

    prepare = _fresh_preparer(snapshot, cid)
    scratch = tempfile.mkdtemp(prefix="mlebench-oracle-prepare-")
    data = os.path.join(scratch, cid)
    raw, public, private = (os.path.join(data, *p) for p in (("raw",), ("prepared", "public"), ("prepared", "private")))
    shutil.copytree(os.path.join(fixture, "raw"), raw, symlinks=True)
    if cid in ARRANGE:
        ARRANGE[cid](raw)
    os.makedirs(public)
    os.makedirs(private)
    # Downloads a preparer makes are served from the fixture's own raw files (compat_preparers).
    compat_preparers.serve_downloads(cid, os.path.join(fixture, "raw"))
    cwd = os.getcwd()
    error = where = None
    in_prepare = False
    try:
        os.chdir(data)
        # Progress bars and prints go nowhere; a failure keeps its traceback.
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            prepare(raw=Path(raw), public=Path(public), private=Path(private))
    except Exception as e:  # noqa: BLE001 - any failure of upstream's code is reported, not raised
        frames = traceback.extract_tb(e.__traceback__)
        error = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
        where = "".join(traceback.format_list(frames[-4:]))
        # A check of prepare's own, as opposed to a failure somewhere in the code it calls.
        in_prepare = isinstance(e, AssertionError) and frames[-1].name == prepare.__name__ and frames[-1].filename == prepare.__code__.co_filename
    finally:
        os.chdir(cwd)
        compat_preparers.serve_downloads(None, None)
    md5 = dict(sorted({**listing("public", public), **listing("private", private)}.items()))
    # Members only of the archives whose bytes differ (the copied raw ones may be stand-ins).
    members = {}
    for name in sorted(n for n in md5 if md5[n] != independent.get(n)):
        label, rel = name.split("/", 1)
        found = archive_members(os.path.join(public if label == "public" else private, rel))
        if found is not None:
            members[name] = found
    shutil.rmtree(scratch, ignore_errors=True)
    return Outcome(md5, members, error, where, in_prepare)


def prepare_fixture(snapshot, fixture, cid, provenance):
    """Run upstream's preparer on one fixture, write expected.json and oracle.json; the problems found."""
    independent = _load(os.path.join(fixture, "independent.json"))["md5"]
    known = _differences().get(cid, {})
    run = run_upstream(snapshot, fixture, cid, independent)
    problems = []
    oracle = {**provenance, "preparer": snapshot.config(cid)["preparer"]}

    if run.error is not None and not (FAILS_AFTER_WRITING in known and run.in_prepare):
        if CANNOT_RUN not in known:
            problems.append(f"{cid}: upstream's preparer failed ({run.error}) and differences-preparers.json gives no reason\n{run.where}")
        oracle.update({"upstream_ran": False, "upstream_error": run.error, "why": known.get(CANNOT_RUN), "independent_differs": {}})
        _write_json(os.path.join(fixture, "expected.json"), {"md5": independent})
        _write_json(os.path.join(fixture, "oracle.json"), oracle)
        return problems

    if CANNOT_RUN in known:
        problems.append(f"{cid}: differences-preparers.json says upstream cannot run, but it ran")
    if FAILS_AFTER_WRITING in known and run.error is None:
        problems.append(f"{cid}: differences-preparers.json says upstream fails after writing, but it did not fail")
    differs = {}
    for name in sorted(set(run.md5) | set(independent)):
        a, b = run.md5.get(name), independent.get(name)
        if a != b:
            if name not in known:
                problems.append(f"{cid}/{name}: upstream {a}, independent {b}, and differences-preparers.json gives no reason")
            differs[name] = {"upstream": a, "independent": b, "why": known.get(name)}
            if name in run.members:
                differs[name]["upstream_members"] = run.members[name]
    for name in sorted(set(known) - set(differs) - RESERVED):
        problems.append(f"{cid}/{name}: differences-preparers.json gives a reason but upstream and independent agree")

    expected = dict(run.md5)
    if differs:
        again = run_upstream(snapshot, fixture, cid, independent)
        for name, entry in differs.items():
            entry["upstream_reproducible"] = again.md5.get(name) == run.md5.get(name)
            if not entry["upstream_reproducible"]:
                # An md5 that changes with every run pins nothing; the members (if any) still do.
                entry["upstream"] = expected[name] = None

    oracle.update({"upstream_ran": True, "independent_differs": differs})
    if run.error is not None:
        oracle.update({"upstream_error": run.error, "why_outputs_used": known[FAILS_AFTER_WRITING]})
    _write_json(os.path.join(fixture, "expected.json"), {"md5": expected})
    _write_json(os.path.join(fixture, "oracle.json"), oracle)
    return problems


def run(snapshot, fixtures_root, ids, provenance, log):
    """Prepare the fixtures of ids (all with an independent.json when empty); the problems found."""
    # Upstream logs every step; the listing is what counts.
    logging.disable(logging.CRITICAL)
    ids = ids or sorted(d for d in os.listdir(fixtures_root) if os.path.isfile(os.path.join(fixtures_root, d, "independent.json")))
    problems = []
    for cid in ids:
        found = prepare_fixture(snapshot, os.path.join(fixtures_root, cid), cid, provenance)
        log(f"preparer {cid}: {'agrees' if not found else str(len(found)) + ' problem(s)'}")
        problems += found
    return problems
