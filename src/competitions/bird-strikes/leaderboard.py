#!/usr/bin/python3
"""Reference leaderboard for the offline `bird-strikes` competition.

Runs a documented population of standard pipelines (a constant, linear models, trees,
ensembles, nearest neighbours, naive Bayes; several feature sets; several training budgets) on
the public train split, scores each by ROC AUC on the private answers, and writes
leaderboard.csv beside this script (best first). The scores form a *reference population* of
pipelines, not a leaderboard of human teams.

Usage (Debian's interpreter, which has scikit-learn):
    node dist/cli/main.js prepare -c bird-strikes --data-dir /tmp/lb-data
    /usr/bin/python3 src/competitions/bird-strikes/leaderboard.py /tmp/lb-data
"""
import os
import sys

import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.naive_bayes import BernoulliNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")

# Categorical columns each feature set one-hot encodes (levels seen fewer than 20 times in the
# training rows are pooled), and whether it adds the speed and the date.
FEATURE_SETS = {
    "size": (["wildlife_size"], False, False),
    "size+phase": (["wildlife_size", "phase"], False, False),
    "basic": (["wildlife_size", "phase", "time_of_day"], True, False),
    "rich": (["wildlife_size", "phase", "time_of_day", "species", "aircraft", "operator", "airport", "state"], True, True),
}


def features(train, test, kind):
    """Numeric matrices for train and test, the encoding fitted on train alone."""
    cats, speed, date = FEATURE_SETS[kind]
    parts_train, parts_test = [], []
    for col in cats:
        counts = train[col].value_counts()
        levels = sorted(counts[counts >= 20].index)
        for level in levels:
            parts_train.append((train[col] == level).astype(float).rename(f"{col}={level}"))
            parts_test.append((test[col] == level).astype(float).rename(f"{col}={level}"))
    for df, parts in ((train, parts_train), (test, parts_test)):
        if speed:
            parts.append(df.speed_knots.fillna(train.speed_knots.median()).rename("speed"))
            parts.append(df.speed_knots.isna().astype(float).rename("speed_missing"))
        if date:
            when = pd.to_datetime(df.flight_date)
            parts.append(pd.Series(when.dt.month.astype(float), index=df.index, name="month"))
            parts.append(pd.Series((when.dt.year - 1990).astype(float), index=df.index, name="year"))
    return pd.concat(parts_train, axis=1).to_numpy(), pd.concat(parts_test, axis=1).to_numpy()


def models():
    """(name, factory) for every model in the population; None is the constant prediction."""
    yield "constant", None
    for c in [0.001, 0.01, 0.1, 1.0, 10.0]:
        yield f"logreg-C{c}", lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=2000))
    for depth in [1, 2, 3, 4, 6, 10, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeClassifier(max_depth=d, min_samples_leaf=5, random_state=0)
    for n, depth in [(10, 3), (100, 4), (100, 8), (300, None)]:
        yield f"forest-n{n}-d{depth}", lambda n=n, d=depth: RandomForestClassifier(n_estimators=n, max_depth=d, min_samples_leaf=3, random_state=0)
    for lr, depth in [(0.05, 2), (0.1, 3), (0.3, 5)]:
        yield f"gbm-lr{lr}-d{depth}", lambda lr=lr, d=depth: GradientBoostingClassifier(learning_rate=lr, max_depth=d, random_state=0)
    for k in [5, 25, 100]:
        yield f"knn-k{k}", lambda k=k: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=k))
    yield "naive-bayes", BernoulliNB


def main(data_dir):
    root = os.path.join(data_dir, "bird-strikes", "prepared")
    train = pd.read_csv(os.path.join(root, "public", "train.csv"), keep_default_na=False, na_values=[""])
    test = pd.read_csv(os.path.join(root, "public", "test.csv"), keep_default_na=False, na_values=[""])
    answers = pd.read_csv(os.path.join(root, "private", "test.csv"))
    truth = test[["id"]].merge(answers, on="id").damaged.to_numpy()
    rows = []
    for budget in [0.1, 0.3, 1.0]:
        sub = train.sample(frac=budget, random_state=7) if budget < 1 else train
        for kind in FEATURE_SETS:
            x_train, x_test = features(sub, test, kind)
            for name, factory in models():
                if factory is None:
                    if kind != "size":
                        continue  # a constant ignores features: one entry per budget
                    score = roc_auc_score(truth, np.full(len(test), sub.damaged.mean()))
                else:
                    score = roc_auc_score(truth, factory().fit(x_train, sub.damaged).predict_proba(x_test)[:, 1])
                rows.append({"teamName": f"{name}/{kind}/{int(budget * 100)}pct", "score": float(score),
                             "pipeline": f"{name} on {kind} features, {int(budget * 100)}% of train"})
    write_board(rows, OUT, lower_is_better=False)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
