#!/usr/bin/python3
"""Reference leaderboard for the offline `seattle-weather` competition.

Runs a documented population of standard pipelines on the public train split, scores each on
the private answers with multi-class log loss, and writes
src/competitions/seattle-weather/leaderboard.csv (best, i.e. lowest, first). The scores form a
*reference population* of pipelines, not a leaderboard of human teams.

The population:
- constant baselines: uniform 0.2 for every type; the training set's class frequencies;
- models: logistic regression (C = 0.01, 0.1, 1, 10), decision trees (depth 2, 4, 6, 10,
  unlimited), random forests, gradient boosting, k-nearest neighbours (k = 5, 15, 50) and
  Gaussian naive Bayes;
- three feature sets: "weather" (the four measurements), "seasonal" (plus month and the day of
  the year as a point on a circle), "rich" (plus temperature range, a wet-day flag and
  log precipitation);
- three training budgets: the most recent 30%, 60% or 100% of the training days. The most
  recent days are kept (not a random sample) because the split is by time: a pipeline with
  little budget would sensibly train on the days closest to the test period.

Every pipeline's predict_proba is widened to all five types (a type absent from its training
days gets 0), clipped to [1e-4, 1] and renormalised so each row sums to one, as a careful
submission would be. The score is the log loss by its formula: probabilities clipped to
[eps, 1 - eps] with eps the float64 machine epsilon, rows not renormalised. (scikit-learn 1.2's
log_loss renormalises and clips at 1e-15, so it is not used.)

Usage (Debian's interpreter, which has scikit-learn):
    node dist/cli/main.js prepare -c seattle-weather --data-dir /tmp/lb-data
    /usr/bin/python3 src/competitions/seattle-weather/leaderboard.py /tmp/lb-data
"""
import os
import sys

import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import log_loss, normalise, write_board

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
CLASSES = ["drizzle", "fog", "rain", "snow", "sun"]
# Floor applied before renormalising, so no pipeline stakes everything on a single type.
PROBA_FLOOR = 1e-4


def features(df, kind):
    """Numeric feature matrices of increasing richness."""
    out = df[["precipitation", "temp_max", "temp_min", "wind"]].astype(float)
    if kind == "weather":
        return out
    date = pd.to_datetime(df.date)
    angle = 2 * np.pi * (date.dt.dayofyear - 1) / 365.25
    out = out.assign(month=date.dt.month.astype(float), doy_sin=np.sin(angle), doy_cos=np.cos(angle))
    if kind == "seasonal":
        return out
    return out.assign(temp_range=df.temp_max - df.temp_min,
                      wet=(df.precipitation > 0).astype(float),
                      log_precip=np.log1p(df.precipitation))


def models():
    """(name, factory) for every fitted model in the population."""
    for c in [0.01, 0.1, 1.0, 10.0]:
        yield f"logreg-C{c}", lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=2000))
    for depth in [2, 4, 6, 10, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeClassifier(max_depth=d, random_state=0)
    for n, depth, leaf in [(100, 4, 1), (100, 8, 1), (300, None, 1), (300, None, 5)]:
        yield f"forest-n{n}-d{depth}-leaf{leaf}", lambda n=n, d=depth, leaf=leaf: RandomForestClassifier(
            n_estimators=n, max_depth=d, min_samples_leaf=leaf, random_state=0)
    for lr, depth in [(0.05, 2), (0.1, 3)]:
        yield f"gbm-lr{lr}-d{depth}", lambda lr=lr, d=depth: GradientBoostingClassifier(
            learning_rate=lr, max_depth=d, random_state=0)
    for k in [5, 15, 50]:
        yield f"knn-k{k}", lambda k=k: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=k))
    yield "naive-bayes", GaussianNB


def widen(proba, classes):
    """predict_proba's columns (the classes seen in training) spread over all five types."""
    out = np.zeros((proba.shape[0], len(CLASSES)))
    for j, c in enumerate(classes):
        out[:, CLASSES.index(c)] = proba[:, j]
    return out




def main(data_dir):
    root = os.path.join(data_dir, "seattle-weather", "prepared")
    train = pd.read_csv(os.path.join(root, "public", "train.csv")).sort_values("date", kind="mergesort")
    test = pd.read_csv(os.path.join(root, "public", "test.csv"))
    answers = pd.read_csv(os.path.join(root, "private", "test.csv"))
    truth = test[["id"]].merge(answers, on="id", how="left")[CLASSES].to_numpy(dtype=float)
    rows = []

    def add(team, pipeline, p):
        rows.append({"teamName": team, "score": log_loss(truth, normalise(p, PROBA_FLOOR)), "pipeline": pipeline})

    add("uniform", "0.2 for every weather type", np.full((len(test), len(CLASSES)), 1 / len(CLASSES)))
    for budget in [0.3, 0.6, 1.0]:
        sub = train.iloc[len(train) - int(round(len(train) * budget)):]
        pct = f"{int(budget * 100)}pct"
        where = "all of train" if budget == 1.0 else f"the most recent {int(budget * 100)}% of train"
        freq = sub.weather.value_counts(normalize=True).reindex(CLASSES, fill_value=0.0).to_numpy()
        add(f"class-frequencies/{pct}", f"training class frequencies on {where}", np.tile(freq, (len(test), 1)))
        for kind in ["weather", "seasonal", "rich"]:
            x_train, x_test = features(sub, kind), features(test, kind)
            for name, factory in models():
                model = factory().fit(x_train, sub.weather)
                add(f"{name}/{kind}/{pct}", f"{name} on {kind} features, {where}",
                    widen(model.predict_proba(x_test), list(model.classes_)))
    assert len({r["teamName"] for r in rows}) == len(rows)
    write_board(rows, OUT, lower_is_better=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
