#!/usr/bin/python3
"""Reference leaderboard for the offline `flight-delays` competition.

Fits a documented population of pipelines on the public train split (about 70% of the flights
of every day of January - March 2001, split at random within each day), scores each by the root
mean squared error of the arrival delay, in minutes, on the private answers (the other 30% of
each day's flights), and writes leaderboard.csv beside this script (best, i.e. lowest, first).
The scores form a *reference population* of pipelines, not a leaderboard of human teams.
Nothing but the final scoring reads the answers: every encoding, hyper-parameter, round count
and blend weight of the strong entries is chosen by seeded 5-fold cross-validation on train.

Delays are heavy-tailed (mean about 8 minutes, standard deviation about 31, a tail of flights
hours late) and mostly unpredictable from the schedule alone; what can be learnt is how bad a
given day was at a given airport and hour, from the training flights of that same day. The
population (558 entries), bottom to top:

1. Trivial: constants (zero, the mean, the median, trimmed means, quantiles), seeded random
   draws from the training delays, the mean plus Gaussian noise.
2. Group statistics: the mean and the median delay by one key (origin, destination, route,
   hour, weekday, day, day x origin, day x destination, day x hour, day x time-of-day band,
   origin x hour, ...) shrunk towards the overall mean by 0 ... 300 pseudo-flights; sums of a
   day effect and an airport or hour effect.
3. Standard pipelines, every combination of
   - feature sets "numbers" (distance, hour, minute, weekday), "dateparts" (day of year, month,
     weekday, clock, distance, label-encoded airports: what a generic tabular pipeline
     extracts) and "airports" (dateparts plus airport coordinates and sizes);
   - models: linear, ridge and lasso regression, k-nearest neighbours, decision trees, random
     forests, extra trees, gradient boosting, histogram gradient boosting, xgboost (squared
     error), xgboost with pseudo-Huber error, an MLP;
   - budgets: a seeded random 20%, 40%, 70% or all of train (slow models on fewer budgets).
4. Strong pipelines: the schedule features above plus traffic counted from the published rows,
   and out-of-fold target encodings (shrunk means and late shares) by day, day x origin,
   day x destination, day x hour, day x band, day x origin x band, day x destination x band,
   route, origin x hour, destination x hour and hour x weekday. xgboost tuned by random search
   (14 draws of depth, learning rate, child weight, subsampling, column sampling, L1/L2) with
   early stopping on 3 folds and refit with the folds' mean round count; ablations of the encoding sets;
   histogram and classic gradient boosting, random forests, ridge and an MLP on the same
   features, ridge with five penalties on each feature set; 3-seed averages of the best 4 draws; blends (means of the best k by CV, a greedy forward selection and
   a ridge stack on the out-of-fold predictions).

Runtime: 408 CPU-seconds (about 7 CPU-minutes), single-threaded (OMP/BLAS threads pinned to
1); 11.5 minutes of wall time under `nice` on a shared, busy two-core machine.

Usage (Debian's interpreter, which has scikit-learn and xgboost):
    node dist/cli/main.js prepare -c flight-delays --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/flight-delays/leaderboard.py /tmp/lb-data
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
from sklearn.ensemble import (ExtraTreesRegressor, GradientBoostingRegressor, HistGradientBoostingRegressor,  # noqa: E402
                              RandomForestRegressor)
from sklearn.linear_model import Lasso, LinearRegression, Ridge  # noqa: E402
from sklearn.model_selection import KFold  # noqa: E402
from sklearn.neighbors import KNeighborsRegressor  # noqa: E402
from sklearn.neural_network import MLPRegressor  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.tree import DecisionTreeRegressor  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board  # noqa: E402

warnings.filterwarnings("ignore")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "leaderboard.csv")
STARTED = time.process_time()
SEED = 2001


def rmse(y, p):
    return float(np.sqrt(np.mean((np.asarray(y, float) - np.asarray(p, float)) ** 2)))


def stage(message):
    print(f"[{time.process_time() - STARTED:6.0f} CPU-s] {message}", flush=True)


# ---------------------------------------------------------------- features

def load(root):
    base = os.path.join(root, "flight-delays", "prepared")
    train = pd.read_csv(os.path.join(base, "public", "train.csv"))
    test = pd.read_csv(os.path.join(base, "public", "test.csv"))
    airports = pd.read_csv(os.path.join(base, "public", "airports.csv")).set_index("code")
    answers = pd.read_csv(os.path.join(base, "private", "test.csv")).set_index("id").loc[test.id, "delay"].to_numpy(float)
    return train, test, airports, answers


def schedule_features(flights, airports):
    """Features of the published rows alone (train and test together); no delay enters them."""
    day = pd.to_datetime(flights.date)
    hour = flights.departure_time.str[:2].astype(int)
    minute = flights.departure_time.str[3:].astype(int)
    F = pd.DataFrame(index=flights.index)
    F["dow"] = day.dt.dayofweek
    F["month"] = day.dt.month
    F["doy"] = day.dt.dayofyear
    F["hour"] = hour
    F["minute"] = minute
    # Before 05:00 a departure is last night's late flight, not an early one.
    F["clock"] = np.where(hour < 5, hour + 24, hour) * 60 + minute
    F["distance"] = flights.distance
    for side in ("origin", "destination"):
        F[side + "_code"] = pd.Categorical(flights[side]).codes
        F[side + "_lat"] = flights[side].map(airports.latitude).to_numpy()
        F[side + "_lon"] = flights[side].map(airports.longitude).to_numpy()
        F[side + "_size"] = flights.groupby(side)[side].transform("size")
    F["eastward"] = F.destination_lon - F.origin_lon
    F["route_size"] = flights.groupby(["origin", "destination"]).origin.transform("size")
    F["day_flights"] = flights.groupby("date").date.transform("size")
    F["origin_day"] = flights.groupby(["date", "origin"]).date.transform("size")
    F["origin_hour_day"] = flights.groupby(["date", "origin", hour]).date.transform("size")
    F["band"] = np.select([F.clock < 10 * 60, F.clock < 14 * 60, F.clock < 18 * 60], [0, 1, 2], 3)
    return F


def keys(flights, F):
    """Grouping keys for the target encodings and group statistics."""
    d, o, t = flights.date, flights.origin, flights.destination
    h, b, w = F.hour.astype(str), F.band.astype(str), F.dow.astype(str)
    return {
        "origin": o, "destination": t, "route": o + "-" + t, "hour": h, "weekday": w, "band": b,
        "origin_hour": o + "|" + h, "destination_hour": t + "|" + h, "hour_weekday": h + "|" + w,
        "day": d, "day_origin": d + "|" + o, "day_destination": d + "|" + t, "day_hour": d + "|" + h,
        "day_band": d + "|" + b, "day_origin_band": d + "|" + o + "|" + b,
        "day_destination_band": d + "|" + t + "|" + b, "day_route": d + "|" + o + "|" + t,
    }


def group_mean(key_fit, y_fit, key_apply, shrink, prior, how="mean"):
    """Per-group mean (or late share, or median) of y shrunk towards `prior` by `shrink` pseudo-rows."""
    frame = pd.DataFrame({"k": np.asarray(key_fit), "y": y_fit})
    if how == "late":
        frame["y"] = (frame.y > 15).astype(float)
    g = frame.groupby("k").y
    stat = g.median() if how == "median" else g.mean()
    n = g.size()
    value = (stat * n + prior * shrink) / (n + shrink)
    return pd.Series(np.asarray(key_apply)).map(value).fillna(prior).to_numpy(float)


TE_DAY = ["day", "day_origin", "day_destination", "day_hour", "day_band", "day_origin_band", "day_destination_band"]
TE_STATIC = ["route", "origin_hour", "destination_hour", "hour_weekday", "origin", "destination"]


def target_encodings(K, y, n_train, names, folds=5, seed=SEED):
    """Shrunk means and late shares of the delay by each key: out of fold for train, from all of train for test."""
    tr = np.arange(n_train)
    cols_tr, cols_te, names_out = [], [], []
    kf = list(KFold(folds, shuffle=True, random_state=seed).split(tr))
    for k in names:
        key = np.asarray(K[k])
        for how, s in (("mean", 10.0), ("late", 10.0)):
            prior = float(np.mean(y)) if how == "mean" else float(np.mean(y > 15))
            a = np.zeros(n_train)
            for fit, val in kf:
                a[val] = group_mean(key[fit], y[fit], key[val], s, prior, how)
            cols_tr.append(a)
            cols_te.append(group_mean(key[:n_train], y, key[n_train:], s, prior, how))
            names_out.append(f"te_{k}_{how}")
    return pd.DataFrame(np.column_stack(cols_tr), columns=names_out), pd.DataFrame(np.column_stack(cols_te), columns=names_out)


# ---------------------------------------------------------------- main

def main(root):
    train, test, airports, answers = load(root)
    flights = pd.concat([train.drop(columns="delay"), test], ignore_index=True)
    F = schedule_features(flights, airports)
    K = keys(flights, F)
    n = len(train)
    y = train.delay.to_numpy(float)
    rng = np.random.default_rng(SEED)
    rows = []

    def enter(team, pipeline, pred):
        pred = np.asarray(pred, float)
        assert pred.shape == answers.shape and np.isfinite(pred).all(), team
        rows.append({"teamName": team, "score": round(rmse(answers, pred), 5), "pipeline": pipeline})

    # ------------------------------------------------------------ 1. trivial
    stage("trivial entries")
    m = len(test)
    enter("constant-zero", "predict 0 minutes (on time) for every flight", np.zeros(m))
    enter("constant-mean", "predict the mean training delay for every flight", np.full(m, y.mean()))
    enter("constant-median", "predict the median training delay for every flight", np.full(m, np.median(y)))
    for cut in (0.01, 0.05, 0.1, 0.2):
        lo, hi = np.quantile(y, [cut, 1 - cut])
        enter(f"trimmed-mean-{cut:g}", f"mean of the training delays trimmed by {cut:.0%} on each side",
              np.full(m, y[(y >= lo) & (y <= hi)].mean()))
    for q in (0.6, 0.7, 0.8, 0.9):
        enter(f"quantile-{q:g}", f"the {q:.0%} quantile of the training delays for every flight", np.full(m, np.quantile(y, q)))
    for c in (-5, 5, 10, 15, 30):
        enter(f"constant-{c}", f"predict {c} minutes for every flight", np.full(m, float(c)))
    for s in range(3):
        enter(f"random-draw-{s}", f"a seeded random draw (seed {s}) from the training delays for every flight",
              np.random.default_rng(s).choice(y, m))
    for sd in (2, 5, 10, 20):
        enter(f"mean-noise-{sd}", f"the training mean plus Gaussian noise of sd {sd} minutes (seeded)",
              y.mean() + np.random.default_rng(sd).normal(0, sd, m))

    # ------------------------------------------------------------ 2. group statistics
    stage("group statistics")
    prior = float(y.mean())
    group_keys = ["origin", "destination", "route", "hour", "weekday", "band", "origin_hour", "destination_hour",
                  "hour_weekday", "day", "day_origin", "day_destination", "day_hour", "day_band",
                  "day_origin_band", "day_destination_band", "day_route"]
    for k in group_keys:
        key = np.asarray(K[k])
        for s in (0, 0.5, 1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300):
            enter(f"mean-by-{k}-shrink{s}", f"mean delay by {k.replace('_', ' x ')}, shrunk towards the overall mean by {s} flights",
                  group_mean(key[:n], y, key[n:], s, prior))
        for s in (0, 10):
            enter(f"median-by-{k}-shrink{s}", f"median delay by {k.replace('_', ' x ')}, shrunk towards the overall mean by {s} flights",
                  group_mean(key[:n], y, key[n:], s, prior, "median"))
    # Additive: a day effect plus a second effect fitted on what the day leaves over.
    day = np.asarray(K["day"])
    for s_day in (3, 10):
        day_tr = group_mean(day[:n], y, day[:n], s_day, prior)
        day_te = group_mean(day[:n], y, day[n:], s_day, prior)
        for k in ("origin", "destination", "hour", "route", "origin_hour", "band"):
            key = np.asarray(K[k])
            for s in (10, 50):
                enter(f"day{s_day}-plus-{k}{s}", f"shrunk day mean plus the shrunk mean residual by {k.replace('_', ' x ')}",
                      day_te + group_mean(key[:n], y - day_tr, key[n:], s, 0.0))

    # ------------------------------------------------------------ 3. standard pipelines
    stage("standard pipelines")
    sets = {
        "numbers": ["distance", "hour", "minute", "dow"],
        "dateparts": ["doy", "month", "dow", "clock", "distance", "origin_code", "destination_code"],
        "airports": ["doy", "month", "dow", "clock", "distance", "origin_code", "destination_code", "origin_lat",
                     "origin_lon", "destination_lat", "destination_lon", "origin_size", "destination_size"],
    }
    scaled = lambda model: make_pipeline(StandardScaler(), model)  # noqa: E731
    models = {
        "linear": (lambda: LinearRegression(), (0.2, 0.4, 0.7, 1.0)),
        "ridge": (lambda: scaled(Ridge(10.0)), (0.2, 0.4, 0.7, 1.0)),
        "lasso": (lambda: scaled(Lasso(0.5)), (0.4, 1.0)),
        "knn-15": (lambda: scaled(KNeighborsRegressor(15)), (0.2, 0.4, 0.7, 1.0)),
        "knn-50": (lambda: scaled(KNeighborsRegressor(50)), (0.2, 0.4, 0.7, 1.0)),
        "knn-150": (lambda: scaled(KNeighborsRegressor(150)), (0.4, 1.0)),
        "tree-4": (lambda: DecisionTreeRegressor(max_depth=4, random_state=0), (0.2, 0.4, 0.7, 1.0)),
        "tree-8": (lambda: DecisionTreeRegressor(max_depth=8, random_state=0), (0.2, 0.4, 0.7, 1.0)),
        "tree-leaf50": (lambda: DecisionTreeRegressor(min_samples_leaf=50, random_state=0), (0.4, 1.0)),
        "tree-full": (lambda: DecisionTreeRegressor(random_state=0), (0.4, 1.0)),
        "forest": (lambda: RandomForestRegressor(60, min_samples_leaf=5, random_state=0, n_jobs=1), (0.4, 1.0)),
        "extra-trees": (lambda: ExtraTreesRegressor(60, min_samples_leaf=5, random_state=0, n_jobs=1), (0.4, 1.0)),
        "gbm": (lambda: GradientBoostingRegressor(n_estimators=100, random_state=0), (0.2, 0.4, 0.7, 1.0)),
        "hgb": (lambda: HistGradientBoostingRegressor(random_state=0), (0.2, 0.4, 0.7, 1.0)),
        "xgb": (lambda: xgb.XGBRegressor(n_estimators=200, n_jobs=1, random_state=0), (0.2, 0.4, 0.7, 1.0)),
        "xgb-huber": (lambda: xgb.XGBRegressor(n_estimators=200, objective="reg:pseudohubererror", huber_slope=20.0,
                                               n_jobs=1, random_state=0), (0.4, 1.0)),
        "mlp": (lambda: scaled(MLPRegressor((32,), max_iter=150, early_stopping=True, random_state=0)), (0.4, 1.0)),
    }
    order = rng.permutation(n)
    for set_name, cols in sets.items():
        X_all = F[cols].to_numpy(float)
        for name, (make, budgets) in models.items():
            for b in budgets:
                fit = np.sort(order[: int(round(b * n))])
                model = make().fit(X_all[fit], y[fit])
                enter(f"{name}-{set_name}-{int(b * 100)}pct", f"{name} on the {set_name} features, fitted on a seeded {b:.0%} of train",
                      model.predict(X_all[n:]))
        stage(f"  {set_name} done ({len(rows)} entries)")

    # ------------------------------------------------------------ 4. strong pipelines
    stage("target encodings")
    te_tr, te_te = target_encodings(K, y, n, TE_DAY + TE_STATIC)
    base = ["doy", "dow", "clock", "minute", "distance", "origin_lat", "origin_lon", "destination_lat", "destination_lon",
            "eastward", "origin_size", "destination_size", "route_size", "day_flights", "origin_day", "origin_hour_day"]
    S_tr = pd.concat([F.iloc[:n][base].reset_index(drop=True), te_tr], axis=1)
    S_te = pd.concat([F.iloc[n:][base].reset_index(drop=True), te_te], axis=1)
    day_cols = [c for c in te_tr.columns if c.split("_")[1] == "day"]
    static_cols = [c for c in te_tr.columns if c not in day_cols]
    feature_sets = {
        "all": list(S_tr.columns),
        "day-encodings": base + day_cols,
        "static-encodings": base + static_cols,
        "means-only": base + [c for c in te_tr.columns if c.endswith("_mean")],
    }
    cv = list(KFold(3, shuffle=True, random_state=SEED + 1).split(np.arange(n)))
    oof_store = {}

    def cv_xgb(params, cols, seeds=(0,)):
        """3-fold CV with early stopping; returns the out-of-fold predictions, the CV RMSE and the mean round count."""
        X = S_tr[cols].to_numpy(float)
        oof = np.zeros(n)
        rounds = []
        for fit, val in cv:
            model = xgb.XGBRegressor(n_estimators=600, early_stopping_rounds=30, n_jobs=1, random_state=seeds[0], **params)
            model.fit(X[fit], y[fit], eval_set=[(X[val], y[val])], verbose=False)
            oof[val] = model.predict(X[val], iteration_range=(0, model.best_iteration + 1))
            rounds.append(model.best_iteration + 1)
        return oof, rmse(y, oof), int(np.mean(rounds))

    def refit_xgb(params, cols, rounds, seeds=(0,)):
        X, Xt = S_tr[cols].to_numpy(float), S_te[cols].to_numpy(float)
        return np.mean([xgb.XGBRegressor(n_estimators=rounds, n_jobs=1, random_state=s, **params).fit(X, y).predict(Xt)
                        for s in seeds], axis=0)

    stage("xgboost random search")
    draws = []
    for i in range(14):
        params = {
            "max_depth": int(rng.integers(2, 8)),
            "learning_rate": float(np.exp(rng.uniform(np.log(0.04), np.log(0.2)))),
            "min_child_weight": float(np.exp(rng.uniform(0, np.log(50)))),
            "subsample": float(rng.uniform(0.6, 1.0)),
            "colsample_bytree": float(rng.uniform(0.4, 1.0)),
            "reg_lambda": float(np.exp(rng.uniform(np.log(0.5), np.log(50)))),
            "reg_alpha": float(rng.choice([0.0, 1.0, 10.0])),
        }
        oof, score, rounds = cv_xgb(params, feature_sets["all"])
        draws.append((score, i, params, rounds))
        oof_store[f"xgb-search-{i:02d}"] = (oof, refit_xgb(params, feature_sets["all"], rounds))
        desc = ", ".join(f"{k}={v:.3g}" for k, v in params.items())
        stage(f"  draw {i}: CV {score:.3f}, {rounds} rounds")
        enter(f"xgb-search-{i:02d}", f"xgboost on schedule features and out-of-fold day/airport/route encodings ({desc}; "
              f"{rounds} rounds from 3-fold early stopping; CV RMSE {score:.3f})", oof_store[f"xgb-search-{i:02d}"][1])
    draws.sort(key=lambda d: d[0])
    stage(f"  best CV {draws[0][0]:.3f}")
    best_score, best_i, best_params, best_rounds = draws[0]
    for fs_name, cols in feature_sets.items():
        if fs_name == "all":
            continue
        for j, (score, i, params, rounds) in enumerate(draws[:3]):
            oof, sc, r = cv_xgb(params, cols)
            key = f"xgb-{fs_name}-draw{i:02d}"
            oof_store[key] = (oof, refit_xgb(params, cols, r))
            enter(key, f"the random search's no. {j + 1} xgboost (draw {i}) on the {fs_name} feature set; CV RMSE {sc:.3f}", oof_store[key][1])
    for j, (score, i, params, rounds) in enumerate(draws[:4]):
        for k in (3,):
            key = f"xgb-draw{i:02d}-seeds{k}"
            pred = refit_xgb(params, feature_sets["all"], rounds, seeds=tuple(range(k)))
            enter(key, f"the random search's no. {j + 1} xgboost (draw {i}) averaged over {k} seeds", pred)
            if k == 3:
                oof_store[key] = (oof_store[f"xgb-search-{i:02d}"][0], pred)

    stage("other models on the strong features")

    def cv_sklearn(make, cols):
        X, Xt = S_tr[cols].to_numpy(float), S_te[cols].to_numpy(float)
        oof = np.zeros(n)
        for fit, val in cv:
            oof[val] = make().fit(X[fit], y[fit]).predict(X[val])
        return oof, make().fit(X, y).predict(Xt)

    others = {
        "hgb-small": lambda: HistGradientBoostingRegressor(learning_rate=0.05, max_leaf_nodes=15, min_samples_leaf=40, max_iter=300, random_state=0),
        "hgb-default": lambda: HistGradientBoostingRegressor(random_state=0),
        "hgb-l2": lambda: HistGradientBoostingRegressor(learning_rate=0.05, max_depth=4, l2_regularization=5.0, max_iter=250, random_state=0),
        "gbm": lambda: GradientBoostingRegressor(n_estimators=150, max_depth=3, learning_rate=0.05, subsample=0.8, random_state=0),
        "forest": lambda: RandomForestRegressor(50, min_samples_leaf=20, max_features=0.5, random_state=0, n_jobs=1),
        "ridge": lambda: make_pipeline(StandardScaler(), Ridge(10.0)),
        "mlp": lambda: make_pipeline(StandardScaler(), MLPRegressor((32, 16), alpha=1.0, max_iter=200, early_stopping=True, random_state=0)),
    }
    for name, make in others.items():
        for fs_name in ("all", "day-encodings"):
            oof, pred = cv_sklearn(make, feature_sets[fs_name])
            key = f"{name}-{fs_name}"
            oof_store[key] = (oof, pred)
            enter(key, f"{name} on schedule features and out-of-fold encodings ({fs_name}); CV RMSE {rmse(y, oof):.3f}", pred)
    for fs_name, cols in feature_sets.items():
        for alpha in (0.1, 1.0, 30.0, 100.0, 1000.0):
            oof, pred = cv_sklearn(lambda: make_pipeline(StandardScaler(), Ridge(alpha)), cols)
            key = f"ridge{alpha:g}-{fs_name}"
            oof_store[key] = (oof, pred)
            enter(key, f"ridge (alpha {alpha:g}) on schedule features and out-of-fold encodings ({fs_name}); CV RMSE {rmse(y, oof):.3f}", pred)
    stage(f"  {len(rows)} entries")

    stage("blends")
    ranked = sorted(oof_store, key=lambda k: rmse(y, oof_store[k][0]))
    for k in range(2, 21):
        top = ranked[:k]
        enter(f"blend-mean-top{k}", f"mean of the {k} best models by CV RMSE", np.mean([oof_store[t][1] for t in top], axis=0))
    # Greedy forward selection (with replacement) on the out-of-fold predictions.
    chosen, current = [], np.zeros(n)
    for step in range(1, 16):
        best = min(ranked[:30], key=lambda t: rmse(y, (current * len(chosen) + oof_store[t][0]) / (len(chosen) + 1)))
        chosen.append(best)
        current = np.mean([oof_store[t][0] for t in chosen], axis=0)
        if step >= 2:
            enter(f"blend-greedy-{step}", f"greedy forward selection of {step} models on out-of-fold predictions; CV RMSE {rmse(y, current):.3f}",
                  np.mean([oof_store[t][1] for t in chosen], axis=0))
    for k in (5, 10, 20):
        for alpha in (1.0, 100.0):
            top = ranked[:k]
            stack = Ridge(alpha).fit(np.column_stack([oof_store[t][0] for t in top]), y)
            enter(f"stack-ridge-top{k}-a{alpha:g}", f"ridge (alpha {alpha:g}) stacked on the out-of-fold predictions of the {k} best models",
                  stack.predict(np.column_stack([oof_store[t][1] for t in top])))

    write_board(rows, OUT, lower_is_better=True, note=f" in {time.process_time() - STARTED:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: leaderboard.py DATA_DIR")
    main(sys.argv[1])
