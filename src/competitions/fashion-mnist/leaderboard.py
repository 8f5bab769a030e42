#!/usr/bin/python3
"""Reference leaderboard for the offline `fashion-mnist` competition.

Runs a documented population of standard pipelines on the public train split, scores each by
accuracy on the private answers, and writes src/competitions/fashion-mnist/leaderboard.csv
(best first). The scores form a *reference population* of pipelines, not a leaderboard of
human teams.

The population, each trained on random 5%, 20% and 100% subsamples of the 60,000 training
images:
- trivial: the majority class of the subsample;
- prototype and generative models: nearest centroid, Gaussian naive Bayes;
- linear models: multinomial logistic regression (several C) and linear SVMs / logistic
  regression trained by SGD (several alpha), on raw pixels (0-255), on pixels / 255, and on
  PCA features;
- k nearest neighbours (several k) on PCA features;
- decision trees (several depths), random forests and extra trees, on pixels and on PCA features;
- an RBF support vector machine on PCA features and a one-hidden-layer perceptron on pixels / 255.

Features: "raw" is the 784 pixels as given, "scaled" is pixels / 255, "pcaN" is the first N
principal components of the scaled pixels, fitted on the training subsample only (one exact
SVD per subsample; the first N components of a 100-component fit are exactly an N-component fit).

Models that are slow on all 60,000 images have a cap on their training rows: they see the
first `cap` images of the subsample, and the entry's name records the share of the training
set actually used (e.g. "33pct" for 20,000 images). The whole run takes about 10 minutes on
two idle cores. Every random choice has a fixed seed. The subsamples are nested (pandas draws one
permutation and keeps its head), so a capped model whose cap matches a smaller budget would repeat
that budget's entry; it is listed once.

Usage (Debian's interpreter, which has scikit-learn):
    node dist/cli/main.js prepare -c fashion-mnist --data-dir /tmp/lb-data
    /usr/bin/python3 src/competitions/fashion-mnist/leaderboard.py /tmp/lb-data
"""
import os
import sys
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.decomposition import PCA
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
ID = "fashion-mnist"
BUDGETS = [0.05, 0.2, 1.0]
PCA_MAX = 100


def models():
    """(name, features, row cap or None, factory) for every model in the population."""
    yield "majority", "none", None, None
    yield "nearest-centroid", "raw", None, NearestCentroid
    yield "nearest-centroid", "pca30", None, NearestCentroid
    for feats in ["raw", "pca30", "pca50"]:
        yield "naive-bayes", feats, None, GaussianNB
    for c in [0.001, 0.01, 0.1, 1.0]:
        yield f"logreg-C{c}", "pca50", None, lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=300))
    for feats in ["pca10", "pca100"]:
        for c in [0.01, 1.0]:
            yield f"logreg-C{c}", feats, None, lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=300))
    for c in [0.01, 1.0]:
        yield f"logreg-C{c}", "scaled", 20_000, lambda c=c: LogisticRegression(C=c, max_iter=100)
    yield "logreg-C0.01", "raw", 12_000, lambda: LogisticRegression(C=0.01, max_iter=100)
    # Weak regularisation, and unscaled pixels, make SGD take many epochs to settle: capped.
    for alpha, cap in [(1e-5, 20_000), (1e-4, None), (1e-3, None)]:
        yield f"sgd-svm-a{alpha}", "scaled", cap, lambda a=alpha: SGDClassifier(alpha=a, random_state=0, n_jobs=2)
    yield "sgd-svm-a0.0001", "raw", 20_000, lambda: SGDClassifier(alpha=1e-4, random_state=0, n_jobs=2)
    yield "sgd-logreg-a0.0001", "pca50", None, lambda: SGDClassifier(loss="log_loss", alpha=1e-4, random_state=0, n_jobs=2)
    for feats in ["pca30", "pca50"]:
        for k in [1, 3, 5, 10, 25]:
            yield f"knn-k{k}", feats, None, lambda k=k: KNeighborsClassifier(n_neighbors=k, n_jobs=2)
    for depth in [4, 8, 12, None]:
        yield f"tree-d{depth}", "pca50", None, lambda d=depth: DecisionTreeClassifier(max_depth=d, random_state=0)
    for depth in [5, 10, None]:
        yield f"tree-d{depth}", "raw", 20_000, lambda d=depth: DecisionTreeClassifier(max_depth=d, random_state=0)
    for n in [10, 100]:
        yield f"forest-n{n}", "pca50", None, lambda n=n: RandomForestClassifier(n_estimators=n, random_state=0, n_jobs=2)
    yield "forest-n30", "raw", 20_000, lambda: RandomForestClassifier(n_estimators=30, random_state=0, n_jobs=2)
    yield "extra-trees-n100", "pca50", None, lambda: ExtraTreesClassifier(n_estimators=100, random_state=0, n_jobs=2)
    yield "extra-trees-n50", "raw", 20_000, lambda: ExtraTreesClassifier(n_estimators=50, random_state=0, n_jobs=2)
    for c, cap in [(1.0, 20_000), (10.0, None)]:
        yield f"svm-rbf-C{c}", "pca50", cap, lambda c=c: SVC(C=c)
    yield "mlp-256", "scaled", 20_000, lambda: MLPClassifier(hidden_layer_sizes=(256,), max_iter=20, random_state=0)


def features(x_train, x_test, kind, cache):
    """The feature matrices of one kind for a training subsample and the test set."""
    if kind == "raw":
        return x_train, x_test
    if kind == "scaled":
        return x_train / 255.0, x_test / 255.0
    n = int(kind[3:])
    if "pca" not in cache:
        pca = PCA(n_components=PCA_MAX, svd_solver="full").fit(x_train / 255.0)
        cache["pca"] = pca.transform(x_train / 255.0), pca.transform(x_test / 255.0)
    p_train, p_test = cache["pca"]
    return p_train[:, :n], p_test[:, :n]


def main(data_dir):
    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    root = os.path.join(data_dir, ID, "prepared")
    train = pd.read_csv(os.path.join(root, "public", "train.csv"))
    test = pd.read_csv(os.path.join(root, "public", "test.csv"))
    answers = pd.read_csv(os.path.join(root, "private", "test.csv"))
    truth = test[["id"]].merge(answers, on="id", how="left").label.to_numpy()
    pixels = [c for c in train.columns if c.startswith("pixel")]
    x_test_all = test[pixels].to_numpy(np.float64)
    total = len(train)
    rows = []
    started = time.time()
    for budget in BUDGETS:
        # frac=1.0 too: a shuffled full set, whose head is what capped models see.
        sub = train.sample(frac=budget, random_state=7)
        caches = {}
        for name, kind, cap, factory in models():
            n = len(sub) if cap is None else min(len(sub), cap)
            pct = int(round(100 * n / total))
            team = f"{name}/{kind}/{pct}pct"
            if any(r["teamName"] == team for r in rows):
                continue  # capped at a smaller budget's size: the very rows of that earlier entry
            part = sub.iloc[:n]
            y_train = part.label.to_numpy()
            t0 = time.time()
            if factory is None:
                pred = np.full(len(test), part.label.mode()[0])
            else:
                x_train, x_test = features(part[pixels].to_numpy(np.float64), x_test_all, kind, caches.setdefault(n, {}))
                pred = factory().fit(x_train, y_train).predict(x_test)
            score = float((pred == truth).mean())
            what = "majority class, no features" if factory is None else f"{name} on {kind} features"
            rows.append({"teamName": team, "score": score,
                         "pipeline": f"{what}, {n:,} of the {total:,} training images ({pct}%)"})
            print(f"{team:40s} {score:.4f} {time.time() - t0:6.1f}s (total {time.time() - started:6.0f}s)",
                  file=sys.stderr, flush=True)
    write_board(rows, OUT, lower_is_better=False)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
