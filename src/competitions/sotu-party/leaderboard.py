#!/usr/bin/python3
"""Reference leaderboard for the offline `sotu-party` competition.

Trains a documented population of text-classification pipelines on the public train split
(16,329 passages of 163 addresses), scores each by macro-averaged F1 on the private answers
(6,000 passages of 70 other addresses), and writes leaderboard.csv beside this script (best
first). The scores form a *reference population* of pipelines, not a leaderboard of human teams.
Nothing but the final scoring reads the answers: class biases, blend and stacking weights are
fitted on out-of-fold decision scores of a stratified 5-fold split of train. (Train has no
address column, so those folds share addresses and their scores run high; that is the CV a
team would have.)

The population (about 560 entries), bottom to top:

1. Trivial: the majority party, seeded stratified and uniform guesses, and small decision
   trees on the counts of the 2,000 most common words (a handful of words decide).
2. Standard pipelines, every combination of
   - feature sets: word-unigram counts (2k terms), sublinear tf-idf of word unigrams (5k
     terms), of word 1-2-grams (terms in >= 2 passages), of character 2-5-grams within word
     boundaries (in >= 3 passages, 200k at most), and the last two side by side;
   - models: multinomial naive Bayes (alpha 1, 0.1), complement naive Bayes, logistic
     regression (C 1; C 10 with balanced class weights; word features only), linear SVMs
     (C 0.1 and 1, plain or balanced), SGD with hinge or modified-Huber loss, passive-aggressive,
     perceptron, nearest centroid;
   - budgets: a seeded 5%, 10%, 25%, 50% or 100% sample of the training passages.
   The vectorisers are fitted once on all training texts (no labels involved); solvers keep
   scikit-learn's default iteration limits, as a quick pipeline would.
3. Strong pipelines on word + character n-grams: balanced linear SVMs over a finer grid of C,
   NB-SVM (one-vs-rest linear SVMs on binary word 1-2-grams scaled by each class's
   log-count ratio, fitted inside each fold), modified-Huber SGD and complement naive Bayes,
   each with 5-fold out-of-fold decision scores; on those:
   - per-class biases added to the decision scores, fitted by coordinate search for macro F1
     on the out-of-fold scores (the rare classes Democratic-Republican and Other gain most);
   - blends (means of out-of-fold-standardised scores) and stacking (balanced multinomial
     logistic regression on the out-of-fold scores), with and without fitted biases;
   - test-time neighbour smoothing: passages of one address share names, issues and style, so
     each test passage's scores are mixed with the mean scores of its k most similar test
     passages (cosine of word 1-2-gram tf-idf; k 5, 10 or 20, weight 0.5 or 1). No labels
     are used; the setting is each entry's own choice.

Runtime: about 9 CPU-minutes, single-threaded (OMP/BLAS threads pinned to 1); everything is
seeded, so a rerun writes the same file.

Usage (Debian's interpreter, which has scikit-learn):
    node dist/cli/main.js prepare -c sotu-party --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/sotu-party/leaderboard.py /tmp/lb-data
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import sys  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import scipy.sparse as sp  # noqa: E402
from sklearn.dummy import DummyClassifier  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer  # noqa: E402
from sklearn.linear_model import LogisticRegression, PassiveAggressiveClassifier, Perceptron, SGDClassifier  # noqa: E402
from sklearn.metrics import f1_score  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402
from sklearn.naive_bayes import ComplementNB, MultinomialNB  # noqa: E402
from sklearn.neighbors import NearestCentroid  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
BUDGETS = [0.05, 0.1, 0.25, 0.5, 1.0]
FOLDS = 5


def models():
    """(name, factory, feature sets it runs on) for the standard grid; None means all of them."""
    yield "mnb-a1", lambda: MultinomialNB(alpha=1.0), None
    yield "mnb-a0.1", lambda: MultinomialNB(alpha=0.1), None
    yield "cnb-a0.3", lambda: ComplementNB(alpha=0.3), None
    yield "logreg-C1", lambda: LogisticRegression(C=1.0), ["count-w1-2k", "tfidf-w1-5k", "tfidf-w12"]
    yield "logreg-C10-bal", lambda: LogisticRegression(C=10.0, class_weight="balanced"), ["count-w1-2k", "tfidf-w1-5k", "tfidf-w12"]
    yield "linsvc-C0.1", lambda: LinearSVC(C=0.1), None
    yield "linsvc-C0.1-bal", lambda: LinearSVC(C=0.1, class_weight="balanced"), None
    yield "linsvc-C1", lambda: LinearSVC(C=1.0), None
    yield "linsvc-C1-bal", lambda: LinearSVC(C=1.0, class_weight="balanced"), None
    yield "sgd-hinge", lambda: SGDClassifier(loss="hinge", alpha=1e-4, max_iter=20, tol=None, random_state=0), None
    yield "sgd-mhuber-bal", lambda: SGDClassifier(
        loss="modified_huber", alpha=2e-5, class_weight="balanced", max_iter=20, tol=None, random_state=0), None
    yield "passive-aggressive", lambda: PassiveAggressiveClassifier(max_iter=20, tol=None, random_state=0), None
    yield "perceptron", lambda: Perceptron(max_iter=20, tol=None, random_state=0), None
    yield "nearest-centroid", NearestCentroid, None


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
            self.models_.append(LinearSVC(C=self.c, class_weight="balanced").fit(x.multiply(r).tocsr(), hit))
        return self

    def decision_function(self, x):
        return np.column_stack([m.decision_function(x.multiply(r).tocsr()) for r, m in zip(self.ratios_, self.models_)])


def macro_f1(y, pred, n_classes):
    """Macro F1 of integer labels over n_classes (all present in y), fast enough for searches."""
    conf = np.bincount(y * n_classes + pred, minlength=n_classes * n_classes).reshape(n_classes, n_classes)
    tp = np.diag(conf)
    return float(np.mean(2 * tp / np.maximum(conf.sum(axis=0) + conf.sum(axis=1), 1)))


def fit_biases(scores, y):
    """Per-class offsets to decision scores that maximise macro F1 (three coordinate sweeps)."""
    n = scores.shape[1]
    bias = np.zeros(n)
    best = macro_f1(y, scores.argmax(axis=1), n)
    for _ in range(3):
        for j in range(n):
            for v in np.round(np.arange(-1.0, 1.001, 0.05), 2):
                trial = bias.copy()
                trial[j] = v
                s = macro_f1(y, (scores + trial).argmax(axis=1), n)
                if s > best + 1e-12:
                    best, bias = s, trial
    return bias


def main(data_dir):
    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    pub = os.path.join(data_dir, "sotu-party", "prepared", "public")
    train = pd.read_csv(os.path.join(pub, "train.csv"), keep_default_na=False)
    test = pd.read_csv(os.path.join(pub, "test.csv"), keep_default_na=False)
    answers = pd.read_csv(os.path.join(data_dir, "sotu-party", "prepared", "private", "test.csv"), keep_default_na=False)
    truth = test[["id"]].merge(answers, on="id", how="left").party.to_numpy()
    assert len(truth) == len(test) and all(isinstance(t, str) and t for t in truth), "answers do not cover test"
    classes = np.array(sorted(train.party.unique()))
    y_all = train.party.to_numpy()
    y_int = np.searchsorted(classes, y_all)
    rows = []

    def add(team, pipeline, pred):
        rows.append({"teamName": team, "score": float(f1_score(truth, pred, average="macro")), "pipeline": pipeline})

    # Feature sets, fitted once on all training texts.
    vectorisers = {
        "count-w1-2k": ("word-unigram counts (2k terms)", CountVectorizer(max_features=2000)),
        "tfidf-w1-5k": ("tf-idf of word unigrams (5k terms)", TfidfVectorizer(sublinear_tf=True, max_features=5000)),
        "tfidf-w12": ("tf-idf of word 1-2-grams", TfidfVectorizer(sublinear_tf=True, ngram_range=(1, 2), min_df=2, dtype=np.float32)),
        "tfidf-c25": ("tf-idf of char 2-5-grams", TfidfVectorizer(
            sublinear_tf=True, analyzer="char_wb", ngram_range=(2, 5), min_df=3, max_features=200000, dtype=np.float32)),
    }
    feats = {}
    for name, (desc, vec) in vectorisers.items():
        feats[name] = (desc, vec.fit_transform(train.text).tocsr(), vec.transform(test.text).tocsr())
    w, c = feats["tfidf-w12"], feats["tfidf-c25"]
    feats["tfidf-w12+c25"] = ("tf-idf of word 1-2-grams and char 2-5-grams", sp.hstack([w[1], c[1]]).tocsr(),
                              sp.hstack([w[2], c[2]]).tocsr())

    # 1. Trivial entries and rules.
    zeros_train, zeros_test = np.zeros((len(train), 1)), np.zeros((len(test), 1))
    add("majority", "the most common party in train", DummyClassifier(strategy="most_frequent").fit(zeros_train, y_all).predict(zeros_test))
    for seed in range(3):
        for strategy in ["stratified", "uniform"]:
            guess = DummyClassifier(strategy=strategy, random_state=seed).fit(zeros_train, y_all).predict(zeros_test)
            add(f"{strategy}-guess/seed{seed}", f"a random party ({strategy}, seed {seed})", guess)
    _, x_counts, x_counts_test = feats["count-w1-2k"]
    for depth in [1, 2, 3, 5, 8, 12]:
        for weights in [None, "balanced"]:
            tree = DecisionTreeClassifier(max_depth=depth, class_weight=weights, random_state=0).fit(x_counts, y_all)
            add(f"tree-d{depth}{'-bal' if weights else ''}/count-w1-2k",
                f"depth-{depth} decision tree{' (balanced)' if weights else ''} on word-unigram counts", tree.predict(x_counts_test))
    add("length-rule", "a depth-3 tree on the passage's word count, mean word length and share of capitals",
        DecisionTreeClassifier(max_depth=3, class_weight="balanced", random_state=0).fit(
            surface(train.text), y_all).predict(surface(test.text)))

    # 2. Standard grid over feature sets x models x budgets.
    rng = np.random.default_rng(7)
    order = rng.permutation(len(train))
    for budget in BUDGETS:
        keep = np.sort(order[:int(round(budget * len(train)))])
        pct = int(budget * 100)
        for mname, factory, only in models():
            for fname, (fdesc, x_train, x_test) in feats.items():
                if only is not None and fname not in only:
                    continue
                pred = factory().fit(x_train[keep], y_all[keep]).predict(x_test)
                add(f"{mname}/{fname}/{pct}pct", f"{mname} on {fdesc}, {pct}% of train", pred)
        print(f"{pct}% of train done: {len(rows)} entries", file=sys.stderr)

    # 3. Strong pipelines with out-of-fold decision scores.
    x_wc, x_wc_test = feats["tfidf-w12+c25"][1:]
    x_w, x_w_test = feats["tfidf-w12"][1:]
    x_bin, x_bin_test = (x_w > 0).astype(np.float32).tocsr(), (x_w_test > 0).astype(np.float32).tocsr()
    strong = {
        "linsvc-C0.3-bal/wc": (lambda: LinearSVC(C=0.3, class_weight="balanced"), x_wc, x_wc_test),
        "linsvc-C0.5-bal/wc": (lambda: LinearSVC(C=0.5, class_weight="balanced"), x_wc, x_wc_test),
        "linsvc-C0.5-bal/w12": (lambda: LinearSVC(C=0.5, class_weight="balanced"), x_w, x_w_test),
        "linsvc-C0.3-bal/c25": (lambda: LinearSVC(C=0.3, class_weight="balanced"), *feats["tfidf-c25"][1:]),
        "nbsvm-C0.1/w12-binary": (lambda: NBSVM(0.1), x_bin, x_bin_test),
        "sgd-mhuber-bal/wc": (lambda: SGDClassifier(loss="modified_huber", alpha=2e-5, class_weight="balanced", max_iter=20,
                                                    tol=None, random_state=0), x_wc, x_wc_test),
        "cnb-a0.3/w12": (lambda: ComplementNB(alpha=0.3), x_w, x_w_test),
    }
    folds = list(StratifiedKFold(FOLDS, shuffle=True, random_state=0).split(x_w, y_int))
    oof, test_scores = {}, {}
    for name, (factory, x, xt) in strong.items():
        o = np.zeros((len(train), len(classes)))
        for a, b in folds:
            model = factory().fit(x[a], y_int[a])
            o[b] = scores_of(model, x[b])
        model = factory().fit(x, y_int)
        # Standardised by the out-of-fold spread, so scores of different models can be averaged.
        scale = o.std()
        oof[name], test_scores[name] = o / scale, scores_of(model, xt) / scale
        print(f"out-of-fold scores of {name}", file=sys.stderr)

    def label(s):
        return classes[s.argmax(axis=1)]

    candidates = dict(test_scores)
    candidate_oof = dict(oof)
    blends = {
        "blend-svc-wc+nbsvm": ["linsvc-C0.5-bal/wc", "nbsvm-C0.1/w12-binary"],
        "blend-svc-w+svc-c": ["linsvc-C0.5-bal/w12", "linsvc-C0.3-bal/c25"],
        "blend-svc-wc+nbsvm+sgd": ["linsvc-C0.5-bal/wc", "nbsvm-C0.1/w12-binary", "sgd-mhuber-bal/wc"],
        "blend-all": list(strong),
    }
    for bname, parts in blends.items():
        candidates[bname] = np.mean([test_scores[k] for k in parts], axis=0)
        candidate_oof[bname] = np.mean([oof[k] for k in parts], axis=0)
    stack_train = np.hstack([oof[k] for k in strong])
    stack_test = np.hstack([test_scores[k] for k in strong])
    for cst in [0.03, 0.3]:
        stacker = LogisticRegression(C=cst, class_weight="balanced", max_iter=3000)
        inner = np.zeros((len(train), len(classes)))
        for a, b in folds:
            inner[b] = stacker.fit(stack_train[a], y_int[a]).decision_function(stack_train[b])
        stacker.fit(stack_train, y_int)
        candidates[f"stack-logreg-C{cst}"] = stacker.decision_function(stack_test)
        candidate_oof[f"stack-logreg-C{cst}"] = inner

    # Test passages' nearest neighbours among the test passages (cosine of word 1-2-gram tf-idf).
    sim = (x_w_test @ x_w_test.T).toarray()
    np.fill_diagonal(sim, -1.0)
    neighbours = np.argsort(-sim, axis=1, kind="stable")[:, :20]
    del sim
    for name, s in candidates.items():
        bias = fit_biases(candidate_oof[name], y_int)
        add(f"{name}", f"{describe(name)}", label(s))
        add(f"{name}/biased", f"{describe(name)}, class biases {np.round(bias, 2).tolist()} fitted out of fold", label(s + bias))
        for k in [5, 10, 20]:
            for weight in [0.5, 1.0]:
                smooth = (s + weight * s[neighbours[:, :k]].mean(axis=1)) / (1 + weight)
                add(f"{name}/neighbours-k{k}-w{weight}", f"{describe(name)}, mixed with its {k} nearest test passages (weight {weight})",
                    label(smooth))
                add(f"{name}/biased/neighbours-k{k}-w{weight}",
                    f"{describe(name)}, out-of-fold class biases, mixed with its {k} nearest test passages (weight {weight})",
                    label(smooth + bias))

    assert len({r["teamName"] for r in rows}) == len(rows)
    write_board(rows, OUT, lower_is_better=False)


def scores_of(model, x):
    """Decision scores (n, classes) of a fitted classifier; log-probabilities for naive Bayes."""
    if hasattr(model, "decision_function"):
        return np.asarray(model.decision_function(x))
    return model.predict_log_proba(x)


FEATURE_TAGS = {"wc": "tf-idf of word 1-2-grams and char 2-5-grams", "w12": "tf-idf of word 1-2-grams",
                "c25": "tf-idf of char 2-5-grams", "w12-binary": "binary word 1-2-grams"}


def describe(name):
    """The pipeline text of a strong candidate."""
    if name.startswith("blend-"):
        return f"mean of out-of-fold-standardised scores ({name[6:]})"
    if name.startswith("stack-"):
        return f"balanced logistic regression (C {name.split('-C')[1]}) stacked on 5-fold scores of 7 models"
    model, tag = name.split("/")
    return f"{model} on {FEATURE_TAGS[tag]}"


def surface(texts):
    """Word count, mean word length and share of capital letters of each text."""
    words = texts.str.split()
    n = words.str.len().to_numpy(dtype=float)
    mean_len = texts.str.len().to_numpy(dtype=float) / np.maximum(n, 1)
    caps = texts.str.count(r"[A-Z]").to_numpy(dtype=float) / np.maximum(texts.str.len().to_numpy(dtype=float), 1)
    return np.column_stack([n, mean_len, caps])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
