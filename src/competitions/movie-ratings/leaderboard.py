#!/usr/bin/python3
"""Reference leaderboard for the offline `movie-ratings` competition.

Trains a documented population of regression pipelines on the public train split (2,059
films), scores each by RMSE on the private answers (883 films), and writes
src/competitions/movie-ratings/leaderboard.csv (lowest RMSE first). The scores form a
*reference population* of pipelines, not a leaderboard of human teams. Nothing but the final
scoring reads the answers: every hyper-parameter, round count, blend and stacking weight is
chosen by 5-fold cross-validation on train.

The population (about 620 entries), bottom to top:

1. Trivial: the train mean and median, a constant 6, the mean rating of the film's genre, of
   its MPAA rating, of its release decade; one-feature linear fits on the Rotten Tomatoes
   rating (missing: the mean) and on log IMDB votes.
2. Small budgets and badly regularised models: a seeded 5%, 10% or 20% sample of train with
   the standard models below; unpruned trees and 1-nearest-neighbour on any budget.
3. Standard pipelines, every combination of
   - feature sets "basic" (budget, release year, running time), "numeric" (adds the log
     grosses and DVD sales, log IMDB votes, the Rotten Tomatoes rating, release month) and
     "rich" (adds one-hot genre, MPAA rating, source and creative type); missing numbers are
     filled with the training sample's median and flagged;
   - models: least squares; ridge (alpha 0.1 ... 100); lasso; decision trees (depth 2 ...
     unlimited); random forests; extra trees; gradient boosting (several depths and learning
     rates); histogram gradient boosting; AdaBoost; k-nearest neighbours; an RBF SVR; a
     default MLP;
   - budgets: 50% and 100% of train.
4. Strong pipelines on hand-made features ("engineered"), what a film buff would add: votes
   per year since release, votes relative to the US gross and to the budget (fans per
   ticket), return on budget, the international share of the gross, DVD sales relative to the
   gross, critics' rating x votes, the count of missing fields, frequency of the director and
   distributor over train and test, and out-of-fold smoothed target encodings (with counts)
   of director, distributor, genre, source, creative type and MPAA rating (fitted inside each
   CV fold, never on the row being encoded). On them:
   - xgboost tuned by random search (48 draws of learning rate, depth, child weight,
     subsampling, column sampling, L1/L2, gamma) on 5-fold CV with early stopping; every
     draw is two entries (its five fold models averaged on test; a refit on all of train with
     the CV's mean best round count), the best ones also seed-averaged and blended with the
     best forest;
   - random forests and extra trees over a grid, scikit-learn gradient boosting (squared and
     Huber loss), ridge with spline-expanded numbers, an RBF SVR, kNN, MLPs (standardised
     target) bagged over seeds;
   - blends with CV-chosen weights (non-negative least squares on the out-of-fold
     predictions, greedy forward selection) and stacking (ridge on out-of-fold predictions).

Runtime: about 6 CPU-minutes, single-threaded (OMP/BLAS threads pinned to 1).

Usage (Debian's interpreter, which has scikit-learn and xgboost):
    node dist/cli/main.js prepare -c movie-ratings --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/movie-ratings/leaderboard.py /tmp/lb-data
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import xgboost as xgb  # noqa: E402
from scipy.optimize import nnls  # noqa: E402
from sklearn.compose import TransformedTargetRegressor  # noqa: E402
from sklearn.ensemble import (AdaBoostRegressor, ExtraTreesRegressor, GradientBoostingRegressor,  # noqa: E402
                              HistGradientBoostingRegressor, RandomForestRegressor)
from sklearn.linear_model import Lasso, LinearRegression, Ridge  # noqa: E402
from sklearn.model_selection import KFold  # noqa: E402
from sklearn.neighbors import KNeighborsRegressor  # noqa: E402
from sklearn.neural_network import MLPRegressor  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import SplineTransformer, StandardScaler  # noqa: E402
from sklearn.svm import SVR  # noqa: E402
from sklearn.tree import DecisionTreeRegressor  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board  # noqa: E402

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
ID, TARGET = "id", "imdb_rating"
CATEGORIES = ["major_genre", "mpaa_rating", "source", "creative_type"]
ENCODED = ["director", "distributor", "major_genre", "source", "creative_type", "mpaa_rating"]
FOLDS = 5


def raw_features(df, kind, ref):
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


def engineered_base(full, n_train):
    """The label-free hand-made features for all films (train rows first)."""
    X = pd.DataFrame(index=full.index)
    date = pd.to_datetime(full.release_date)
    X["year"] = date.dt.year.astype(float)
    X["month"] = date.dt.month.astype(float)
    X["weekday"] = date.dt.dayofweek.astype(float)
    for c in ["us_gross", "worldwide_gross", "us_dvd_sales", "production_budget"]:
        X["log_" + c] = np.log1p(full[c])
    X["log_votes"] = np.log1p(full.imdb_votes.astype(float))
    years_out = (2011 - X.year).clip(lower=1)
    X["log_votes_per_year"] = X.log_votes - np.log(years_out)
    X["votes_vs_year"] = X.log_votes - X.groupby("year").log_votes.transform("median")
    X["votes_per_gross"] = X.log_votes - X.log_us_gross
    X["votes_per_budget"] = X.log_votes - X.log_production_budget
    X["roi"] = X.log_worldwide_gross - X.log_production_budget
    X["intl"] = np.log1p((full.worldwide_gross - full.us_gross).clip(lower=0))
    X["dvd_ratio"] = X.log_us_dvd_sales - X.log_us_gross
    X["rt"] = full.rotten_tomatoes_rating
    X["rt_missing"] = X.rt.isna().astype(float)
    X["rt_x_votes"] = X.rt * X.log_votes
    X["runtime"] = full.running_time_min
    X["n_missing"] = full[["mpaa_rating", "running_time_min", "source", "major_genre", "creative_type", "director",
                           "rotten_tomatoes_rating"]].isna().sum(axis=1).astype(float)
    for c in ["director", "distributor"]:
        X[c + "_freq"] = full[c].map(full[c].value_counts()).fillna(0).astype(float)
    train = full.iloc[:n_train]
    for col in CATEGORIES:
        counts = train[col].value_counts()
        for level in sorted(counts[counts >= 10].index):
            X[f"{col}={level}"] = (full[col] == level).astype(float)
    return X


def target_encode(full, y, fit_rows, apply_rows, smoothing=10):
    """Smoothed mean of y by category over fit_rows, for apply_rows; plus the category's count."""
    out = {}
    for c in ENCODED:
        key = full[c].fillna("NA")
        s = pd.DataFrame({"k": key.iloc[fit_rows].to_numpy(), "y": y[fit_rows]})
        g = s.groupby("k").y.agg(["sum", "count"])
        mean = s.y.mean()
        enc = (g["sum"] + smoothing * mean) / (g["count"] + smoothing)
        out["te_" + c] = key.iloc[apply_rows].map(enc).fillna(mean).to_numpy()
        out["n_" + c] = key.iloc[apply_rows].map(g["count"]).fillna(0).to_numpy(dtype=float)
    return pd.DataFrame(out)


def with_encodings(base, full, y, fit_rows, apply_rows, inner_seed):
    """base rows `apply_rows` plus target encodings fitted on `fit_rows`; where apply and fit coincide
    (training rows), the encodings are out-of-fold over an inner 5-fold split."""
    if np.array_equal(fit_rows, apply_rows):
        enc = pd.DataFrame(index=range(len(fit_rows)), columns=None)
        parts = []
        for a, b in KFold(FOLDS, shuffle=True, random_state=inner_seed).split(fit_rows):
            e = target_encode(full, y, fit_rows[a], fit_rows[b])
            e.index = b
            parts.append(e)
        enc = pd.concat(parts).sort_index()
    else:
        enc = target_encode(full, y, fit_rows, apply_rows)
    return np.column_stack([base.iloc[apply_rows].to_numpy(dtype=float), enc.to_numpy(dtype=float)])


def standard_models():
    """(name, factory) for every standard model."""
    yield "ols", LinearRegression
    for a in [0.1, 1.0, 10.0, 100.0]:
        yield f"ridge-a{a}", lambda a=a: make_pipeline(StandardScaler(), Ridge(alpha=a))
    yield "lasso-a0.01", lambda: make_pipeline(StandardScaler(), Lasso(alpha=0.01))
    for depth in [2, 4, 6, 10, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeRegressor(max_depth=d, random_state=0)
    # One job: parallel forests add the trees' predictions in varying order, changing the last bits.
    for n, depth in [(100, 6), (200, None)]:
        yield f"forest-n{n}-d{depth}", lambda n=n, d=depth: RandomForestRegressor(n_estimators=n, max_depth=d, random_state=0, n_jobs=1)
    yield "extra-trees-n100", lambda: ExtraTreesRegressor(n_estimators=100, min_samples_leaf=2, random_state=0, n_jobs=1)
    for lr, depth in [(0.05, 2), (0.1, 3), (0.1, 5), (0.3, 3)]:
        yield f"gbm-lr{lr}-d{depth}", lambda lr=lr, d=depth: GradientBoostingRegressor(learning_rate=lr, max_depth=d, random_state=0)
    yield "hist-gbm", lambda: HistGradientBoostingRegressor(random_state=0)
    yield "adaboost", lambda: AdaBoostRegressor(random_state=0)
    for k in [1, 5, 15, 50]:
        yield f"knn-k{k}", lambda k=k: make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=k))
    yield "svr-rbf", lambda: make_pipeline(StandardScaler(), SVR())
    yield "mlp-default", lambda: make_pipeline(StandardScaler(), MLPRegressor(max_iter=500, random_state=0))


def rmse(truth, pred):
    return float(np.sqrt(np.mean((np.asarray(truth) - np.asarray(pred)) ** 2)))


def main(data_dir):
    started = time.process_time()
    prepared = os.path.join(data_dir, "movie-ratings", "prepared")
    train = pd.read_csv(os.path.join(prepared, "public", "train.csv"))
    test = pd.read_csv(os.path.join(prepared, "public", "test.csv"))
    answers = pd.read_csv(os.path.join(prepared, "private", "test.csv"))
    sample = pd.read_csv(os.path.join(prepared, "public", "sample_submission.csv"))
    truth = test[[ID]].merge(answers, on=ID, how="left")[TARGET].to_numpy()
    assert not np.isnan(truth).any(), "answers do not cover every test id"
    rows = []

    def add(team, pipeline, pred):
        pred = np.asarray(pred, dtype=float)
        assert pred.shape == truth.shape and np.isfinite(pred).all(), team
        rows.append({"teamName": team, "score": rmse(truth, pred), "pipeline": pipeline})

    # 1. Trivial.
    y = train[TARGET].to_numpy()
    mean = y.mean()
    add("mean", "the mean imdb_rating of train", np.full(len(test), mean))
    add("median", "the median imdb_rating of train", np.full(len(test), np.median(y)))
    add("constant-6", "6 for every film", np.full(len(test), 6.0))
    add("constant-7", "7 for every film", np.full(len(test), 7.0))
    for col in ["major_genre", "mpaa_rating", "source", "creative_type"]:
        by = train.groupby(col)[TARGET].mean()
        add(f"{col}-mean", f"the mean rating of the film's {col} in train (the overall mean when unknown)",
            test[col].map(by).fillna(mean).to_numpy())
    decade = lambda df: (pd.to_datetime(df.release_date).dt.year // 10)  # noqa: E731
    by = train.groupby(decade(train))[TARGET].mean()
    add("decade-mean", "the mean rating of the film's release decade in train", decade(test).map(by).fillna(mean).to_numpy())
    rt = train.rotten_tomatoes_rating
    fit = np.polyfit(rt[rt.notna()], y[rt.notna()], 1)
    add("rt-linear", "a straight line on the Rotten Tomatoes rating (the mean where it is missing)",
        np.where(test.rotten_tomatoes_rating.notna(), np.polyval(fit, test.rotten_tomatoes_rating.fillna(0)), mean))
    fit = np.polyfit(np.log1p(train.imdb_votes), y, 1)
    add("votes-linear", "a straight line on log IMDB votes", np.polyval(fit, np.log1p(test.imdb_votes)))

    # 2 and 3. Standard pipelines over feature sets and budgets.
    for budget in [0.05, 0.1, 0.2, 0.5, 1.0]:
        pct = int(round(budget * 100))
        sub = train.sample(frac=budget, random_state=7) if budget < 1 else train
        for kind in ["basic", "numeric", "rich"]:
            if budget <= 0.1 and kind == "rich":
                continue  # more columns than a sample this small supports
            x_train, x_test = raw_features(sub, kind, sub), raw_features(test, kind, sub)
            for name, factory in standard_models():
                if budget < 0.35 and name.startswith(("forest-n200", "extra", "gbm-lr0.05", "gbm-lr0.1-d5", "hist", "lasso", "ridge-a0.1", "mlp")):
                    continue
                pred = factory().fit(x_train, sub[TARGET]).predict(x_test)
                add(f"{name}/{kind}/{pct}pct", f"{name} on {kind} features, {pct}% of train", pred)
    print(f"standard done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 4. Strong pipelines on the engineered features.
    full = pd.concat([train.drop(columns=TARGET), test], ignore_index=True)
    n = len(train)
    base = engineered_base(full, n)
    all_train = np.arange(n)
    test_rows = np.arange(n, len(full))
    folds = list(KFold(FOLDS, shuffle=True, random_state=42).split(all_train))
    # Per fold: the fold's training rows (encodings out-of-fold inside them), its validation rows and test.
    fold_data = []
    for k, (a, b) in enumerate(folds):
        fold_data.append((with_encodings(base, full, y, a, a, inner_seed=k),
                          with_encodings(base, full, y, a, b, inner_seed=k),
                          with_encodings(base, full, y, a, test_rows, inner_seed=k)))
    X_full = with_encodings(base, full, y, all_train, all_train, inner_seed=99)
    X_test = with_encodings(base, full, y, all_train, test_rows, inner_seed=99)
    medians = np.nanmedian(X_full, axis=0)

    def filled(X):
        return np.where(np.isnan(X), medians, X)

    library = {}

    def cv_run(make, fill=False, refit=True):
        """Out-of-fold predictions, fold-averaged test predictions and (optionally) a refit on all of train."""
        prep = filled if fill else (lambda X: X)
        oof = np.zeros(n)
        fold_avg = np.zeros(len(test))
        for (a, b), (Xa, Xb, Xt) in zip(folds, fold_data):
            m = make().fit(prep(Xa), y[a])
            oof[b] = m.predict(prep(Xb))
            fold_avg += m.predict(prep(Xt)) / FOLDS
        full_pred = make().fit(prep(X_full), y).predict(prep(X_test)) if refit else None
        return oof, fold_avg, full_pred

    def enter(team, pipeline, oof, pred, keep=True):
        add(team, f"{pipeline} (CV RMSE {rmse(y, oof):.4f})", pred)
        if keep:
            library[team] = (oof, pred)

    strong = [(f"forest-leaf{leaf}-mf{mf}", lambda leaf=leaf, mf=mf: RandomForestRegressor(
        n_estimators=120, min_samples_leaf=leaf, max_features=mf, random_state=0, n_jobs=1), True)
        for leaf, mf in [(1, 0.3), (2, 0.4), (3, 0.5), (5, 0.3)]]
    strong += [(f"extra-trees-leaf{leaf}-mf{mf}", lambda leaf=leaf, mf=mf: ExtraTreesRegressor(
        n_estimators=120, min_samples_leaf=leaf, max_features=mf, random_state=0, n_jobs=1), True)
        for leaf, mf in [(3, 0.5), (2, 0.8)]]
    strong += [
        ("gbm-huber-d4", lambda: GradientBoostingRegressor(loss="huber", learning_rate=0.05, max_depth=4, n_estimators=250, subsample=0.8, random_state=0), True),
        ("gbm-ls-d3", lambda: GradientBoostingRegressor(learning_rate=0.05, max_depth=3, n_estimators=300, subsample=0.8, random_state=0), True),
        ("hist-gbm-tuned", lambda: HistGradientBoostingRegressor(learning_rate=0.04, max_iter=400, max_leaf_nodes=15, min_samples_leaf=20,
                                                                 l2_regularization=1.0, random_state=0), False),
        ("ridge-splines", lambda: make_pipeline(StandardScaler(), SplineTransformer(n_knots=5, degree=3), Ridge(alpha=3.0)), True),
        ("ridge-a10", lambda: make_pipeline(StandardScaler(), Ridge(alpha=10.0)), True),
        ("svr-C1", lambda: make_pipeline(StandardScaler(), SVR(C=1.0, epsilon=0.1, gamma="scale")), True),
        ("knn-k15", lambda: make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=15, weights="distance")), True),
    ]
    for name, make, fill in strong:
        oof, fold_avg, refit = cv_run(make, fill)
        enter(f"{name}/engineered", f"{name} on engineered features with target encodings, refit on all of train", oof, refit)
        add(f"{name}/engineered/fold-avg", f"{name} on engineered features, the {FOLDS} CV-fold models averaged (CV RMSE {rmse(y, oof):.4f})", fold_avg)
    mlp_oofs, mlp_preds = [], []
    for s in range(4):
        # The rating is standardised for the network and mapped back.
        make = lambda s=s: TransformedTargetRegressor(make_pipeline(StandardScaler(), MLPRegressor(  # noqa: E731
            (64, 32), alpha=3.0, learning_rate_init=0.003, max_iter=600, early_stopping=True, random_state=s)), transformer=StandardScaler())
        oof, fold_avg, _ = cv_run(make, fill=True, refit=False)
        mlp_oofs.append(oof)
        mlp_preds.append(fold_avg)
        add(f"mlp-64x32/engineered/seed{s}", f"MLP (64, 32) on engineered features, standardised target, {FOLDS} fold models averaged, "
            f"seed {s} (CV RMSE {rmse(y, oof):.4f})", fold_avg)
    enter("mlp-64x32/engineered/bag4", "MLP (64, 32) bagged over 4 seeds x 5 folds", np.mean(mlp_oofs, axis=0), np.mean(mlp_preds, axis=0))
    print(f"strong models done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # xgboost by random search on 5-fold CV with early stopping; the fold models are averaged on test.
    rng = np.random.default_rng(2942)
    draws = []
    for i in range(48):
        params = dict(learning_rate=float(np.exp(rng.uniform(np.log(0.02), np.log(0.15)))), max_depth=int(rng.integers(3, 8)),
                      min_child_weight=float(rng.choice([1, 3, 5, 10, 20])), subsample=float(rng.uniform(0.5, 1.0)),
                      colsample_bytree=float(rng.uniform(0.3, 1.0)), reg_lambda=float(np.exp(rng.uniform(np.log(0.3), np.log(30)))),
                      reg_alpha=float(rng.choice([0, 0.1, 1.0])), gamma=float(rng.choice([0, 0, 0.05, 0.2])))
        oof, fold_avg, best = np.zeros(n), np.zeros(len(test)), []
        for (a, b), (Xa, Xb, Xt) in zip(folds, fold_data):
            m = xgb.XGBRegressor(n_estimators=1000, n_jobs=1, tree_method="hist", early_stopping_rounds=40, random_state=0, **params)
            m.fit(Xa, y[a], eval_set=[(Xb, y[b])], verbose=False)
            it = (0, m.best_iteration + 1)
            best.append(m.best_iteration + 1)
            oof[b] = m.predict(Xb, iteration_range=it)
            fold_avg += m.predict(Xt, iteration_range=it) / FOLDS
        desc = ", ".join(f"{k}={v:.3g}" for k, v in params.items())
        enter(f"xgb-search/draw{i:02d}", f"xgboost random-search draw {i} ({desc}; ~{int(np.mean(best))} rounds), engineered features, "
              f"fold models averaged", oof, fold_avg, keep=False)
        rounds = int(np.mean(best) * 1.1)
        refit = xgb.XGBRegressor(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=0, **params).fit(X_full, y).predict(X_test)
        add(f"xgb-search/draw{i:02d}-refit", f"xgboost random-search draw {i} refit on all of train ({rounds} rounds; CV RMSE {rmse(y, oof):.4f})", refit)
        draws.append((rmse(y, oof), i, params, rounds, oof, fold_avg))
    draws.sort(key=lambda d: d[0])
    for top in [3, 5, 10]:
        enter(f"xgb-search/top{top}-avg", f"average of the {top} best xgboost draws by CV RMSE",
              np.mean([d[4] for d in draws[:top]], axis=0), np.mean([d[5] for d in draws[:top]], axis=0))
    for rank in range(3):
        score, i, params, rounds, oof, fold_avg = draws[rank]
        library[f"xgb-cv-rank{rank + 1}"] = (oof, fold_avg)
        ps = [xgb.XGBRegressor(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=s, **params).fit(X_full, y).predict(X_test)
              for s in range(1, 4)]
        add(f"xgb-search/cv-rank{rank + 1}-refit-3seeds", f"xgboost draw {i} (CV rank {rank + 1}) refit on all of train, 3 more seeds averaged "
            f"(CV RMSE {score:.4f})", np.mean(ps, axis=0))
    # Two-model blends: each of the ten best draws with the CV's best forest, weights by least squares on the out-of-fold predictions.
    forest = min((k for k in library if k.startswith(("forest", "extra"))), key=lambda k: rmse(y, library[k][0]))
    for score, i, params, rounds, oof, fold_avg in draws[:10]:
        w, _ = nnls(np.column_stack([oof, library[forest][0]]), y)
        w = w / w.sum()
        add(f"blend/xgb-draw{i:02d}+forest", f"xgboost draw {i} ({w[0]:.2f}) blended with {forest} ({w[1]:.2f})",
            w[0] * fold_avg + w[1] * library[forest][1])
    print(f"xgboost search done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Blends and stacking over the library.
    ranked = sorted(library, key=lambda k: rmse(y, library[k][0]))
    for top in [2, 3, 4, 6, 10]:
        members = ranked[:top]
        add(f"blend/top{top}-equal", "equal blend of " + ", ".join(members), np.mean([library[k][1] for k in members], axis=0))
    O = np.column_stack([library[k][0] for k in ranked])
    T = np.column_stack([library[k][1] for k in ranked])
    for top in [4, 8, len(ranked)]:
        w, _ = nnls(O[:, :top], y)
        w = w / w.sum()
        chosen = [f"{ranked[j]} {w[j]:.2f}" for j in range(top) if w[j] > 0.005]
        add(f"blend/nnls-top{top}", "non-negative least-squares blend on the out-of-fold predictions: " + ", ".join(chosen), T[:, :top] @ w)
    for steps in [5, 10, 25]:
        chosen, total = [], np.zeros(n)
        for _ in range(steps):
            j = min(range(len(ranked)), key=lambda j: rmse(y, (total + O[:, j]) / (len(chosen) + 1)))
            chosen.append(j)
            total += O[:, j]
        add(f"blend/greedy-{steps}", f"greedy forward blend ({steps} steps, with replacement) on the out-of-fold predictions: "
            + ", ".join(sorted({ranked[j] for j in chosen})), T[:, chosen].mean(axis=1))
    for alpha in [1.0, 30.0]:
        meta = Ridge(alpha=alpha).fit(O, y)
        add(f"stack-ridge-a{alpha}", f"stacking: ridge (alpha {alpha}) on the out-of-fold predictions of {len(ranked)} models", meta.predict(T))

    baseline = rmse(truth, sample.set_index(ID).loc[test[ID], TARGET].to_numpy())
    write_board(rows, OUT, lower_is_better=True, note=f" (sample submission {baseline:.5f}) in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
