#!/usr/bin/python3
"""Golden values for the non-classification metrics in src/metrics/.

Run with Debian's interpreter, which has scikit-learn 1.2, scipy 1.10 and numpy 1.24:

    /usr/bin/python3 scripts/golden/metrics_other.py

It writes test/golden/metrics-other.json. The seed is fixed and the output is
deterministic, so rerunning the script must reproduce the file byte for byte.

Reference values come from scikit-learn / scipy / numpy where they implement the
metric. Levenshtein distance, MAP@k, Dice, the HMS KL divergence and RLE have no
library here, so this script carries small, deliberately plain implementations of
their definitions (quadratic DP, explicit loops) that share no code with the
TypeScript versions.

JSON cannot hold NaN or infinities; they are written as the strings "NaN",
"Infinity" and "-Infinity". An expected value of {"error": "..."} means the call
must throw; the text is the reference implementation's message, for context only.
"""

import json
import math
import os
import sys
import warnings

import numpy as np
import scipy
import sklearn
from scipy import stats
from sklearn import metrics as skm

warnings.simplefilter("ignore")

SEED = 20240611
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "golden", "metrics-other.json")


def enc(x):
    """Convert to JSON-safe values, spelling out non-finite floats."""
    if isinstance(x, dict):
        return {k: enc(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [enc(v) for v in x]
    if isinstance(x, np.ndarray):
        return [enc(v) for v in x.tolist()]
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        f = float(x)
        if math.isnan(f):
            return "NaN"
        if math.isinf(f):
            return "Infinity" if f > 0 else "-Infinity"
        return f
    return x


def outcome(fn):
    """Run fn; return its value, or {"error": message} if it raises."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - every failure is a golden "must throw"
        return {"error": f"{type(e).__name__}: {e}"}


rng = np.random.default_rng(SEED)


def floats(n, scale=1.0):
    return (rng.standard_normal(n) * scale).tolist()


# ---------------------------------------------------------------- regression


def rmsle_log1p(t, p):
    # scikit-learn >= 1.6 semantics: only values <= -1 are outside log1p's domain.
    skm.mean_squared_error(t, p)  # same input validation (lengths, NaN, empty)
    if any(v <= -1 for v in t) or any(v <= -1 for v in p):
        raise ValueError("values less than or equal to -1")
    value = float(np.sqrt(skm.mean_squared_error(np.log1p(t), np.log1p(p))))
    if min(t) >= 0 and min(p) >= 0:
        assert value == float(np.sqrt(skm.mean_squared_log_error(t, p)))
    return value


def regression_case(name, t, p):
    return {
        "name": name,
        "y_true": t,
        "y_pred": p,
        "expected": {
            "mse": outcome(lambda: float(skm.mean_squared_error(t, p))),
            "rmse": outcome(lambda: float(np.sqrt(skm.mean_squared_error(t, p)))),
            "mae": outcome(lambda: float(skm.mean_absolute_error(t, p))),
            "r2": outcome(lambda: float(skm.r2_score(t, p))),
            "rmsle": outcome(lambda: rmsle_log1p(t, p)),
            "rmsle_nonnegative": outcome(lambda: float(np.sqrt(skm.mean_squared_log_error(t, p)))),
        },
    }


def regression_cases():
    cases = []
    for i in range(4):
        n = int(rng.integers(2, 300))
        t = floats(n, 3.0)
        p = (np.array(t) + rng.standard_normal(n)).tolist()
        cases.append(regression_case(f"random normal {i} (n={n})", t, p))
    for i in range(3):
        n = int(rng.integers(2, 200))
        t = rng.exponential(2.0, n).tolist()
        p = (np.array(t) * rng.uniform(0.5, 1.5, n)).tolist()
        cases.append(regression_case(f"non-negative {i} (n={n})", t, p))
    n = 16500  # spans three numpy summation chunks; one decimal keeps the JSON small
    t = np.round(rng.exponential(100.0, n), 1)
    p = np.round(t + rng.standard_normal(n) * 5, 1)
    cases.append(regression_case("large n", t.tolist(), p.tolist()))
    t = rng.integers(0, 10, 50).astype(float).tolist()
    cases.append(regression_case("integers with ties", t, rng.integers(0, 10, 50).astype(float).tolist()))
    cases.append(regression_case("large magnitude", floats(40, 1e8), floats(40, 1e8)))
    cases.append(regression_case("perfect prediction", [1.5, 2.0, -3.0, 4.25], [1.5, 2.0, -3.0, 4.25]))
    cases.append(regression_case("constant y_true, perfect", [2.0] * 5, [2.0] * 5))
    cases.append(regression_case("constant y_true, imperfect", [2.0] * 5, [2.0, 2.0, 2.5, 2.0, 1.0]))
    cases.append(regression_case("single sample", [3.0], [2.5]))
    cases.append(regression_case("negatives above -1", [0.5, -0.25, 2.0, 0.0], [-0.5, 0.1, 1.5, 0.2]))
    cases.append(regression_case("value exactly -1", [0.5, -1.0, 2.0], [0.5, 0.0, 1.0]))
    cases.append(regression_case("below -1", [0.5, 1.0, 2.0], [0.5, -3.0, 1.0]))
    cases.append(regression_case("length mismatch", [1.0, 2.0, 3.0], [1.0, 2.0]))
    cases.append(regression_case("empty", [], []))
    cases.append(regression_case("NaN in y_true", [1.0, float("nan"), 3.0], [1.0, 2.0, 3.0]))
    cases.append(regression_case("infinity in y_pred", [1.0, 2.0, 3.0], [1.0, float("inf"), 3.0]))
    return cases


# ---------------------------------------------------------------- ranks and correlation


def rank_cases():
    inputs = [
        ("random floats", floats(30)),
        ("small integers with ties", rng.integers(0, 5, 40).astype(float).tolist()),
        ("all equal", [7.0] * 6),
        ("empty", []),
        ("single", [3.5]),
        ("with infinities", [1.0, float("inf"), -float("inf"), 1.0, float("inf")]),
        ("signed zeros tie", [0.0, -0.0, 1.0, -1.0]),
        ("contains NaN", [1.0, float("nan"), 0.0]),
        ("large with ties", rng.integers(0, 100, 5000).astype(float).tolist()),
        ("descending", [5.0, 4.0, 3.0, 2.0, 1.0]),
    ]
    cases = []
    for name, v in inputs:
        case = {"name": name, "values": v, "expected": stats.rankdata(v, method="average").tolist()}
        if any(math.isinf(x) for x in v) and not any(math.isnan(x) for x in v):
            # scipy 1.10 detects NaN by summing, so +inf and -inf together look like NaN and every
            # rank becomes NaN; later scipy ranks them. Rank order-preserving finite stand-ins.
            finite = [math.copysign(1e308, x) if math.isinf(x) else x for x in v]
            case["expected"] = stats.rankdata(finite, method="average").tolist()
            case["note"] = "scipy 1.10 returns all NaN here (NaN check by summation); newer scipy ranks"
        cases.append(case)
    return cases


def corr_case(name, x, y):
    case = {
        "name": name,
        "x": x,
        "y": y,
        "expected": {
            "pearson": outcome(lambda: float(stats.pearsonr(x, y)[0])),
            "spearman": outcome(lambda: float(stats.spearmanr(x, y).correlation)),
            "kendall": outcome(lambda: float(stats.kendalltau(x, y).correlation)),
        },
    }
    if len(x) == len(y) >= 3 and not all(math.isfinite(v) for v in x + y):
        # scipy 1.10's pearsonr raises here (scipy.linalg.norm checks finiteness); scipy >= 1.13
        # switched to a NaN-propagating norm, so the statistic is NaN, which is what we follow.
        case["expected"]["pearson"] = float("nan")
        case["note"] = "pearson: scipy 1.10 raises on non-finite input; newer scipy returns NaN"
    return case


def correlation_cases():
    cases = []
    for i in range(3):
        n = int(rng.integers(3, 300))
        x = floats(n)
        y = (np.array(x) * rng.uniform(-1, 1) + rng.standard_normal(n)).tolist()
        cases.append(corr_case(f"random {i} (n={n})", x, y))
    for i in range(2):
        n = int(rng.integers(10, 200))
        cases.append(
            corr_case(
                f"heavy ties {i} (n={n})",
                rng.integers(0, 4, n).astype(float).tolist(),
                rng.integers(0, 3, n).astype(float).tolist(),
            )
        )
    n = 4000
    x = rng.integers(0, 50, n).astype(float)
    cases.append(corr_case("large n with ties", x.tolist(), (x + rng.integers(0, 30, n)).astype(float).tolist()))
    cases.append(corr_case("perfect monotone", [1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 4.0, 9.0, 16.0, 25.0]))
    cases.append(corr_case("perfect reversed", [1.0, 2.0, 3.0, 4.0], [8.0, 6.0, 4.0, 2.0]))
    cases.append(corr_case("constant x", [2.0, 2.0, 2.0, 2.0], [1.0, 2.0, 3.0, 4.0]))
    cases.append(corr_case("constant y", [1.0, 2.0, 3.0], [5.0, 5.0, 5.0]))
    cases.append(corr_case("two points", [1.0, 3.0], [4.0, 2.0]))
    cases.append(corr_case("one point", [1.0], [2.0]))
    cases.append(corr_case("empty", [], []))
    cases.append(corr_case("contains NaN", [1.0, 2.0, float("nan"), 4.0], [1.0, 3.0, 2.0, 4.0]))
    cases.append(corr_case("contains infinity", [1.0, 2.0, float("inf"), 4.0], [1.0, 3.0, 2.0, 4.0]))
    cases.append(corr_case("length mismatch", [1.0, 2.0, 3.0], [1.0, 2.0]))
    return cases


# ---------------------------------------------------------------- Jaccard


def set_jaccard(a, b, both_empty):
    sa, sb = set(a), set(b)
    if not sa and not sb:
        return both_empty
    return len(sa & sb) / len(sa | sb)


def jaccard_similarity_cases():
    words = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran"]
    cases = []
    for i in range(6):
        a = [words[j] for j in rng.integers(0, len(words), int(rng.integers(0, 8)))]
        b = [words[j] for j in rng.integers(0, len(words), int(rng.integers(1, 8)))]
        cases.append({"name": f"random words {i}", "a": a, "b": b, "both_empty": None,
                      "expected": set_jaccard(a, b, float("nan"))})
    cases.append({"name": "both empty default", "a": [], "b": [], "both_empty": None, "expected": float("nan")})
    cases.append({"name": "both empty 0.5", "a": [], "b": [], "both_empty": 0.5, "expected": 0.5})
    cases.append({"name": "one empty", "a": [], "b": ["x"], "both_empty": 0.5, "expected": 0.0})
    cases.append({"name": "duplicates", "a": ["x", "x", "y"], "b": ["y", "y"], "both_empty": None,
                  "expected": set_jaccard(["x", "x", "y"], ["y", "y"], float("nan"))})
    cases.append({"name": "numbers", "a": [1, 2, 3, 4], "b": [3, 4, 5], "both_empty": None,
                  "expected": set_jaccard([1, 2, 3, 4], [3, 4, 5], float("nan"))})
    return cases


def jscore_case(name, t, p, average, pos_label=None):
    kwargs = {"average": average, "zero_division": 0}
    if pos_label is not None:
        kwargs["pos_label"] = pos_label
    return {
        "name": name,
        "y_true": t,
        "y_pred": p,
        "average": average,
        "pos_label": pos_label,
        "expected": outcome(lambda: float(skm.jaccard_score(t, p, **kwargs))),
    }


def jaccard_score_cases():
    cases = []
    t = rng.integers(0, 2, 60).tolist()
    p = rng.integers(0, 2, 60).tolist()
    for avg in ["binary", "micro", "macro"]:
        cases.append(jscore_case(f"binary labels, {avg}", t, p, avg))
    cases.append(jscore_case("binary labels, pos_label=0", t, p, "binary", 0))
    cases.append(jscore_case("all zeros, binary", [0, 0, 0], [0, 0, 0], "binary"))
    cases.append(jscore_case("all zeros, macro", [0, 0, 0], [0, 0, 0], "macro"))
    cases.append(jscore_case("string labels, pos_label", ["pos", "neg", "pos"], ["pos", "pos", "neg"], "binary", "pos"))
    cases.append(jscore_case("string labels, default pos_label", ["pos", "neg"], ["pos", "pos"], "binary"))
    mt = rng.integers(0, 4, 50).tolist()
    mp = rng.integers(0, 4, 50).tolist()
    cases.append(jscore_case("multiclass, binary", mt, mp, "binary"))
    cases.append(jscore_case("multiclass, micro", mt, mp, "micro"))
    cases.append(jscore_case("multiclass, macro", mt, mp, "macro"))
    cases.append(jscore_case("labels, samples", t, p, "samples"))
    yt = (rng.random((30, 5)) < 0.4).astype(int)
    yp = (rng.random((30, 5)) < 0.4).astype(int)
    yt[3, :] = 0
    yp[3, :] = 0
    yt[:, 2] = 0
    yp[:, 2] = 0
    for avg in ["micro", "macro", "samples", "binary"]:
        cases.append(jscore_case(f"multilabel, {avg}", yt.tolist(), yp.tolist(), avg))
    cases.append(jscore_case("multilabel vs labels", [[0, 1], [1, 1]], [0, 1], "macro"))
    cases.append(jscore_case("multilabel with a 2", [[0, 2], [1, 1]], [[0, 1], [0, 0]], "macro"))
    cases.append(jscore_case("continuous labels", [0.5, 1.0], [1.0, 1.0], "binary"))
    cases.append(jscore_case("empty, micro", [], [], "micro"))
    return cases


# ---------------------------------------------------------------- Levenshtein


def plain_levenshtein(a, b):
    """Full-table DP over Python sequence items (code points for str)."""
    rows, cols = len(a) + 1, len(b) + 1
    d = [[0] * cols for _ in range(rows)]
    for i in range(rows):
        d[i][0] = i
    for j in range(cols):
        d[0][j] = j
    for i in range(1, rows):
        for j in range(1, cols):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    return d[-1][-1]


def random_text(n, alphabet):
    return "".join(alphabet[j] for j in rng.integers(0, len(alphabet), n))


def mutate(s, edits, alphabet):
    chars = list(s)
    for _ in range(edits):
        op = int(rng.integers(0, 3))
        pos = int(rng.integers(0, len(chars) + 1))
        ch = alphabet[int(rng.integers(0, len(alphabet)))]
        if op == 0:
            chars.insert(pos, ch)
        elif op == 1 and chars:
            del chars[min(pos, len(chars) - 1)]
        elif chars:
            chars[min(pos, len(chars) - 1)] = ch
    return "".join(chars)


def levenshtein_cases():
    cases = []
    ascii_alpha = "abcde"
    inchi_alpha = "CHNO0123456789/()-,=+"
    for i in range(4):
        a = random_text(int(rng.integers(0, 60)), ascii_alpha)
        b = random_text(int(rng.integers(0, 60)), ascii_alpha)
        cases.append({"name": f"random short {i}", "a": a, "b": b})
    for i in range(3):
        a = "InChI=1S/" + random_text(int(rng.integers(150, 400)), inchi_alpha)
        b = mutate(a, int(rng.integers(1, 40)), inchi_alpha)
        cases.append({"name": f"long near-identical {i}", "a": a, "b": b})
    emoji_alpha = ["a", "é", "e\u0301", "\U0001F600", "\U0001F4A9", "中", "ß"]
    for i in range(2):
        a = "".join(emoji_alpha[j] for j in rng.integers(0, len(emoji_alpha), int(rng.integers(0, 30))))
        b = mutate(a, 5, "".join(emoji_alpha))
        cases.append({"name": f"astral and combining {i}", "a": a, "b": b})
    cases.append({"name": "both empty", "a": "", "b": ""})
    cases.append({"name": "one empty", "a": "", "b": "kitten"})
    cases.append({"name": "identical", "a": "sitting", "b": "sitting"})
    cases.append({"name": "classic", "a": "kitten", "b": "sitting"})
    cases.append({"name": "emoji vs letter", "a": "\U0001F600", "b": "a"})
    for c in cases:
        c["expected"] = plain_levenshtein(c["a"], c["b"])

    seq_cases = []
    vocab = ["the", "of", "and", "to", "in", "a", "is", "that"]
    for i in range(4):
        a = [vocab[j] for j in rng.integers(0, len(vocab), int(rng.integers(0, 40)))]
        b = list(a)
        for _ in range(int(rng.integers(0, 8))):
            pos = int(rng.integers(0, len(b) + 1))
            if rng.random() < 0.5 or not b:
                b.insert(pos, vocab[int(rng.integers(0, len(vocab)))])
            else:
                del b[min(pos, len(b) - 1)]
        seq_cases.append({"name": f"random tokens {i}", "a": a, "b": b})
    seq_cases.append({"name": "gesture ids", "a": [3, 14, 7, 7, 2], "b": [3, 7, 7, 9, 2, 1]})
    seq_cases.append({"name": "empty vs tokens", "a": [], "b": ["x", "y"]})
    for c in seq_cases:
        c["expected"] = plain_levenshtein(c["a"], c["b"])
    return cases, seq_cases


# ---------------------------------------------------------------- MAP@k


def plain_apk(actual, predicted, k):
    if not actual:
        return 0.0
    predicted = predicted[:k]
    hits = 0
    total = 0.0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            hits += 1
            total += hits / (i + 1)
    return total / min(len(actual), k)


def map_cases():
    items = [f"w{j}" for j in range(12)]
    cases = []
    for i, k in enumerate([1, 3, 5, 5, 10]):
        rows = int(rng.integers(1, 40))
        actual, predicted = [], []
        for _ in range(rows):
            actual.append(sorted({items[j] for j in rng.integers(0, len(items), int(rng.integers(0, 4)))}))
            predicted.append([items[j] for j in rng.integers(0, len(items), int(rng.integers(0, 8)))])
        scores = [plain_apk(set(a), p, k) for a, p in zip(actual, predicted)]
        cases.append({"name": f"random {i} (k={k})", "actual": actual, "predicted": predicted, "k": k,
                      "expected_rows": scores, "expected": float(np.mean(scores))})
    fixed = [
        ("duplicate hit counts once", [["a", "b"]], [["a", "a", "b"]], 3),
        ("hit after cutoff ignored", [["a"]], [["x", "y", "a"]], 2),
        ("empty actual scores 0", [[]], [["a", "b"]], 5),
        ("empty prediction", [["a"]], [[]], 5),
        ("more actual than k", [["a", "b", "c", "d"]], [["a", "b"]], 2),
        ("perfect", [["a"], ["b"]], [["a", "z"], ["b"]], 5),
    ]
    for name, actual, predicted, k in fixed:
        scores = [plain_apk(set(a), p, k) for a, p in zip(actual, predicted)]
        cases.append({"name": name, "actual": actual, "predicted": predicted, "k": k,
                      "expected_rows": scores, "expected": float(np.mean(scores))})
    cases.append({"name": "no rows", "actual": [], "predicted": [], "k": 5, "expected_rows": [],
                  "expected": float("nan")})
    return cases


# ---------------------------------------------------------------- KL divergence (HMS)


def plain_kl(solution, submission, eps=1e-15, micro=True, weights=None):
    """The Kaggle metric's arithmetic on plain arrays, with pandas' NaN skipping made explicit."""
    sol = np.array(solution, dtype=float)
    sub = np.array(submission, dtype=float)
    for name, arr in (("solution", sol), ("submission", sub)):
        if np.nanmin(arr) < 0:
            raise ValueError(f"All target values in {name} must be at least zero")
        if np.nanmax(arr) > 1:
            raise ValueError(f"All target values in {name} must be no greater than one")
        if not np.allclose(np.nansum(arr, axis=1), 1):
            raise ValueError(f"Target values in {name} do not add to one within all rows")
    q = np.clip(sub, eps, 1 - eps)
    with np.errstate(all="ignore"):
        terms = np.where(sol != 0, sol * np.log(sol / q), 0.0)
    if micro:
        return float(np.average(np.nansum(terms, axis=1), weights=weights))
    return float(np.average(np.nanmean(terms, axis=0)))


def dirichlet_rows(n, k, zero_prob):
    rows = rng.dirichlet(np.ones(k), n)
    mask = rng.random((n, k)) < zero_prob
    mask[np.arange(n), rng.integers(0, k, n)] = False
    rows = np.where(mask, 0.0, rows)
    return rows / rows.sum(axis=1, keepdims=True)


def kl_case(name, solution, submission, **opts):
    sol = solution.tolist() if isinstance(solution, np.ndarray) else solution
    sub = submission.tolist() if isinstance(submission, np.ndarray) else submission
    kw = {}
    if "eps" in opts:
        kw["eps"] = opts["eps"]
    if "micro" in opts:
        kw["micro"] = opts["micro"]
    if "weights" in opts:
        kw["weights"] = opts["weights"]
    return {"name": name, "solution": sol, "submission": sub, "options": opts,
            "expected": outcome(lambda: plain_kl(sol, sub, **kw))}


def kl_cases():
    cases = []
    for i in range(3):
        n = int(rng.integers(5, 120))
        # HMS-style votes: many zero cells in the solution.
        votes = rng.integers(0, 4, (n, 6)).astype(float)
        votes[np.arange(n), rng.integers(0, 6, n)] += 1
        sol = votes / votes.sum(axis=1, keepdims=True)
        sub = dirichlet_rows(n, 6, 0.0)
        cases.append(kl_case(f"votes vs dirichlet {i} (n={n})", sol, sub))
    sol = dirichlet_rows(40, 6, 0.4)
    sub = dirichlet_rows(40, 6, 0.5)  # zeros in the submission exercise the clip at eps
    cases.append(kl_case("submission zeros clipped", sol, sub))
    cases.append(kl_case("column average", sol, sub, micro=False))
    cases.append(kl_case("sample weights", sol, sub, weights=rng.uniform(0, 2, 40).tolist()))
    cases.append(kl_case("custom eps", sol, sub, eps=1e-6))
    cases.append(kl_case("kaggle docstring example", [[0, 1], [1, 0], [1, 0], [0, 1]],
                         [[0.1, 0.9], [0.9, 0.1], [0.8, 0.2], [0.35, 0.65]]))
    cases.append(kl_case("identical", [[0, 0.1, 0.9], [0.5, 0.5, 0]], [[0, 0.1, 0.9], [0.5, 0.5, 0]]))
    cases.append(kl_case("one-hot submission", [[0.2, 0.8], [0.5, 0.5]], [[1.0, 0.0], [0.0, 1.0]]))
    cases.append(kl_case("row sum within allclose", [[0.5, 0.5]], [[0.5, 0.500009]]))
    cases.append(kl_case("row sum outside allclose", [[0.5, 0.5]], [[0.5, 0.50002]]))
    cases.append(kl_case("negative submission", [[0.5, 0.5]], [[-0.1, 1.1]]))
    cases.append(kl_case("above one in solution", [[1.5, 0.0]], [[0.5, 0.5]]))
    nan = float("nan")
    cases.append(kl_case("NaN cell in submission", [[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]],
                         [[nan, 1.0, 0.0], [0.2, 0.3, 0.5]]))
    cases.append(kl_case("NaN cell in solution, columns", [[nan, 1.0, 0.0], [0.2, 0.3, 0.5]],
                         [[0.3, 0.3, 0.4], [0.1, 0.6, 0.3]], micro=False))
    cases.append(kl_case("all-NaN row", [[nan, nan]], [[0.5, 0.5]]))
    return cases


# ---------------------------------------------------------------- Dice


def plain_dice(pred, truth, both_empty):
    pred = np.asarray(pred, dtype=float)
    truth = np.asarray(truth, dtype=float)
    if pred.shape != truth.shape:
        raise ValueError("shape mismatch")
    if pred.sum() == 0 and truth.sum() == 0:
        return both_empty
    return float(2 * (pred * truth).sum() / (pred.sum() + truth.sum()))


def dice_cases():
    cases = []
    for i in range(5):
        n = int(rng.integers(1, 500))
        density = float(rng.uniform(0, 0.6))
        pred = (rng.random(n) < density).astype(int).tolist()
        truth = (rng.random(n) < density).astype(int).tolist()
        cases.append({"name": f"random {i} (n={n})", "pred": pred, "truth": truth, "both_empty": None})
    cases.append({"name": "both empty", "pred": [0, 0, 0], "truth": [0, 0, 0], "both_empty": None})
    cases.append({"name": "both empty, value 1", "pred": [0, 0], "truth": [0, 0], "both_empty": 1.0})
    cases.append({"name": "prediction empty", "pred": [0, 0, 0], "truth": [0, 1, 1], "both_empty": None})
    cases.append({"name": "identical", "pred": [1, 0, 1, 1], "truth": [1, 0, 1, 1], "both_empty": None})
    cases.append({"name": "no pixels", "pred": [], "truth": [], "both_empty": None})
    cases.append({"name": "length mismatch", "pred": [1, 0], "truth": [1, 0, 0], "both_empty": None})
    for c in cases:
        be = float("nan") if c["both_empty"] is None else c["both_empty"]
        c["expected"] = outcome(lambda c=c, be=be: plain_dice(c["pred"], c["truth"], be))
    return cases


# ---------------------------------------------------------------- RLE


def plain_rle_decode(text, height, width):
    """Row-major flat 0/1 list; pixels are numbered down columns, 1-based."""
    size = height * width
    if not text.strip():
        return [0] * size
    numbers = [int(tok) for tok in text.split()]
    starts = numbers[0::2]
    lengths = numbers[1::2]
    if starts != sorted(starts):
        raise ValueError("The pairs in the RLE string must be sorted.")
    if any(s <= 0 for s in starts) or any(n <= 0 for n in lengths):
        raise ValueError("All pairs in the RLE string must be positive integers.")
    # Upstream computes ends = starts + lengths with numpy arrays: with an odd count the shapes
    # differ by one, which numpy only accepts when lengths has one element (broadcast to both
    # starts) or none (no runs at all).
    if len(lengths) == 1 and len(starts) == 2:
        lengths = lengths * 2
    elif len(numbers) % 2 == 1 and len(numbers) >= 5:
        raise ValueError("operands could not be broadcast together")
    flat = [0] * size
    for s, n in zip(starts, lengths):
        lo, hi = s - 1, min(s - 1 + n, size)
        if any(flat[k] for k in range(lo, hi)):
            raise ValueError("Overlapping RLE pairs are not allowed.")
        for k in range(lo, hi):
            flat[k] = 1
    return [flat[c * height + r] for r in range(height) for c in range(width)]


def plain_rle_encode(mask, height, width):
    """mask is row-major flat; returns [start, length, ...] over column-major pixel numbers."""
    runs = []
    prev = -2
    for c in range(width):
        for r in range(height):
            if mask[r * width + c] != 1:
                continue
            k = c * height + r
            if k > prev + 1:
                runs += [k + 1, 0]
            runs[-1] += 1
            prev = k
    return runs


def rle_cases():
    encode = []
    for i in range(5):
        h = int(rng.integers(1, 25))
        w = int(rng.integers(1, 25))
        mask = (rng.random(h * w) < float(rng.uniform(0.1, 0.7))).astype(int).tolist()
        encode.append({"name": f"random {i} ({h}x{w})", "mask": mask, "height": h, "width": w})
    encode.append({"name": "empty mask", "mask": [0] * 6, "height": 2, "width": 3})
    encode.append({"name": "full mask", "mask": [1] * 6, "height": 3, "width": 2})
    encode.append({"name": "non-square orientation", "mask": [1, 1, 0, 0, 0, 1], "height": 2, "width": 3})
    for c in encode:
        c["expected"] = plain_rle_encode(c["mask"], c["height"], c["width"])
        c["expected_string"] = " ".join(map(str, c["expected"]))
        assert plain_rle_decode(c["expected_string"], c["height"], c["width"]) == c["mask"]

    decode = [{"name": f"roundtrip {c['name']}", "rle": c["expected_string"], "height": c["height"],
               "width": c["width"]} for c in encode]
    fixed = [
        ("empty string", "", 3, 3),
        ("whitespace only", " \t\n ", 2, 2),
        ("column-major order", "2 3", 2, 3),
        ("extra whitespace", "  1\t2\n\n5 1  ", 3, 3),
        ("three values: the one length serves both starts", "1 2 5", 3, 3),
        ("three values, second run overlaps via shared length", "1 2 2", 3, 3),
        ("three values, second run truncated", "1 2 9", 3, 3),
        ("three values, unsorted starts", "5 2 3", 3, 3),
        ("five values cannot pair up", "1 2 5 1 7", 3, 3),
        ("seven values cannot pair up", "1 1 3 1 5 1 7", 3, 3),
        ("five values, unsorted reported first", "5 2 1 1 7", 3, 3),
        ("lone start is checked but draws nothing", "4", 3, 3),
        ("lone start must still be positive", "0", 3, 3),
        ("run past the end is truncated", "8 10", 3, 3),
        ("start past the end is ignored", "20 3", 3, 3),
        ("repeated starts past the end", "9 1 20 1 20 1", 3, 3),
        ("overlap only beyond the end", "8 5 10 2", 3, 3),
        ("overlap inside the image", "1 3 2 2", 3, 3),
        ("adjacent runs are fine", "1 2 3 2", 3, 3),
        ("duplicate start inside", "2 1 2 1", 3, 3),
        ("unsorted", "5 1 2 1", 3, 3),
        ("zero start", "0 2", 3, 3),
        ("zero length", "1 0", 3, 3),
        ("negative length", "1 -2", 3, 3),
        ("plus sign", "+2 +2", 3, 3),
        ("underscore digits", "1_0 2", 4, 4),
        ("leading zeros", "002 01", 3, 3),
        ("Arabic-Indic digits", "\u0662 \u0663", 3, 3),
        ("decimal point", "1.0 2", 3, 3),
        ("exponent", "1e1 2", 4, 4),
        ("letters", "a b", 3, 3),
        ("double underscore", "1__0 2", 4, 4),
        ("zero-size image", "1 2", 0, 4),
    ]
    decode += [{"name": n, "rle": s, "height": h, "width": w} for n, s, h, w in fixed]
    for c in decode:
        c["expected"] = outcome(lambda c=c: plain_rle_decode(c["rle"], c["height"], c["width"]))
    return {"encode": encode, "decode": decode}


def main():
    golden = {
        "generator": "scripts/golden/metrics_other.py",
        "versions": {"python": sys.version.split()[0], "numpy": np.__version__, "scipy": scipy.__version__,
                     "sklearn": sklearn.__version__},
        "seed": SEED,
    }
    golden["regression"] = regression_cases()
    golden["rank"] = rank_cases()
    golden["correlation"] = correlation_cases()
    golden["jaccard_similarity"] = jaccard_similarity_cases()
    golden["jaccard_score"] = jaccard_score_cases()
    levenshtein, levenshtein_seq = levenshtein_cases()
    golden["levenshtein"] = levenshtein
    golden["levenshtein_seq"] = levenshtein_seq
    golden["map_at_k"] = map_cases()
    golden["kl_divergence"] = kl_cases()
    golden["dice"] = dice_cases()
    golden["rle"] = rle_cases()
    text = json.dumps(enc(golden), allow_nan=False, separators=(",", ":"))
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(text + "\n")
    print(f"wrote {os.path.normpath(OUT)} ({len(text)} bytes)")


if __name__ == "__main__":
    main()
