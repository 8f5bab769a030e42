#!/usr/bin/python3
"""Reference leaderboard for the offline `fortune-cookies` competition.

Trains a documented population of text-classification pipelines on the public train split
(7,312 fortunes of 22 collections), scores each by multi-class log loss on the private answers
(3,136 fortunes), and writes leaderboard.csv beside this script (best first). The scores form a
*reference population* of pipelines, not a leaderboard of human teams. Nothing but the final
scoring reads the answers: temperatures, class biases, blend weights and stackers are fitted on
out-of-fold scores of a stratified 5-fold split of train.

Every entry's probabilities are floored at 1e-6 and rows rescaled to sum to one, as a valid
submission must; the score is the grader's formula (probabilities clipped at float64 eps, rows
not renormalised).

The population (511 entries), bottom to top:

1. Trivial: uniform and training-prior probabilities, priors shrunk towards uniform, seeded
   random (Dirichlet) rows, the majority collection with a floor, per-bin class frequencies of
   one surface feature (length in characters, share of capital letters, share of punctuation),
   and decision trees on the counts of the 2,000 most common words (predicted leaf frequencies).
2. Standard pipelines, every combination of
   - feature sets: word-unigram counts (2k terms), sublinear tf-idf of word unigrams (5k
     terms), of word 1-2-grams (terms in >= 2 fortunes), of character 2-5-grams within word
     boundaries (in >= 2 fortunes), and the last two side by side;
   - models and the probabilities they give as they come: multinomial naive Bayes (alpha 1,
     0.3, 0.1, 0.03), complement naive Bayes, logistic regression (C 1 and 10; word features
     only), linear SVMs (C 0.1 and 1) and a ridge classifier with their decision scores
     soft-maxed as they are, SGD with modified-Huber loss, SGD with logistic loss (tf-idf feature
     sets only) and k nearest neighbours (k 10 and 50, cosine; tf-idf feature sets only);
   - budgets: a seeded 5%, 10%, 25%, 50% or 100% sample of the training fortunes.
   The vectorisers are fitted once on all training texts (no labels involved); solvers keep
   scikit-learn's default iteration limits, as a quick pipeline would.
3. Strong pipelines with 5-fold out-of-fold scores: linear SVMs (word + character tf-idf, word
   only, character only), NB-SVM (linear SVMs on binary word 1-2-grams scaled by each
   collection's log-count ratio), SGD logistic regression, a ridge classifier, multinomial
   naive Bayes on word 1-2-gram counts, and a small MLP (two seeds) on a 256-component SVD of
   the word + character tf-idf; each one
   - calibrated on its out-of-fold scores by a fitted temperature, or a temperature and
     per-class biases (the refit on all of train, or the mean of the five fold models);
   - blended: equal and fitted-weight means of calibrated probabilities, and geometric means
     of pairs and larger sets re-calibrated by a temperature;
   - stacked: multinomial logistic regression (C 0.03 and 0.3) on the out-of-fold calibrated
     log-probabilities of the best 3, the best 5 and all 10 models, as it is and with a
     temperature fitted on its own nested out-of-fold scores.

Runtime: about 5.5 CPU-minutes (10 to 15 minutes of wall time on a busy 2-core machine),
single-threaded (OMP/BLAS threads pinned to 1); everything is seeded, so a rerun writes the
same file.

Usage (Debian's interpreter, which has scikit-learn):
    node dist/cli/main.js prepare -c fortune-cookies --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/fortune-cookies/leaderboard.py /tmp/lb-data
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import itertools  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import scipy.sparse as sp  # noqa: E402
from scipy.optimize import minimize  # noqa: E402
from scipy.special import log_softmax, softmax  # noqa: E402
from sklearn.decomposition import TruncatedSVD  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer  # noqa: E402
from sklearn.linear_model import LogisticRegression, RidgeClassifier, SGDClassifier  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402
from sklearn.naive_bayes import ComplementNB, MultinomialNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import log_loss, normalise, write_board  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
BUDGETS = [0.05, 0.1, 0.25, 0.5, 1.0]
FOLDS = 5
FLOOR = 1e-6
EPS_LOG = np.log(np.finfo(np.float64).eps)
STARTED = time.time()


def progress(message):
    """One line of progress on stderr, with the elapsed time."""
    print(f"[{time.time() - STARTED:6.0f}s] {message}", file=sys.stderr, flush=True)


def grid_models():
    """(name, factory, how it gives probabilities, feature sets it runs on; None means all) for the standard grid."""
    for alpha in [1.0, 0.3, 0.1, 0.03]:
        yield f"mnb-a{alpha:g}", (lambda a=alpha: MultinomialNB(alpha=a)), "proba", None
    yield "cnb-a0.3", lambda: ComplementNB(alpha=0.3), "proba", None
    yield "logreg-C1", lambda: LogisticRegression(C=1.0), "proba", ["count-w1-2k", "tfidf-w1-5k", "tfidf-w12"]
    yield "logreg-C10", lambda: LogisticRegression(C=10.0), "proba", ["count-w1-2k", "tfidf-w1-5k", "tfidf-w12"]
    yield "linsvc-C0.1", lambda: LinearSVC(C=0.1, random_state=0), "softmax", None
    yield "linsvc-C1", lambda: LinearSVC(C=1.0, random_state=0), "softmax", None
    yield "ridge", lambda: RidgeClassifier(alpha=1.0), "softmax", None
    yield "sgd-mhuber", lambda: SGDClassifier(loss="modified_huber", alpha=1e-4, max_iter=20, tol=None, random_state=0), "proba", None
    tfidf = ["tfidf-w1-5k", "tfidf-w12", "tfidf-c25", "tfidf-w12+c25"]
    # On raw counts its one-vs-rest probabilities overflow into NaN rows, which no valid submission holds.
    yield "sgd-log", lambda: SGDClassifier(loss="log_loss", alpha=1e-5, max_iter=20, tol=None, random_state=0), "proba", tfidf
    yield "knn-k10", lambda: KNeighborsClassifier(10, metric="cosine", algorithm="brute"), "proba", tfidf
    yield "knn-k50", lambda: KNeighborsClassifier(50, metric="cosine", algorithm="brute"), "proba", tfidf


def probabilities(model, x, how, n_classes):
    """Class probabilities (n, n_classes) of a fitted model, columns for classes it never saw filled with zeros."""
    raw = model.predict_proba(x) if how == "proba" else softmax(np.asarray(model.decision_function(x)), axis=1)
    out = np.zeros((x.shape[0], n_classes))
    out[:, model.classes_] = raw
    return out


class NBSVM:
    """One-vs-rest linear SVMs on binary features scaled by each class's log-count ratio."""

    def __init__(self, c=0.1):
        self.c = c

    def fit(self, x, y):
        self.classes_ = np.unique(y)
        self.ratios_, self.models_ = [], []
        for label in self.classes_:
            hit = y == label
            p = np.asarray(x[hit].sum(axis=0)).ravel() + 1.0
            q = np.asarray(x[~hit].sum(axis=0)).ravel() + 1.0
            r = np.log((p / p.sum()) / (q / q.sum()))
            self.ratios_.append(r)
            self.models_.append(LinearSVC(C=self.c, random_state=0).fit(x.multiply(r).tocsr(), hit))
        return self

    def decision_function(self, x):
        return np.column_stack([m.decision_function(x.multiply(r).tocsr()) for r, m in zip(self.ratios_, self.models_)])


class SvdMLP:
    """A one-hidden-layer MLP on standardised SVD components (the SVD is fitted outside, on texts only)."""

    def __init__(self, seed):
        self.seed = seed

    def fit(self, x, y):
        self.scaler_ = StandardScaler().fit(x)
        self.model_ = MLPClassifier(hidden_layer_sizes=(256,), alpha=1e-2, early_stopping=True, validation_fraction=0.15,
                                    n_iter_no_change=5, max_iter=200, random_state=self.seed).fit(self.scaler_.transform(x), y)
        self.classes_ = self.model_.classes_
        return self

    def predict_log_proba(self, x):
        return np.log(np.clip(self.model_.predict_proba(self.scaler_.transform(x)), 1e-12, 1.0))


def scores_of(model, x):
    """Decision scores (n, classes) of a fitted classifier; log-probabilities where it has no decision function."""
    if hasattr(model, "decision_function"):
        return np.asarray(model.decision_function(x), dtype=float)
    return np.asarray(model.predict_log_proba(x), dtype=float)


def mean_log_loss(onehot, logp):
    """Mean log loss from log-probabilities, clipped as the grader clips."""
    return float(-(onehot * np.maximum(logp, EPS_LOG)).sum(axis=1).mean())


def fit_temperature(scores, onehot, biases=False):
    """Scale (and optionally per-class offsets) of scores minimising the log loss of their softmax."""
    n, k = scores.shape

    def loss(v):
        shift = np.r_[0.0, v[1:]] if biases else 0.0
        z = scores * np.exp(v[0]) + shift
        lp = log_softmax(z, axis=1)
        # Gradient of the mean cross-entropy: (softmax - onehot) through the scale and the offsets.
        g = (np.exp(lp) - onehot) / n
        grad = [float((g * scores).sum() * np.exp(v[0]))]
        if biases:
            grad += list(g.sum(axis=0)[1:])
        return float(-(onehot * lp).sum() / n), np.array(grad)

    v = minimize(loss, np.zeros(k if biases else 1), jac=True, method="L-BFGS-B").x
    return np.exp(v[0]), (np.r_[0.0, v[1:]] if biases else np.zeros(k))


def calibrated(scores, t, b):
    """Log-probabilities of scores under a fitted temperature and biases."""
    return log_softmax(scores * t + b, axis=1)


def fit_weights(logps, onehot):
    """Non-negative weights (summing to one) of an arithmetic mean of probabilities minimising log loss."""
    # Only each row's probability of its true class matters.
    true_p = np.column_stack([np.exp((lp * onehot).sum(axis=1)) for lp in logps])
    n = len(true_p)

    def loss(v):
        w = softmax(v)
        mix = np.maximum(true_p @ w, 1e-300)
        d = -(true_p / mix[:, None]).sum(axis=0) / n
        return float(-np.log(mix).mean()), w * (d - w @ d)

    return softmax(minimize(loss, np.zeros(true_p.shape[1]), jac=True, method="L-BFGS-B").x)


def surface(texts):
    """Length in characters, share of capital letters and share of punctuation of each text."""
    length = texts.str.len().to_numpy(dtype=float)
    caps = texts.str.count(r"[A-Z]").to_numpy(dtype=float) / np.maximum(length, 1)
    punct = texts.str.count(r"[^\w\s]").to_numpy(dtype=float) / np.maximum(length, 1)
    return {"length": length, "capitals": caps, "punctuation": punct}


def main(data_dir):
    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    warnings.filterwarnings("ignore", category=RuntimeWarning)
    pub = os.path.join(data_dir, "fortune-cookies", "prepared", "public")
    train = pd.read_csv(os.path.join(pub, "train.csv"), keep_default_na=False)
    test = pd.read_csv(os.path.join(pub, "test.csv"), keep_default_na=False)
    answers = pd.read_csv(os.path.join(data_dir, "fortune-cookies", "prepared", "private", "test.csv"))
    classes = [c for c in answers.columns if c != "id"]
    truth = test[["id"]].merge(answers, on="id", how="left")[classes].to_numpy(dtype=float)
    assert len(truth) == len(test) and np.allclose(truth.sum(axis=1), 1), "answers do not cover test"
    k = len(classes)
    y = np.array([classes.index(c) for c in train.collection])
    onehot = np.eye(k)[y]
    rows = []

    def add(team, pipeline, p):
        rows.append({"teamName": team, "score": log_loss(truth, normalise(p, FLOOR)), "pipeline": pipeline})

    # 1. Trivial entries and one-feature rules.
    prior = np.bincount(y, minlength=k) / len(y)
    add("uniform", "the same probability for every collection", np.full((len(test), k), 1.0 / k))
    add("prior", "the training share of each collection", np.tile(prior, (len(test), 1)))
    for mix in [0.25, 0.5, 0.75]:
        add(f"prior-shrunk-{mix}", f"training shares mixed {mix:g}:{1 - mix:g} with uniform", np.tile(mix * prior + (1 - mix) / k, (len(test), 1)))
    rng = np.random.default_rng(28)
    for seed in range(3):
        for conc in [1.0, 10.0]:
            add(f"random-dirichlet-{conc:g}/seed{seed}", f"seeded random rows, Dirichlet({conc:g}) (seed {seed})",
                np.random.default_rng(seed).dirichlet(np.full(k, conc), size=len(test)))
    for floor in [0.01, 0.03]:
        hard = np.full((len(test), k), floor)
        hard[:, prior.argmax()] = 1.0
        add(f"majority-floor-{floor}", f"the most common collection, every other floored at {floor}", hard)
    feats_train, feats_test = surface(train.text), surface(test.text)
    for fname in feats_train:
        for bins in [5, 10, 20]:
            edges = np.unique(np.quantile(feats_train[fname], np.linspace(0, 1, bins + 1)[1:-1]))
            b_train, b_test = np.searchsorted(edges, feats_train[fname]), np.searchsorted(edges, feats_test[fname])
            table = np.ones((len(edges) + 1, k))
            np.add.at(table, (b_train, y), 1.0)
            table /= table.sum(axis=1, keepdims=True)
            add(f"{fname}-bins-{bins}", f"collection shares within {bins} quantile bins of the {fname} (Laplace-smoothed)", table[b_test])
    counts = CountVectorizer(max_features=2000)
    x_counts, x_counts_test = counts.fit_transform(train.text), counts.transform(test.text)
    for depth in [2, 4, 8, 16]:
        for leaf in [1, 20]:
            tree = DecisionTreeClassifier(max_depth=depth, min_samples_leaf=leaf, random_state=0).fit(x_counts, y)
            add(f"tree-d{depth}-leaf{leaf}/count-w1-2k", f"depth-{depth} decision tree (leaves >= {leaf}) on word-unigram counts",
                probabilities(tree, x_counts_test, "proba", k))
    progress(f"trivial entries: {len(rows)}")

    # 2. Standard grid over feature sets x models x budgets.
    vectorisers = {
        "count-w1-2k": ("word-unigram counts (2k terms)", CountVectorizer(max_features=2000)),
        "tfidf-w1-5k": ("tf-idf of word unigrams (5k terms)", TfidfVectorizer(sublinear_tf=True, max_features=5000)),
        "tfidf-w12": ("tf-idf of word 1-2-grams", TfidfVectorizer(sublinear_tf=True, ngram_range=(1, 2), min_df=2, dtype=np.float32)),
        "tfidf-c25": ("tf-idf of char 2-5-grams", TfidfVectorizer(
            sublinear_tf=True, analyzer="char_wb", ngram_range=(2, 5), min_df=2, dtype=np.float32)),
    }
    feats = {}
    for name, (desc, vec) in vectorisers.items():
        feats[name] = (desc, vec.fit_transform(train.text).tocsr(), vec.transform(test.text).tocsr())
    w, c = feats["tfidf-w12"], feats["tfidf-c25"]
    feats["tfidf-w12+c25"] = ("tf-idf of word 1-2-grams and char 2-5-grams", sp.hstack([w[1], c[1]]).tocsr(), sp.hstack([w[2], c[2]]).tocsr())
    order = np.random.default_rng(7).permutation(len(train))
    for budget in BUDGETS:
        keep = np.sort(order[:int(round(budget * len(train)))])
        pct = int(budget * 100)
        for mname, factory, how, only in grid_models():
            for fname, (fdesc, x_train, x_test) in feats.items():
                if only is not None and fname not in only:
                    continue
                model = factory().fit(x_train[keep], y[keep])
                add(f"{mname}/{fname}/{pct}pct", f"{mname} on {fdesc}, {pct}% of train", probabilities(model, x_test, how, k))
        progress(f"{pct}% of train done: {len(rows)} entries")

    # 3. Strong pipelines with out-of-fold scores.
    x_wc, x_wc_test = feats["tfidf-w12+c25"][1:]
    x_w, x_w_test = feats["tfidf-w12"][1:]
    x_c, x_c_test = feats["tfidf-c25"][1:]
    x_bin, x_bin_test = (x_w > 0).astype(np.float32).tocsr(), (x_w_test > 0).astype(np.float32).tocsr()
    bigram_counts = CountVectorizer(ngram_range=(1, 2), min_df=2)
    x_cnt, x_cnt_test = bigram_counts.fit_transform(train.text), bigram_counts.transform(test.text)
    svd = TruncatedSVD(256, random_state=0).fit(sp.vstack([x_wc, x_wc_test]))
    x_svd, x_svd_test = svd.transform(x_wc), svd.transform(x_wc_test)
    progress("strong feature sets ready")
    strong = {
        "linsvc-C0.1/wc": (lambda: LinearSVC(C=0.1, random_state=0), x_wc, x_wc_test),
        "linsvc-C0.3/wc": (lambda: LinearSVC(C=0.3, random_state=0), x_wc, x_wc_test),
        "linsvc-C0.3/w12": (lambda: LinearSVC(C=0.3, random_state=0), x_w, x_w_test),
        "linsvc-C0.1/c25": (lambda: LinearSVC(C=0.1, random_state=0), x_c, x_c_test),
        "nbsvm-C0.1/w12-binary": (lambda: NBSVM(0.1), x_bin, x_bin_test),
        "sgd-log/wc": (lambda: SGDClassifier(loss="log_loss", alpha=1e-5, max_iter=15, tol=None, random_state=0), x_wc, x_wc_test),
        "ridge/wc": (lambda: RidgeClassifier(alpha=1.0), x_wc, x_wc_test),
        "mnb-a0.1/w12-counts": (lambda: MultinomialNB(alpha=0.1), x_cnt, x_cnt_test),
        "mlp-seed0/svd256": (lambda: SvdMLP(0), x_svd, x_svd_test),
        "mlp-seed1/svd256": (lambda: SvdMLP(1), x_svd, x_svd_test),
    }
    folds = list(StratifiedKFold(FOLDS, shuffle=True, random_state=0).split(x_w, y))
    oof, refit, foldavg = {}, {}, {}
    for name, (factory, x, xt) in strong.items():
        o = np.zeros((len(train), k))
        per_fold = []
        for a, b in folds:
            model = factory().fit(x[a], y[a])
            o[b] = scores_of(model, x[b])
            per_fold.append(scores_of(model, xt))
        oof[name], refit[name], foldavg[name] = o, scores_of(factory().fit(x, y), xt), np.mean(per_fold, axis=0)
        progress(f"out-of-fold scores of {name}")

    # Calibrated single models: the refit's and the fold models' scores under out-of-fold temperatures.
    cal_oof, cal_test = {}, {}
    for name in strong:
        t, _ = fit_temperature(oof[name], onehot)
        tb, bias = fit_temperature(oof[name], onehot, biases=True)
        desc = describe(name)
        add(f"{name}/temperature", f"{desc}, softmax at an out-of-fold temperature ({t:.3g})", np.exp(calibrated(refit[name], t, 0.0)))
        add(f"{name}/temperature+bias", f"{desc}, out-of-fold temperature and class biases", np.exp(calibrated(refit[name], tb, bias)))
        add(f"{name}/fold-mean/temperature", f"{desc}, mean of the 5 fold models, out-of-fold temperature",
            np.exp(calibrated(foldavg[name], t, 0.0)))
        add(f"{name}/fold-mean/temperature+bias", f"{desc}, mean of the 5 fold models, out-of-fold temperature and class biases",
            np.exp(calibrated(foldavg[name], tb, bias)))
        cal_oof[name] = calibrated(oof[name], tb, bias)
        cal_test[name] = calibrated(refit[name], tb, bias)
    progress(f"calibrated single models: {len(rows)} entries")

    # Blends: the models ranked by their calibrated out-of-fold log loss, pairs and sets of the best.
    ranked = sorted(strong, key=lambda n: mean_log_loss(onehot, cal_oof[n]))
    subsets = [list(p) for p in itertools.combinations(ranked[:7], 2)]
    subsets += [ranked[:n] for n in range(3, len(ranked) + 1)]
    subsets += [list(p) for p in itertools.combinations(ranked[:5], 3)]
    seen = set()
    for parts in subsets:
        key = "+".join(sorted(parts))
        if key in seen:
            continue
        seen.add(key)
        tag = "+".join(short(p) for p in parts)
        equal = np.mean([np.exp(cal_test[p]) for p in parts], axis=0)
        add(f"blend-mean/{tag}", f"equal mean of calibrated probabilities of {len(parts)} models ({', '.join(parts)})", equal)
        weights = fit_weights([cal_oof[p] for p in parts], onehot)
        add(f"blend-weighted/{tag}", f"mean of calibrated probabilities, out-of-fold weights {np.round(weights, 2).tolist()} ({', '.join(parts)})",
            sum(wi * np.exp(cal_test[p]) for wi, p in zip(weights, parts)))
        geo_oof = np.mean([cal_oof[p] for p in parts], axis=0)
        t, bias = fit_temperature(geo_oof, onehot, biases=True)
        add(f"blend-geo/{tag}", f"geometric mean of calibrated probabilities re-calibrated out of fold ({', '.join(parts)})",
            np.exp(calibrated(np.mean([cal_test[p] for p in parts], axis=0), t, bias)))
    progress(f"blends: {len(rows)} entries")

    # Stacking: multinomial logistic regression on out-of-fold log-probabilities.
    stack_sets = [ranked[:3], ranked[:5], ranked]
    for parts in stack_sets:
        tag = "+".join(short(p) for p in parts)
        s_train = np.hstack([cal_oof[p] for p in parts])
        s_test = np.hstack([cal_test[p] for p in parts])
        for cst in [0.03, 0.3]:
            stacker = LogisticRegression(C=cst, max_iter=300)
            inner = np.zeros((len(train), k))
            for a, b in folds:
                inner[b] = stacker.fit(s_train[a], y[a]).predict_log_proba(s_train[b])
            stacker.fit(s_train, y)
            t, _ = fit_temperature(inner, onehot)
            p = stacker.predict_log_proba(s_test)
            add(f"stack-logreg-C{cst}/{tag}", f"logistic regression (C {cst}) stacked on out-of-fold log-probabilities of {len(parts)} models",
                np.exp(p))
            add(f"stack-logreg-C{cst}/{tag}/temperature", f"logistic regression (C {cst}) stacked on {len(parts)} models, "
                f"nested out-of-fold temperature ({t:.3g})", np.exp(calibrated(p, t, 0.0)))
    progress(f"stacks: {len(rows)} entries")

    assert len({r["teamName"] for r in rows}) == len(rows)
    write_board(rows, OUT, lower_is_better=True, note=f" in {time.time() - STARTED:.0f}s")


SHORT = {"linsvc-C0.1/wc": "svc.1wc", "linsvc-C0.3/wc": "svc.3wc", "linsvc-C0.3/w12": "svc.3w", "linsvc-C0.1/c25": "svc.1c",
         "nbsvm-C0.1/w12-binary": "nbsvm", "sgd-log/wc": "sgdlog", "ridge/wc": "ridge", "mnb-a0.1/w12-counts": "mnb",
         "mlp-seed0/svd256": "mlp0", "mlp-seed1/svd256": "mlp1"}


def short(name):
    """A short tag of a strong model, for team names."""
    return SHORT[name]


FEATURE_TAGS = {"wc": "tf-idf of word 1-2-grams and char 2-5-grams", "w12": "tf-idf of word 1-2-grams",
                "c25": "tf-idf of char 2-5-grams", "w12-binary": "binary word 1-2-grams", "w12-counts": "word 1-2-gram counts",
                "svd256": "256 SVD components of word and char tf-idf"}


def describe(name):
    """The pipeline text of a strong model."""
    model, tag = name.split("/")
    return f"{model} on {FEATURE_TAGS[tag]}"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
