"""Upstream's own graders on the grader fixtures. For each test/fixtures/graders/<id>/ it reads every
submission and the answers with upstream's readers (mlebench.utils.read_csv / load_answers) and
scores them with upstream's Grader on the grade_fn its config.yaml names, exactly as `mlebench
grade` upstream does: any exception means an invalid submission, scores rounded to 5 decimals.

It writes expected.json (case -> score, null for invalid, "NaN" for a NaN score) and oracle.json
(the commit, library versions, shims and stand-ins used, why each refused case was refused, and
where the independent re-implementation in independent.json differs, with the reason recorded in
differences-graders.json)."""
import json
import logging
import math
import os
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
DIFFERENCES = os.path.join(HERE, "differences-graders.json")


def _score_json(score):
    if score is None:
        return None
    if isinstance(score, float) and math.isnan(score):
        return "NaN"
    return float(score)


def _answers_file(fixture, config):
    """The fixture's answers file, with the suffix upstream's config gives its answers."""
    suffix = os.path.splitext(config["dataset"]["answers"])[1]
    path = os.path.join(fixture, "answers" + suffix)
    if not os.path.isfile(path):
        raise SystemExit(f"oracle: {fixture} has no answers{suffix} (upstream's answers are {config['dataset']['answers']})")
    return path


def _load(path):
    with open(path) as f:
        return json.load(f)


def _differences():
    return _load(DIFFERENCES) if os.path.isfile(DIFFERENCES) else {}


def grade_fixture(snapshot, fixture, cid, provenance):
    """Score every case of one fixture with upstream's grader; returns the list of problems found."""
    from pathlib import Path

    from mlebench.grade_helpers import Grader
    from mlebench.utils import load_answers, read_csv

    config = snapshot.config(cid)
    grader = Grader.from_dict(config["grader"])
    refusals = {}
    case = {"name": None}
    upstream_fn = grader.grade_fn

    def recording(submission, answers):
        try:
            return upstream_fn(submission, answers)
        except Exception as e:
            refusals[case["name"]] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
            raise

    grader.grade_fn = recording
    independent = _load(os.path.join(fixture, "independent.json"))
    answers_path = Path(_answers_file(fixture, config))
    expected = {}
    for name in sorted(independent):
        case["name"] = name
        submission = read_csv(Path(fixture) / f"{name}.csv")
        expected[name] = _score_json(grader(submission, load_answers(answers_path)))

    known = _differences().get(cid, {})
    problems = []
    differs = {}
    for name in sorted(expected):
        if expected[name] != independent[name]:
            if name not in known:
                problems.append(f"{cid}/{name}: upstream {expected[name]}, independent {independent[name]}, and differences-graders.json gives no reason")
            differs[name] = {"upstream": expected[name], "independent": independent[name], "why": known.get(name)}
    for name in sorted(set(known) - set(differs)):
        problems.append(f"{cid}/{name}: differences-graders.json gives a reason but upstream and independent agree")

    with open(os.path.join(fixture, "expected.json"), "w") as f:
        json.dump(expected, f, indent=2, sort_keys=True)
        f.write("\n")
    oracle = {
        **provenance,
        "grade_fn": config["grader"]["grade_fn"],
        "refused": {k: refusals.get(k, "returned None") for k in sorted(expected) if expected[k] is None},
        "independent_differs": differs,
    }
    with open(os.path.join(fixture, "oracle.json"), "w") as f:
        json.dump(oracle, f, indent=2, sort_keys=True)
        f.write("\n")
    return problems


def run(snapshot, fixtures_root, ids, provenance, log):
    """Grade the fixtures of ids (all with an independent.json when empty); the problems found."""
    # Upstream logs every refusal; oracle.json records them instead.
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")
    ids = ids or sorted(d for d in os.listdir(fixtures_root) if os.path.isfile(os.path.join(fixtures_root, d, "independent.json")))
    problems = []
    for cid in ids:
        fixture = os.path.join(fixtures_root, cid)
        try:
            found = grade_fixture(snapshot, fixture, cid, provenance)
        except Exception as e:  # an import the snapshot needs and this machine lacks, say
            found = [f"{cid}: upstream's grader could not run: {type(e).__name__}: {e}"]
        log(f"grader {cid}: {'agrees' if not found else str(len(found)) + ' difference(s)'}")
        problems += found
    return problems
