#!/usr/bin/python3
"""Reference leaderboard for the offline `digits` competition.

Runs a documented population of standard pipelines on the public train split, scores each on
the private answers with multi-class log loss, and writes src/competitions/digits/leaderboard.csv
(best, i.e. lowest, first). The scores form a *reference population* of pipelines, not a
leaderboard of human teams.

The population:
- constant baselines: uniform 0.1 for every digit; the training set's class frequencies;
- Gaussian naive Bayes (scikit-learn's default variance smoothing, and a heavier one);
- logistic regression (C = 0.001, 0.01, 0.1, 1, 10) on raw pixels (0..16) and on standardised
  pixels;
- k-nearest neighbours on raw pixels (k = 1, 3, 5, 10, 25 with plain votes; k = 5, 10 with
  distance-weighted votes);
- decision trees (depth 2, 4, 8, unlimited), random forests, extra trees, small gradient
  boosting;
- RBF support vector machines with Platt-scaled probabilities (C = 1, 10);
- PCA to 10 or 30 components, then logistic regression;
- three training budgets: a stratified random 10%, 30% or 100% of the training images.

Every pipeline's predict_proba is widened to all ten digits (a digit absent from its training
rows gets 0), clipped to [1e-4, 1] and renormalised so each row sums to one, as a careful
submission would be; without the floor, a 1-nearest-neighbour's zeros would cost ~36 per
mistake. The score is the log loss by its formula: probabilities clipped to [eps, 1 - eps] with
eps the float64 machine epsilon, rows not renormalised. (scikit-learn 1.2's log_loss
renormalises and clips at 1e-15, so it is not used.)

Everything runs single-threaded with fixed random states, so the output is reproducible.

Usage (Debian's interpreter, which has scikit-learn):
    node dist/cli/main.js prepare -c digits --data-dir /tmp/lb-data
    /usr/bin/python3 src/competitions/digits/leaderboard.py /tmp/lb-data
"""
import os

# Thread counts are fixed before numpy loads: parallel BLAS reductions may sum in varying orders.
for var in ["OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"]:
    os.environ[var] = "1"

import sys  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402
from sklearn.ensemble import ExtraTreesClassifier, GradientBoostingClassifier, RandomForestClassifier  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import SVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import log_loss, normalise, write_board  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
CLASSES = [str(d) for d in range(10)]
PIXELS = [f"pixel{k}" for k in range(64)]
# Floor applied before renormalising, so no pipeline stakes everything on a single digit.
PROBA_FLOOR = 1e-4


def models():
    """(name, factory) for every fitted model in the population."""
    yield "naive-bayes", GaussianNB
    yield "naive-bayes-smooth0.1", lambda: GaussianNB(var_smoothing=0.1)
    for c in [0.001, 0.01, 0.1, 1.0, 10.0]:
        yield f"logreg-C{c}/raw", lambda c=c: LogisticRegression(C=c, max_iter=5000)
        yield f"logreg-C{c}/scaled", lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=5000))
    for k in [1, 3, 5, 10, 25]:
        yield f"knn-k{k}", lambda k=k: KNeighborsClassifier(n_neighbors=k)
    for k in [5, 10]:
        yield f"knn-k{k}-distance", lambda k=k: KNeighborsClassifier(n_neighbors=k, weights="distance")
    for depth in [2, 4, 8, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeClassifier(max_depth=d, random_state=0)
    for n, depth in [(100, 6), (100, None), (300, None)]:
        yield f"forest-n{n}-d{depth}", lambda n=n, d=depth: RandomForestClassifier(n_estimators=n, max_depth=d, random_state=0)
    for n in [100, 300]:
        yield f"extra-trees-n{n}", lambda n=n: ExtraTreesClassifier(n_estimators=n, random_state=0)
    for n, depth in [(50, 2), (100, 3)]:
        yield f"gbm-n{n}-d{depth}", lambda n=n, d=depth: GradientBoostingClassifier(
            n_estimators=n, max_depth=d, learning_rate=0.1, random_state=0)
    for c in [1.0, 10.0]:
        yield f"svc-rbf-C{c}", lambda c=c: SVC(C=c, probability=True, random_state=0)
    for k in [10, 30]:
        yield f"pca{k}-logreg", lambda k=k: make_pipeline(
            StandardScaler(), PCA(n_components=k, random_state=0), LogisticRegression(C=1.0, max_iter=5000))


def widen(proba, classes):
    """predict_proba's columns (the digits seen in training) spread over all ten digits."""
    out = np.zeros((proba.shape[0], len(CLASSES)))
    for j, c in enumerate(classes):
        out[:, CLASSES.index(str(c))] = proba[:, j]
    return out




def main(data_dir):
    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    root = os.path.join(data_dir, "digits", "prepared")
    train = pd.read_csv(os.path.join(root, "public", "train.csv"))
    test = pd.read_csv(os.path.join(root, "public", "test.csv"))
    answers = pd.read_csv(os.path.join(root, "private", "test.csv"))
    truth = test[["id"]].merge(answers, on="id", how="left")[CLASSES].to_numpy(dtype=float)
    assert np.allclose(truth.sum(axis=1), 1.0), "every test id needs a one-hot answer"
    x_test = test[PIXELS].to_numpy(dtype=float)
    rows = []

    def add(team, pipeline, p):
        rows.append({"teamName": team, "score": log_loss(truth, normalise(p, PROBA_FLOOR)), "pipeline": pipeline})

    add("uniform", "0.1 for every digit", np.full((len(test), len(CLASSES)), 1 / len(CLASSES)))
    for budget in [0.1, 0.3, 1.0]:
        if budget == 1.0:
            sub = train
        else:
            sub, _ = train_test_split(train, train_size=budget, stratify=train.label, random_state=0)
        pct = f"{int(budget * 100)}pct"
        where = "all of train" if budget == 1.0 else f"a stratified random {int(budget * 100)}% of train"
        freq = sub.label.astype(str).value_counts(normalize=True).reindex(CLASSES, fill_value=0.0).to_numpy()
        add(f"class-frequencies/{pct}", f"training class frequencies on {where}", np.tile(freq, (len(test), 1)))
        x_train, y_train = sub[PIXELS].to_numpy(dtype=float), sub.label.to_numpy()
        for name, factory in models():
            model = factory().fit(x_train, y_train)
            add(f"{name}/{pct}", f"{name} on {where} ({len(sub)} images)",
                widen(model.predict_proba(x_test), list(model.classes_)))
    assert len({r["teamName"] for r in rows}) == len(rows)
    write_board(rows, OUT, lower_is_better=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
