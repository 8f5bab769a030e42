#!/usr/bin/python3
"""Reference leaderboard for the offline `movie-ratings` competition.

Runs a documented population of standard regression pipelines on the public train split,
scores each by RMSE on the private answers, and writes
src/competitions/movie-ratings/leaderboard.csv (lowest RMSE first). The scores form a
*reference population* of pipelines, not a leaderboard of human teams.

Population (every combination is one entry):
  - training budget: a seeded 20% or 50% sample of train, or all of it;
  - trivial predictors, one entry per budget: the train mean, the train median, and the
    mean rating of the film's major genre (the overall mean for an unknown genre);
  - feature sets: "basic" (budget, release year, running time), "numeric" (adds the log
    grosses and DVD sales, log IMDB votes, the Rotten Tomatoes rating, release month) and
    "rich" (adds one-hot genre, MPAA rating, source and creative type); missing numbers are
    filled with the training sample's median and flagged with an indicator column;
  - models: ordinary least squares; ridge (alpha 0.1, 1, 10, 100); decision trees (depth 2,
    4, 6, 10, unlimited); random forests; gradient boosting (several depths and learning
    rates); k-nearest neighbours (k = 5, 15, 50) on standardised features.

Usage (Debian's interpreter, which has scikit-learn):
    node dist/cli/main.js prepare -c movie-ratings --data-dir /tmp/lb-data
    /usr/bin/python3 src/competitions/movie-ratings/leaderboard.py /tmp/lb-data
"""
import os
import sys

import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingRegressor, RandomForestRegressor
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.metrics import mean_squared_error
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeRegressor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
ID, TARGET = "id", "imdb_rating"
CATEGORIES = ["major_genre", "mpaa_rating", "source", "creative_type"]


def features(df, kind, ref):
    """Numeric feature matrix of the given richness; `ref` (the training sample) supplies medians and categories."""
    out = pd.DataFrame(index=df.index)

    def numeric(name, values, ref_values):
        # Medians come from the training sample only, so the test set never informs the fit.
        out[name] = values.fillna(ref_values.median())
        out[name + "_missing"] = values.isna().astype(float)

    date = pd.to_datetime(df.release_date)
    out["year"] = date.dt.year.astype(float)
    numeric("log_budget", np.log1p(df.production_budget), np.log1p(ref.production_budget))
    numeric("running_time", df.running_time_min, ref.running_time_min)
    if kind == "basic":
        return out
    out["month"] = date.dt.month.astype(float)
    for col in ["us_gross", "worldwide_gross", "us_dvd_sales"]:
        numeric("log_" + col, np.log1p(df[col]), np.log1p(ref[col]))
    out["log_votes"] = np.log1p(df.imdb_votes.astype(float))
    numeric("rotten_tomatoes", df.rotten_tomatoes_rating, ref.rotten_tomatoes_rating)
    if kind == "numeric":
        return out
    for col in CATEGORIES:
        # Levels seen at least 10 times in the training sample; rarer ones share the all-zero code.
        counts = ref[col].value_counts()
        for level in sorted(counts[counts >= 10].index):
            out[f"{col}={level}"] = (df[col] == level).astype(float)
    return out


def models():
    """(name, factory) for every fitted model in the population."""
    yield "ols", LinearRegression
    for a in [0.1, 1.0, 10.0, 100.0]:
        yield f"ridge-a{a}", lambda a=a: make_pipeline(StandardScaler(), Ridge(alpha=a))
    for depth in [2, 4, 6, 10, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeRegressor(max_depth=d, random_state=0)
    # One job: parallel forests add the trees' predictions in varying order, changing the last bits.
    for n, depth in [(100, 6), (200, None)]:
        yield f"forest-n{n}-d{depth}", lambda n=n, d=depth: RandomForestRegressor(
            n_estimators=n, max_depth=d, random_state=0, n_jobs=1)
    for lr, depth in [(0.05, 2), (0.1, 3), (0.1, 5), (0.3, 3)]:
        yield f"gbm-lr{lr}-d{depth}", lambda lr=lr, d=depth: GradientBoostingRegressor(
            learning_rate=lr, max_depth=d, random_state=0)
    for k in [5, 15, 50]:
        yield f"knn-k{k}", lambda k=k: make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=k))


def trivial(sub, test):
    """(name, predictions) of the predictors that ignore all but the genre."""
    mean = sub[TARGET].mean()
    yield "mean", np.full(len(test), mean)
    yield "median", np.full(len(test), sub[TARGET].median())
    by_genre = sub.groupby("major_genre")[TARGET].mean()
    yield "genre-mean", test.major_genre.map(by_genre).fillna(mean).to_numpy()


def rmse(truth, pred):
    """Root mean squared error as scikit-learn computes it."""
    return float(np.sqrt(mean_squared_error(truth, pred)))


def main(data_dir):
    prepared = os.path.join(data_dir, "movie-ratings", "prepared")
    train = pd.read_csv(os.path.join(prepared, "public", "train.csv"))
    test = pd.read_csv(os.path.join(prepared, "public", "test.csv"))
    answers = pd.read_csv(os.path.join(prepared, "private", "test.csv"))
    sample = pd.read_csv(os.path.join(prepared, "public", "sample_submission.csv"))
    truth = test[[ID]].merge(answers, on=ID, how="left")[TARGET].to_numpy()
    assert not np.isnan(truth).any(), "answers do not cover every test id"
    rows = []

    def add(name, kind, pct, pred, what):
        rows.append({"teamName": f"{name}/{kind}/{pct}pct", "score": rmse(truth, pred),
                     "pipeline": f"{what}, {pct}% of train"})

    for budget in [0.2, 0.5, 1.0]:
        pct = int(budget * 100)
        sub = train.sample(frac=budget, random_state=7) if budget < 1 else train
        for name, pred in trivial(sub, test):
            add(name, "none", pct, pred, f"{name} of imdb_rating")
        for kind in ["basic", "numeric", "rich"]:
            x_train, x_test = features(sub, kind, sub), features(test, kind, sub)
            for name, factory in models():
                pred = factory().fit(x_train, sub[TARGET]).predict(x_test)
                add(name, kind, pct, pred, f"{name} on {kind} features")
    baseline = rmse(truth, sample.set_index(ID).loc[test[ID], TARGET].to_numpy())
    write_board(rows, OUT, lower_is_better=True, note=f" (sample submission {baseline:.5f})")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
