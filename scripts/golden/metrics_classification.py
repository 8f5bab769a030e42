#!/usr/bin/python3
"""Golden values for the classification metrics in src/metrics/.

Run with Debian's interpreter, which has scikit-learn 1.2, scipy 1.10 and numpy 1.24:

    /usr/bin/python3 scripts/golden/metrics_classification.py

It writes test/golden/metrics-classification.json. The seed is fixed and the output is
deterministic, so rerunning the script must reproduce the file byte for byte.

mlebench-ts follows scikit-learn >= 1.5. Where that differs from the 1.2 installed here,
this script computes the >= 1.5 result itself and keeps 1.2 only as a cross-check:

* log_loss: 1.5 clips probabilities to [eps, 1 - eps] with eps = float64 machine epsilon and
  does not renormalise rows (1.2 clips and then divides each row by its sum). The expected
  values come from an explicit numpy formula on top of scikit-learn's LabelBinarizer; 1.2's
  log_loss is compared only on cases whose rows sum to one and stay inside the clip range.
* precision / recall / F-beta: 1.3+ computes F from counts and 1.5 averages with
  _nanaverage, so "weighted" with zero total support is the unweighted mean of the per-label
  scores instead of 1.2's special case. The expected values come from scikit-learn's
  multilabel_confusion_matrix plus the >= 1.5 division/averaging rules written out below;
  1.2 must agree everywhere else.

Everything else (accuracy, ROC AUC, average precision, Cohen's kappa, MCC, LRAP) is the same
in 1.2 and 1.5 for the inputs used here and is taken from scikit-learn directly.

JSON cannot hold NaN or infinities. Expected values spell them "NaN", "Infinity" and
"-Infinity"; inside inputs a non-finite float is written {"$float": "NaN"} (etc.) so that it
cannot be confused with a string label. An expected value of {"error": "..."} means the call
must throw; the text is scikit-learn's message, for context only.
"""

import json
import math
import os
import warnings

import numpy as np
import scipy
import sklearn
from scipy.special import xlogy
from sklearn import metrics as skm
from sklearn.metrics._classification import _check_set_wise_labels
from sklearn.preprocessing import LabelBinarizer

warnings.simplefilter("ignore")

SEED = 20240612
OUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "golden", "metrics-classification.json"
)
EPS = np.finfo(np.float64).eps

rng = np.random.default_rng(SEED)


def enc_input(x):
    """JSON-safe input values; non-finite floats become {"$float": ...}."""
    if isinstance(x, dict):
        return {k: enc_input(v) for k, v in x.items()}
    if isinstance(x, np.ndarray):
        return [enc_input(v) for v in x.tolist()]
    if isinstance(x, (list, tuple)):
        return [enc_input(v) for v in x]
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        f = float(x)
        if math.isnan(f):
            return {"$float": "NaN"}
        if math.isinf(f):
            return {"$float": "Infinity" if f > 0 else "-Infinity"}
        return f
    if isinstance(x, np.str_):
        return str(x)
    return x


def enc_value(v):
    f = float(v)
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "Infinity" if f > 0 else "-Infinity"
    return f


def outcome(fn):
    try:
        return enc_value(fn())
    except (ValueError, TypeError) as e:
        return {"error": str(e)}


def case(metric, name, args, expected, **extra):
    c = {"metric": metric, "name": name, "args": enc_input(args), "expected": expected}
    c.update(extra)
    return c


def close(a, b):
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict)
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b)) + 1e-15


def probs(n, decimals=None):
    p = rng.uniform(0, 1, n)
    return np.round(p, decimals) if decimals is not None else p


def dirichlet(n, k, decimals=6):
    p = rng.dirichlet(np.ones(k), n)
    return np.round(p, decimals) if decimals is not None else p


def noisy_copy(y, classes, flip):
    """y with a fraction `flip` of entries replaced by random classes."""
    y = np.array(y, dtype=object if isinstance(classes[0], str) else None)
    mask = rng.uniform(0, 1, len(y)) < flip
    y[mask] = rng.choice(classes, mask.sum())
    return y


# ---------------------------------------------------------------- accuracy


def accuracy_cases():
    out = []

    def add(name, t, p):
        out.append(case("accuracy", name, {"yTrue": t, "yPred": p}, outcome(lambda: skm.accuracy_score(t, p))))

    t = rng.integers(0, 2, 50)
    add("binary ints", t, noisy_copy(t, [0, 1], 0.4))
    t = rng.integers(0, 5, 200)
    add("multiclass ints", t, noisy_copy(t, [0, 1, 2, 3, 4], 0.5))
    t = rng.choice(["cat", "dog", "bird"], 100)
    add("string labels", t, noisy_copy(t, ["cat", "dog", "bird"], 0.3))
    t = rng.integers(0, 2, 30).astype(bool)
    add("bool labels", t, noisy_copy(t, [False, True], 0.5).astype(bool))
    t = rng.integers(0, 4, 40)
    add("all correct", t, t.copy())
    add("all wrong", t, (t + 1) % 4)
    add("integral floats vs ints", t.astype(float), noisy_copy(t, [0, 1, 2, 3], 0.3))
    tb = rng.integers(0, 2, 25).astype(bool)
    add("bools vs ints (True == 1)", tb, noisy_copy(tb.astype(int), [0, 1], 0.3))
    tm = rng.integers(0, 2, (40, 4))
    pm = tm.copy()
    pm[rng.uniform(0, 1, (40, 4)) < 0.1] ^= 1
    add("multilabel indicator (subset accuracy)", tm, pm)
    add("single sample", ["x"], ["x"])
    add("empty", [], [])
    t = rng.integers(0, 7, 3000)
    add("large multiclass", t, noisy_copy(t, list(range(7)), 0.6))
    add("error: continuous vs binary", [0, 1, 1, 0], [0.2, 0.9, 0.6, 0.1])
    add("error: different lengths", [0, 1, 1, 0], [0, 1, 1])
    add("error: NaN in y_true", [0.0, float("nan"), 1.0], [0, 1, 1])
    add("error: multiclass vs multilabel", [0, 1, 2], [[0, 1], [1, 0], [1, 1]])
    return out


# ---------------------------------------------------------------- ROC AUC and average precision


def roc_cases():
    out = []

    def add(name, t, s):
        out.append(case("rocAuc", name, {"yTrue": t, "yScore": s}, outcome(lambda: skm.roc_auc_score(t, s))))

    add("binary with tied scores", rng.integers(0, 2, 100), probs(100, 2))
    add("many ties", rng.integers(0, 2, 2000), probs(2000, 1))
    t = rng.integers(0, 2, 500)
    add("full-precision scores", t, probs(500) + 0.2 * t)
    add("string labels (greater is positive)", rng.choice(["neg", "pos"], 80), probs(80, 3))
    add("string labels b > a", rng.choice(["b", "a"], 60), probs(60, 3))
    add("labels -1/1", rng.choice([-1, 1], 70), probs(70, 3))
    add("labels 1/2", rng.choice([1, 2], 70), probs(70, 3))
    add("bool labels", rng.integers(0, 2, 40).astype(bool), probs(40, 3))
    add("integral float labels", rng.integers(0, 2, 40).astype(float), probs(40, 3))
    add("constant scores", rng.integers(0, 2, 30), np.full(30, 0.5))
    add("perfect separation", [0, 0, 0, 1, 1], [0.1, 0.2, 0.3, 0.8, 0.9])
    add("perfectly inverted", [1, 1, 0, 0], [0.1, 0.2, 0.8, 0.9])
    add("unbounded scores", rng.integers(0, 2, 60), np.round(rng.normal(0, 1e3, 60), 1))
    add("two samples", [0, 1], [0.3, 0.3])
    add("error: one class", [1, 1, 1], [0.1, 0.5, 0.9])
    add("error: multiclass y_true", [0, 1, 2, 1], [0.1, 0.5, 0.9, 0.3])
    add("error: NaN score", [0, 1, 1, 0], [0.1, float("nan"), 0.9, 0.3])
    add("error: continuous y_true", [0.5, 1.0, 0.0], [0.1, 0.5, 0.9])
    return out


def ap_cases():
    out = []

    def add(name, t, s, pos_label=None):
        args = {"yTrue": t, "yScore": s}
        kw = {}
        if pos_label is not None:
            args["options"] = {"posLabel": pos_label}
            kw["pos_label"] = pos_label
        out.append(case("averagePrecision", name, args, outcome(lambda: skm.average_precision_score(t, s, **kw))))

    add("binary with tied scores", rng.integers(0, 2, 100), probs(100, 2))
    t = rng.integers(0, 2, 2000)
    add("full-precision scores", t, probs(2000) + 0.1 * t)
    add("heavy ties", rng.integers(0, 2, 300), probs(300, 1))
    add("no positives (recall set to 1)", [0, 0, 0, 0], [0.1, 0.4, 0.4, 0.2])
    add("all positives", [1, 1, 1], [0.2, 0.1, 0.2])
    add("constant scores", rng.integers(0, 2, 20), np.full(20, 0.25))
    add("labels 1/2: pos_label 1 is the smaller label", rng.choice([1, 2], 50), probs(50, 2))
    add("labels 1/2 with pos_label 2", rng.choice([1, 2], 50), probs(50, 2), pos_label=2)
    add("labels -1/1", rng.choice([-1, 1], 50), probs(50, 2))
    add("bool labels", rng.integers(0, 2, 50).astype(bool), probs(50, 2))
    add("string labels with pos_label", rng.choice(["a", "b"], 50), probs(50, 2), pos_label="b")
    add("perfect ranking", [0, 1, 0, 1, 1], [0.1, 0.8, 0.2, 0.9, 0.7])
    add("inverted ranking", [0, 1, 0, 1, 1], [0.9, 0.1, 0.8, 0.2, 0.3])
    add("single negative label other than 1", [0, 0, 0], [0.5, 0.1, 0.3])
    add("error: string labels with default pos_label", ["a", "b", "a"], [0.1, 0.5, 0.9])
    add("error: multiclass y_true", [0, 1, 2, 1], [0.1, 0.5, 0.9, 0.3])
    add("error: NaN score", [0, 1, 1, 0], [0.1, float("nan"), 0.9, 0.3])
    return out


# ---------------------------------------------------------------- log loss (scikit-learn >= 1.5 rules)


def log_loss_15(y_true, y_pred, labels=None):
    """log_loss as scikit-learn >= 1.5 computes it: clip to [eps, 1-eps], no renormalisation."""
    y_pred = np.asarray(y_pred, dtype=np.float64)
    if not np.all(np.isfinite(y_pred)):
        raise ValueError("Input contains NaN or infinity.")
    if len(y_true) != len(y_pred):
        raise ValueError("inconsistent numbers of samples")
    lb = LabelBinarizer()
    lb.fit(labels if labels is not None else y_true)
    if len(lb.classes_) == 1:
        raise ValueError("only one label")
    t = lb.transform(y_true)
    if t.shape[1] == 1:
        t = np.append(1 - t, t, axis=1)
    if y_pred.ndim == 1:
        y_pred = y_pred[:, np.newaxis]
    if y_pred.shape[1] == 1:
        y_pred = np.append(1 - y_pred, y_pred, axis=1)
    y_pred = np.clip(y_pred, EPS, 1 - EPS)
    if len(lb.classes_) != y_pred.shape[1]:
        raise ValueError("different number of classes")
    loss = -xlogy(t, y_pred).sum(axis=1)
    return np.average(loss)


def log_loss_cases():
    out = []

    def add(name, t, p, labels=None, must_raise=False):
        args = {"yTrue": t, "yPred": p}
        kw = {}
        if labels is not None:
            args["options"] = {"labels": labels}
            kw["labels"] = labels
        expected = outcome(lambda: log_loss_15(t, p, **kw))
        extra = {}
        if isinstance(expected, dict):
            # Errors are checked against scikit-learn itself.
            expected = outcome(lambda: skm.log_loss(t, p, **kw))
            assert isinstance(expected, dict), name
        else:
            assert not must_raise, name
            pa = np.asarray(p, dtype=float)
            p2 = np.column_stack([1 - pa, pa]) if pa.ndim == 1 else pa
            well_behaved = np.allclose(p2.sum(axis=1), 1, rtol=0, atol=1e-15) and np.all(
                (p2 > 1e-15) & (p2 < 1 - 1e-15)
            )
            old = skm.log_loss(t, p, **kw)
            if well_behaved:
                assert close(old, expected), (name, old, expected)
            else:
                extra["sklearn_1_2"] = enc_value(old)
        out.append(case("logLoss", name, args, expected, **extra))

    t = rng.integers(0, 2, 100)
    add("binary 1-D probabilities", t, np.clip(probs(100, 4) * 0.6 + 0.4 * t, 0, 1))
    add("binary string labels", rng.choice(["cat", "dog"], 60), probs(60, 4))
    add("binary bool labels", rng.integers(0, 2, 40).astype(bool), probs(40, 4))
    t = rng.integers(0, 2, 50)
    p = probs(50, 4)
    add("binary two columns", t, np.column_stack([1 - p, p]))
    t = rng.integers(0, 4, 200)
    add("multiclass rows summing to ~1 (rounded)", t, dirichlet(200, 4))
    t = rng.integers(0, 3, 30)
    p = rng.dirichlet(np.ones(3), 30)
    add("multiclass full precision", t, p)
    add("multiclass string labels (columns in sorted order)", rng.choice(["HPL", "EAP", "MWS"], 90), dirichlet(90, 3))
    add("rows not summing to one (no renormalisation)", rng.integers(0, 3, 80), probs(240, 3).reshape(80, 3))
    oh = np.eye(3, dtype=int)[rng.integers(0, 3, 70)]
    add("one-hot y_true", oh, dirichlet(70, 3))
    add("one-hot y_true as floats", oh.astype(float)[:20], dirichlet(20, 3))
    ml = rng.integers(0, 2, (40, 4))
    add("multilabel indicator y_true", ml, probs(160, 3).reshape(40, 4))
    add("hard 0/1 predictions (clipped at eps)", [0, 1, 1, 0, 1], [0.0, 1.0, 0.0, 1.0, 1.0])
    add("perfect one-hot predictions", [0, 1, 2], np.eye(3))
    add("labels option with a class absent from y_true", rng.choice([0, 2], 50), dirichlet(50, 3), labels=[0, 1, 2])
    add("labels option unsorted", rng.choice(["b", "c", "a"], 40), dirichlet(40, 3), labels=["c", "a", "b"])
    add("labels option: y_true label outside labels", [0, 1, 5, 1, 0], [0.2, 0.7, 0.4, 0.9, 0.1], labels=[0, 1])
    t = rng.integers(0, 10, 5000)
    add("large multiclass", t, dirichlet(5000, 10))
    add("error: one class without labels", [1, 1, 1], [0.5, 0.6, 0.7], must_raise=True)
    add("error: NaN probability", [0, 1, 1], [0.5, float("nan"), 0.7], must_raise=True)
    add("error: class count mismatch", [0, 1, 2, 1], dirichlet(4, 2), must_raise=True)
    add("error: labels count mismatch", [0, 1, 1], dirichlet(3, 2), labels=[0, 1, 2], must_raise=True)
    return out


# ---------------------------------------------------------------- precision / recall / F-beta (>= 1.5 rules)


def prf_15(y_true, y_pred, beta, average, labels=None, pos_label=1, zero_division="warn"):
    """precision_recall_fscore_support as scikit-learn >= 1.5 computes it (zero_division 0/1/warn)."""
    zd = 0.0 if zero_division == "warn" else float(zero_division)
    labels = _check_set_wise_labels(y_true, y_pred, average, labels, pos_label)
    mcm = skm.multilabel_confusion_matrix(y_true, y_pred, labels=labels, samplewise=average == "samples")
    tp = mcm[:, 1, 1]
    pred = tp + mcm[:, 0, 1]
    true = tp + mcm[:, 1, 0]
    if average == "micro":
        tp, pred, true = np.array([tp.sum()]), np.array([pred.sum()]), np.array([true.sum()])

    def divide(num, den):
        den = np.asarray(den, dtype=np.float64)
        mask = den == 0.0
        res = np.asarray(num, dtype=np.float64) / np.where(mask, 1.0, den)
        res[mask] = zd
        return res

    precision = divide(tp, pred)
    recall = divide(tp, true)
    if np.isposinf(beta):
        f = recall
    elif beta == 0:
        f = precision
    else:
        b2 = beta**2
        f = divide((1 + b2) * tp, b2 * true + pred)
    weights = true if average == "weighted" else None

    def avg(a):
        if len(a) == 0:
            return np.nan
        if weights is None:
            return np.nanmean(a)
        try:
            return np.average(a, weights=weights)
        except ZeroDivisionError:
            return np.average(a)

    return avg(precision), avg(recall), avg(f)


def prf_cases():
    out = []

    def add(name, t, p, average="binary", beta=1.0, labels=None, pos_label=None, zero_division=None, metrics=None):
        options = {"average": average}
        kw = {"average": average}
        if labels is not None:
            options["labels"] = labels
            kw["labels"] = labels
        if pos_label is not None:
            options["posLabel"] = pos_label
            kw["pos_label"] = pos_label
        if zero_division is not None:
            options["zeroDivision"] = zero_division
            kw["zero_division"] = zero_division
        try:
            new = prf_15(t, p, beta, **kw)
        except ValueError:
            new = None
        try:
            old = skm.precision_recall_fscore_support(t, p, beta=beta, **kw)[:3]
        except ValueError as e:
            assert new is None, name
            old_error = {"error": str(e)}
        else:
            assert new is not None, name
        names = metrics or ["precision", "recall", "fbeta"]
        for i, metric in enumerate(["precision", "recall", "fbeta"]):
            if metric not in names:
                continue
            args = {"yTrue": t, "yPred": p, "options": options}
            if metric == "fbeta":
                if beta == 1.0:
                    metric = "f1"
                else:
                    args["beta"] = beta
            if new is None:
                out.append(case(metric, name, args, old_error))
                continue
            extra = {}
            if not close(new[i], old[i]):
                # Only the zero-support "weighted" average may differ from 1.2.
                assert average == "weighted", (name, metric, new[i], old[i])
                extra["sklearn_1_2"] = enc_value(old[i])
            out.append(case(metric, name, args, enc_value(new[i]), **extra))

    t = rng.integers(0, 2, 100)
    add("binary", t, noisy_copy(t, [0, 1], 0.4))
    add("binary beta 2", t, noisy_copy(t, [0, 1], 0.5), beta=2.0, metrics=["fbeta"])
    add("binary beta 0.5", t, noisy_copy(t, [0, 1], 0.5), beta=0.5, metrics=["fbeta"])
    add("binary beta 0 (precision)", t, noisy_copy(t, [0, 1], 0.5), beta=0.0, metrics=["fbeta"])
    add("binary beta inf (recall)", t, noisy_copy(t, [0, 1], 0.5), beta=math.inf, metrics=["fbeta"])
    t = rng.integers(0, 5, 300)
    p = noisy_copy(t, [0, 1, 2, 3, 4], 0.5)
    add("multiclass macro", t, p, average="macro")
    add("multiclass micro", t, p, average="micro")
    add("multiclass weighted", t, p, average="weighted")
    add("multiclass macro beta 0.5", t, p, average="macro", beta=0.5, metrics=["fbeta"])
    add("multiclass macro, labels subset", t, p, average="macro", labels=[1, 3])
    add("multiclass micro, labels subset", t, p, average="micro", labels=[0, 4])
    add("macro with a label that never occurs", t, p, average="macro", labels=[0, 1, 7])
    add("macro with a label that never occurs, zero_division 1", t, p, average="macro", labels=[0, 1, 7],
        zero_division=1)
    add("weighted, labels absent from y_true, zero_division 1", [0, 0, 1, 1], [2, 3, 1, 1], average="weighted",
        labels=[2, 3], zero_division=1)
    add("weighted, labels absent everywhere, zero_division 1", [0, 0, 1, 1], [0, 1, 1, 1], average="weighted",
        labels=[5, 6], zero_division=1)
    ts = rng.choice(["ham", "spam"], 80)
    add("string labels with pos_label", ts, noisy_copy(ts, ["ham", "spam"], 0.3), pos_label="spam")
    tb = rng.integers(0, 2, 40).astype(bool)
    add("bool labels", tb, noisy_copy(tb, [False, True], 0.3).astype(bool))
    add("all correct", [0, 1, 1, 0, 1], [0, 1, 1, 0, 1])
    add("all wrong", [0, 1, 1, 0, 1], [1, 0, 0, 1, 0])
    add("no positive predictions", [0, 1, 1, 0], [0, 0, 0, 0])
    add("no positive predictions, zero_division 1", [0, 1, 1, 0], [0, 0, 0, 0], zero_division=1)
    add("no positives at all, zero_division 1", [0, 0, 0], [0, 0, 0], zero_division=1)
    add("single class present, pos_label absent", [0, 0, 0], [0, 0, 0])
    add("pos_label 0", [0, 1, 1, 0, 1], [0, 1, 0, 0, 1], pos_label=0)
    tm = rng.integers(0, 2, (60, 5))
    pm = tm.copy()
    pm[rng.uniform(0, 1, (60, 5)) < 0.25] ^= 1
    for average in ["micro", "macro", "weighted", "samples"]:
        add(f"multilabel {average}", tm, pm, average=average)
    add("multilabel samples beta 2", tm, pm, average="samples", beta=2.0, metrics=["fbeta"])
    add("multilabel macro, column subset", tm, pm, average="macro", labels=[0, 2])
    tz = np.zeros((6, 3), dtype=int)
    pz = np.zeros((6, 3), dtype=int)
    pz[0, 1] = 1
    add("multilabel all-zero y_true, weighted, zero_division 1", tz, pz, average="weighted", zero_division=1)
    tz2 = tm.copy()
    tz2[:, 2] = 0
    pz2 = pm.copy()
    pz2[:, 2] = 0
    add("multilabel empty column, macro, zero_division 1", tz2, pz2, average="macro", zero_division=1)
    add("multilabel rows without labels, samples", np.array([[0, 0, 1], [0, 0, 0], [1, 1, 0]]),
        np.array([[0, 1, 1], [0, 0, 0], [1, 0, 0]]), average="samples")
    fb = ["fbeta"]
    add("multiclass weighted beta 2", t, p, average="weighted", beta=2.0, metrics=fb)
    add("multiclass micro beta 0.5", t, p, average="micro", beta=0.5, metrics=fb)
    add("multiclass labels subset beta 3", t, p, average="macro", labels=[4, 2], beta=3.0, metrics=fb)
    add("multilabel macro beta 0.5", tm, pm, average="macro", beta=0.5, metrics=fb)
    add("multilabel micro beta 2", tm, pm, average="micro", beta=2.0, metrics=fb)
    add("string labels beta 2", ts, noisy_copy(ts, ["ham", "spam"], 0.3), pos_label="ham", beta=2.0, metrics=fb)
    add("bool labels beta 0.5", tb, noisy_copy(tb, [False, True], 0.4).astype(bool), beta=0.5, metrics=fb)
    add("no positive predictions beta 2, zero_division 1", [0, 1, 1, 0], [0, 0, 0, 0], beta=2.0, zero_division=1,
        metrics=fb)
    add("nothing true or predicted beta 2, zero_division 1", [0, 0, 0], [0, 0, 0], beta=2.0, zero_division=1,
        metrics=fb)
    add("multilabel all-zero y_true weighted beta 2, zero_division 1", tz, pz, average="weighted", beta=2.0,
        zero_division=1, metrics=fb)
    add("error: beta with binary average on multiclass", [0, 1, 2], [0, 2, 1], beta=2.0, metrics=fb)
    add("error: binary average on multiclass", [0, 1, 2], [0, 2, 1])
    add("error: string labels with default pos_label", ["a", "b", "a"], ["a", "a", "b"])
    add("error: samples average on 1-D targets", [0, 1, 1], [0, 1, 0], average="samples")
    add("error: continuous y_pred", [0, 1, 1], [0.5, 1, 0])
    add("error: multilabel label index out of range", tm, pm, average="macro", labels=[0, 5])
    return out


# ---------------------------------------------------------------- Cohen's kappa


def kappa_cases():
    out = []

    def add(name, a, b, weights=None, labels=None):
        options = {}
        kw = {}
        if weights is not None:
            options["weights"] = weights
            kw["weights"] = weights
        if labels is not None:
            options["labels"] = labels
            kw["labels"] = labels
        args = {"y1": a, "y2": b}
        if options:
            args["options"] = options
        out.append(case("cohenKappa", name, args, outcome(lambda: skm.cohen_kappa_score(a, b, **kw))))

    a = rng.integers(0, 2, 100)
    add("binary", a, noisy_copy(a, [0, 1], 0.5))
    a = rng.integers(0, 5, 300)
    add("multiclass unweighted", a, noisy_copy(a, list(range(5)), 0.6))
    a = rng.integers(0, 5, 500)
    b = np.clip(a + rng.integers(-1, 2, 500), 0, 4)
    add("ordinal quadratic", a, b, weights="quadratic")
    add("ordinal linear", a, b, weights="linear")
    add("string labels", rng.choice(["neg", "neu", "pos"], 60), rng.choice(["neg", "neu", "pos"], 60))
    a = rng.integers(0, 4, 80)
    b = noisy_copy(a, [0, 1, 2, 3], 0.4)
    add("labels subset drops other samples", a, b, labels=[0, 1, 2])
    add("labels unsorted: weights by listed position", a, b, weights="quadratic", labels=[3, 1, 0, 2])
    add("labels include an absent class", a, b, weights="quadratic", labels=[0, 1, 2, 3, 4])
    add("perfect agreement", [0, 1, 2, 2, 1], [0, 1, 2, 2, 1], weights="quadratic")
    add("one shared class only (NaN)", [1, 1, 1], [1, 1, 1])
    add("two different constant raters", [1, 1, 1], [2, 2, 2])
    add("bool labels", rng.integers(0, 2, 30).astype(bool), rng.integers(0, 2, 30).astype(bool))
    add("integral float vs int labels", np.array([0.0, 1.0, 2.0, 1.0, 0.0]), [0, 2, 2, 1, 1], weights="linear")
    a = rng.integers(0, 6, 5000)
    b = np.clip(a + rng.integers(-2, 3, 5000), 0, 5)
    add("large quadratic", a, b, weights="quadratic")
    add("near-zero agreement", rng.integers(0, 3, 400), rng.integers(0, 3, 400))
    add("error: continuous labels", [0.5, 1, 2], [0, 1, 2])
    add("error: no listed label in y1", [0, 1, 1], [0, 1, 0], labels=[5, 6])
    add("error: different lengths", [0, 1, 1], [0, 1])
    return out


# ---------------------------------------------------------------- Matthews correlation


def mcc_cases():
    out = []

    def add(name, t, p):
        out.append(case("matthewsCorrcoef", name, {"yTrue": t, "yPred": p},
                        outcome(lambda: skm.matthews_corrcoef(t, p))))

    t = rng.integers(0, 2, 100)
    add("binary", t, noisy_copy(t, [0, 1], 0.5))
    t = rng.integers(0, 4, 300)
    add("multiclass", t, noisy_copy(t, [0, 1, 2, 3], 0.5))
    add("perfect", [0, 1, 2, 1, 0], [0, 1, 2, 1, 0])
    add("inverted binary", [0, 1, 1, 0], [1, 0, 0, 1])
    add("constant prediction (0 by convention)", [0, 1, 1, 0], [1, 1, 1, 1])
    add("single class in both", [2, 2, 2], [2, 2, 2])
    add("string labels", rng.choice(["a", "b", "c"], 90), rng.choice(["a", "b", "c"], 90))
    add("bool labels", rng.integers(0, 2, 40).astype(bool), rng.integers(0, 2, 40).astype(bool))
    add("labels only in y_pred", [0, 0, 1, 1, 0], [0, 2, 1, 3, 0])
    t = rng.integers(0, 8, 10000)
    add("large multiclass", t, noisy_copy(t, list(range(8)), 0.7))
    add("empty", [], [])
    add("error: continuous y_pred", [0, 1, 1], [0.1, 0.9, 0.6])
    add("error: different lengths", [0, 1, 1], [0, 1])
    return out


# ---------------------------------------------------------------- label ranking average precision


def lrap_cases():
    out = []

    def add(name, t, s):
        out.append(case("labelRankingAveragePrecision", name, {"yTrue": t, "yScore": s},
                        outcome(lambda: skm.label_ranking_average_precision_score(t, s))))

    add("random with tied scores", rng.integers(0, 2, (50, 5)), np.round(rng.uniform(0, 1, (50, 5)), 1))
    add("integer scores (heavy ties)", rng.integers(0, 2, (40, 6)), rng.integers(0, 3, (40, 6)).astype(float))
    add("full-precision scores", rng.integers(0, 2, (30, 8)), rng.uniform(0, 1, (30, 8)))
    add("rows with no or all labels", np.array([[0, 0, 0], [1, 1, 1], [0, 1, 0], [1, 0, 1]]),
        np.array([[0.1, 0.2, 0.3], [0.3, 0.2, 0.1], [0.5, 0.5, 0.1], [0.2, 0.9, 0.1]]))
    add("single column", np.array([[1], [0], [1]]), np.array([[0.5], [0.2], [0.1]]))
    add("perfect ranking", np.array([[1, 0, 0], [0, 1, 1]]), np.array([[0.9, 0.1, 0.2], [0.1, 0.8, 0.7]]))
    add("worst ranking", np.array([[1, 0, 0], [0, 1, 1]]), np.array([[0.0, 0.1, 0.2], [0.9, 0.1, 0.2]]))
    yt = np.eye(10, dtype=int)[rng.integers(0, 10, 200)]
    add("one relevant label per row", yt, np.round(rng.uniform(0, 1, (200, 10)), 3))
    add("indicator given as floats", rng.integers(0, 2, (20, 4)).astype(float), np.round(rng.uniform(0, 1, (20, 4)), 2))
    add("large", rng.integers(0, 2, (500, 20)), np.round(rng.normal(0, 1, (500, 20)), 2))
    add("all-zero y_true", np.zeros((3, 4), dtype=int), rng.uniform(0, 1, (3, 4)))
    add("error: shape mismatch", np.array([[0, 1], [1, 0]]), np.array([[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]]))
    add("error: multiclass-multioutput y_true", np.array([[0, 1, 2], [1, 0, 2]]),
        np.array([[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]]))
    add("error: NaN score", np.array([[0, 1], [1, 0]]), np.array([[0.1, float("nan")], [0.3, 0.2]]))
    return out


def main():
    cases = []
    for make in (accuracy_cases, roc_cases, ap_cases, log_loss_cases, prf_cases, kappa_cases, mcc_cases, lrap_cases):
        cases.extend(make())
    header = {
        "generator": "scripts/golden/metrics_classification.py",
        "seed": SEED,
        "versions": {"sklearn": sklearn.__version__, "numpy": np.__version__, "scipy": scipy.__version__},
    }
    lines = ["{"]
    for key, value in header.items():
        lines.append(f"{json.dumps(key)}: {json.dumps(value, sort_keys=True)},")
    lines.append('"cases": [')
    body = [json.dumps(c, separators=(",", ":"), allow_nan=False) for c in cases]
    lines.append(",\n".join(body))
    lines.append("]")
    lines.append("}")
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("\n".join(lines) + "\n")
    print(f"wrote {len(cases)} cases to {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
