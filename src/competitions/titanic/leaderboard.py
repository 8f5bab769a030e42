#!/usr/bin/python3
"""Reference leaderboard for the offline `titanic` competition.

Runs a documented population of standard pipelines (trivial baselines, linear models, trees,
ensembles, nearest neighbours, naive Bayes; several feature sets; several training budgets) on
the public train split, scores each on the private answers, and writes
src/competitions/titanic/leaderboard.csv (best first). The scores form a *reference
population* of pipelines, not a leaderboard of human teams.

Usage (Debian's interpreter, which has scikit-learn):
    node dist/cli/main.js prepare -c titanic --data-dir /tmp/lb-data
    /usr/bin/python3 src/competitions/titanic/leaderboard.py /tmp/lb-data
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
from board import write_board

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")


def features(df, kind):
    """Numeric feature matrices of increasing richness."""
    out = pd.DataFrame(index=df.index)
    out["female"] = (df.Sex == "female").astype(float)
    if kind == "sex":
        return out
    out["pclass"] = df.Pclass.astype(float)
    if kind == "sex+class":
        return out
    out["age"] = df.Age.fillna(28.0)
    out["age_missing"] = df.Age.isna().astype(float)
    out["sibsp"] = df.SibSp.astype(float)
    out["parch"] = df.Parch.astype(float)
    out["fare"] = np.log1p(df.Fare.fillna(14.45))
    if kind == "basic":
        return out
    for port in ["C", "Q", "S"]:
        out["emb_" + port] = (df.Embarked == port).astype(float)
    title = df.Name.str.extract(r",\s*([^\.]+)\.")[0].fillna("")
    for t in ["Mr", "Mrs", "Miss", "Master"]:
        out["title_" + t] = (title == t).astype(float)
    out["family"] = out.sibsp + out.parch
    out["has_cabin"] = df.Cabin.notna().astype(float)
    return out


def models():
    """(name, factory) for every model in the population."""
    yield "majority", None
    for c in [0.001, 0.01, 0.1, 1.0, 10.0]:
        yield f"logreg-C{c}", lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=1000))
    for depth in [1, 2, 3, 4, 6, 10, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeClassifier(max_depth=d, random_state=0)
    for n, depth in [(10, 3), (100, 4), (100, 8), (300, None)]:
        yield f"forest-n{n}-d{depth}", lambda n=n, d=depth: RandomForestClassifier(n_estimators=n, max_depth=d, random_state=0)
    for lr, depth in [(0.05, 2), (0.1, 3), (0.3, 5)]:
        yield f"gbm-lr{lr}-d{depth}", lambda lr=lr, d=depth: GradientBoostingClassifier(learning_rate=lr, max_depth=d, random_state=0)
    for k in [1, 5, 15]:
        yield f"knn-k{k}", lambda k=k: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=k))
    yield "naive-bayes", GaussianNB


def main(data_dir):
    pub = os.path.join(data_dir, "titanic", "prepared", "public")
    train = pd.read_csv(os.path.join(pub, "train.csv"))
    test = pd.read_csv(os.path.join(pub, "test.csv"))
    answers = pd.read_csv(os.path.join(data_dir, "titanic", "prepared", "private", "test.csv"))
    truth = test[["PassengerId"]].merge(answers, on="PassengerId").Survived.to_numpy()
    rows = []
    for budget in [0.1, 0.3, 1.0]:
        sub = train.sample(frac=budget, random_state=7) if budget < 1 else train
        for kind in ["sex", "sex+class", "basic", "rich"]:
            x_train, x_test = features(sub, kind), features(test, kind)
            for name, factory in models():
                if factory is None:
                    if kind != "sex":
                        continue  # the majority class ignores features: one entry per budget
                    pred = np.full(len(test), sub.Survived.mode()[0])
                else:
                    pred = factory().fit(x_train, sub.Survived).predict(x_test)
                score = float((pred == truth).mean())
                rows.append({"teamName": f"{name}/{kind}/{int(budget * 100)}pct", "score": score,
                             "pipeline": f"{name} on {kind} features, {int(budget * 100)}% of train"})
    write_board(rows, OUT, lower_is_better=False)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
