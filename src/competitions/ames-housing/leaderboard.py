#!/usr/bin/python3
"""Reference leaderboard for the offline `ames-housing` competition.

Trains a documented population of regression pipelines on the public train split (2,051
sales), scores each by RMSLE (root mean squared error of log(1 + price)) on the private answers
(879 sales), and writes src/competitions/ames-housing/leaderboard.csv (lowest first). The scores
form a *reference population* of pipelines, not a leaderboard of human teams. Nothing but the
final scoring reads the answers: every hyper-parameter, round count, blend and stacking weight
is chosen by 5-fold cross-validation on train.

The population (about 590 entries), bottom to top:

1. Trivial: the train mean, median and geometric mean; the median price of the house's
   neighbourhood, dwelling class, zoning or decade of construction; the neighbourhood's median
   price per square foot times the living area; one-feature log-log fits on living area, total
   area, garage size and the year built.
2. Small budgets and badly chosen models: a seeded 10% or 25% sample of train with the standard
   models below; unpruned trees and 1-nearest-neighbour on any budget; models fitted on the raw
   price (not its logarithm, although the metric works on logarithms), whose negative
   predictions are floored at $1,000.
3. Standard pipelines, every combination of
   - feature sets "basic" (living, basement and lot area, year built and remodelled, garage
     cars, bathrooms, rooms), "numeric" (every numeric column) and "rich" (adds one-hot codes of
     every category seen at least 10 times);
   - targets: the raw price and log(1 + price);
   - models: least squares; ridge (alpha 0.1 ... 100); lasso; decision trees (depth 2 ...
     unlimited); random forests; extra trees; gradient boosting (several depths and learning
     rates); histogram gradient boosting; AdaBoost; k-nearest neighbours; an RBF SVR; a
     default MLP;
   - budgets: 50% and 100% of train.
4. Strong pipelines on hand-made features ("engineered"), what a local appraiser would add:
   total finished area, age and years since remodelling at the sale, total bathrooms, total
   porch area, the condition grades as ordered numbers, log areas, the month of the sale as a
   running index, location rotated onto a few axes, and out-of-fold smoothed target
   encodings of neighbourhood, dwelling class and zoning plus the median log price per square
   foot of the 15 nearest training houses by location (all fitted inside each CV fold, never
   on the row being encoded); trees see the categories as integer codes, the linear models and
   MLPs as one-hot columns with the large areas and values on a log scale. Some variants also drop from training the handful of very large
   houses sold in partial or abnormal sales, the outliers the data's compiler warns about. On
   them:
   - xgboost on log(1 + price) tuned by random search (20 draws of learning rate, depth, child
     weight, subsampling, column sampling, L1/L2, gamma) on 5-fold CV with early stopping; each
     draw is two entries (its five fold models averaged on test; a refit on all of train with
     the CV's mean best round count), the best ones also seed-averaged;
   - ridge, lasso and elastic net on the one-hot + engineered features (a grid of penalties),
     kernel ridge, an RBF SVR, random forests, extra trees, scikit-learn gradient boosting
     (squared and Huber loss), histogram gradient boosting, kNN, MLPs bagged over seeds;
   - blends with CV-chosen weights (non-negative least squares on the out-of-fold predictions, of
     every pair of the twelve best models and of the top 4, 8 or all; greedy forward selection)
     and stacking (ridge on the out-of-fold predictions).

Runtime: about 8 CPU-minutes, single-threaded (OMP/BLAS threads pinned to 1).

Usage (Debian's interpreter, which has scikit-learn and xgboost):
    node dist/cli/main.js prepare -c ames-housing --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/ames-housing/leaderboard.py /tmp/lb-data
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
from sklearn.kernel_ridge import KernelRidge  # noqa: E402
from sklearn.linear_model import ElasticNet, Lasso, LinearRegression, Ridge  # noqa: E402
from sklearn.model_selection import KFold  # noqa: E402
from sklearn.neighbors import KNeighborsRegressor, NearestNeighbors  # noqa: E402
from sklearn.neural_network import MLPRegressor  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import SVR  # noqa: E402
from sklearn.tree import DecisionTreeRegressor  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board  # noqa: E402

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
ID, TARGET = "id", "Sale_Price"
FOLDS = 5
XGB_DRAWS = 20
FLOOR = 1000.0
BASIC = ["Gr_Liv_Area", "Total_Bsmt_SF", "Lot_Area", "Year_Built", "Year_Remod_Add", "Garage_Cars", "Full_Bath",
         "Half_Bath", "TotRms_AbvGrd"]
ENCODED = ["Neighborhood", "MS_SubClass", "MS_Zoning"]
GRADES = {"Very_Poor": 1, "Poor": 2, "Fair": 3, "Below_Average": 4, "Average": 5, "Typical": 5, "Above_Average": 6,
          "Good": 7, "Very_Good": 8, "Excellent": 9, "Very_Excellent": 10}
ORDINALS = {
    "Exter_Cond": GRADES, "Bsmt_Cond": GRADES, "Heating_QC": GRADES, "Garage_Cond": GRADES, "Pool_QC": GRADES,
    "Overall_Cond": GRADES,
    "Bsmt_Exposure": {"No_Basement": 0, "No": 1, "Mn": 2, "Av": 3, "Gd": 4},
    "BsmtFin_Type_1": {"No_Basement": 0, "Unf": 1, "LwQ": 2, "Rec": 3, "BLQ": 4, "ALQ": 5, "GLQ": 6},
    "BsmtFin_Type_2": {"No_Basement": 0, "Unf": 1, "LwQ": 2, "Rec": 3, "BLQ": 4, "ALQ": 5, "GLQ": 6},
    "Garage_Finish": {"No_Garage": 0, "Unf": 1, "RFn": 2, "Fin": 3},
    "Functional": {"Sal": 0, "Sev": 1, "Maj2": 2, "Maj1": 3, "Mod": 4, "Min2": 5, "Min1": 6, "Typ": 7},
    "Paved_Drive": {"Dirt_Gravel": 0, "Partial_Pavement": 1, "Paved": 2},
    "Lot_Shape": {"Irregular": 0, "Moderately_Irregular": 1, "Slightly_Irregular": 2, "Regular": 3},
    "Land_Slope": {"Sev": 0, "Mod": 1, "Gtl": 2},
    "Central_Air": {"N": 0, "Y": 1},
}


def categories(df):
    return [c for c in df.columns if df[c].dtype == object]


def one_hot(df, ref, min_count=10):
    """One-hot codes of every category level seen at least `min_count` times in `ref`."""
    cols = {}
    for c in categories(ref):
        counts = ref[c].value_counts()
        for level in sorted(counts[counts >= min_count].index):
            cols[f"{c}={level}"] = (df[c] == level).astype(float).to_numpy()
    return pd.DataFrame(cols, index=df.index)


def raw_features(df, kind, ref):
    """Feature matrix of the given richness; `ref` (the training sample) supplies the category levels."""
    if kind == "basic":
        return df[BASIC].astype(float)
    numeric = [c for c in df.columns if c not in (ID, TARGET) and df[c].dtype != object]
    out = df[numeric].astype(float)
    if kind == "numeric":
        return out
    return pd.concat([out, one_hot(df, ref)], axis=1)


def engineered_base(full, n_train):
    """The label-free hand-made features for all houses (train rows first)."""
    X = pd.DataFrame(index=full.index)
    numeric = [c for c in full.columns if c != ID and full[c].dtype != object]
    for c in numeric:
        X[c] = full[c].astype(float)
    X["Lot_Frontage"] = full.Lot_Frontage.where(full.Lot_Frontage > 0)
    for c, mapping in ORDINALS.items():
        X["ord_" + c] = full[c].map(mapping).astype(float)
    X["total_sf"] = full.Gr_Liv_Area + full.Total_Bsmt_SF
    X["finished_sf"] = full.Gr_Liv_Area + full.Total_Bsmt_SF - full.Bsmt_Unf_SF
    for c in ["Gr_Liv_Area", "Lot_Area", "total_sf", "First_Flr_SF"]:
        X["log_" + c] = np.log1p(X[c] if c in X else full[c])
    X["age"] = full.Year_Sold - full.Year_Built
    X["since_remod"] = full.Year_Sold - full.Year_Remod_Add
    X["remodelled"] = (full.Year_Remod_Add > full.Year_Built).astype(float)
    X["new_sale"] = (full.Year_Sold <= full.Year_Built + 1).astype(float)
    X["baths"] = full.Full_Bath + 0.5 * full.Half_Bath + full.Bsmt_Full_Bath + 0.5 * full.Bsmt_Half_Bath
    X["porch"] = full.Open_Porch_SF + full.Enclosed_Porch + full.Three_season_porch + full.Screen_Porch + full.Wood_Deck_SF
    X["sale_month"] = (full.Year_Sold - 2006) * 12 + full.Mo_Sold
    X["rooms_per_sf"] = full.TotRms_AbvGrd / full.Gr_Liv_Area
    X["garage_per_car"] = full.Garage_Area / full.Garage_Cars.clip(lower=1)
    for k, angle in enumerate([15, 30, 45, 60]):
        a = np.deg2rad(angle)
        X[f"rot{k}"] = full.Longitude * np.cos(a) + full.Latitude * np.sin(a)
    train = full.iloc[:n_train]
    codes = pd.DataFrame({c + "_code": pd.Categorical(full[c], categories=sorted(train[c].unique())).codes.astype(float)
                          for c in categories(full)}, index=full.index)
    # Trees split on integer codes of the categories; linear models need one-hot columns.
    return pd.concat([X, codes], axis=1), pd.concat([X, one_hot(full, train)], axis=1)


def target_encode(full, ly, fit_rows, apply_rows, smoothing=10):
    """Smoothed mean log price by category, and the median log price per square foot of the 15
    nearest houses by location, fitted on fit_rows and computed for apply_rows."""
    out = {}
    for c in ENCODED:
        key = full[c]
        s = pd.DataFrame({"k": key.iloc[fit_rows].to_numpy(), "y": ly[fit_rows]})
        g = s.groupby("k").y.agg(["sum", "count"])
        mean = s.y.mean()
        enc = (g["sum"] + smoothing * mean) / (g["count"] + smoothing)
        out["te_" + c] = key.iloc[apply_rows].map(enc).fillna(mean).to_numpy()
    loc = full[["Longitude", "Latitude"]].to_numpy() * np.array([np.cos(np.deg2rad(42.0)), 1.0])
    per_sf = ly[fit_rows] - np.log(full.Gr_Liv_Area.to_numpy()[fit_rows])
    nn = NearestNeighbors(n_neighbors=15).fit(loc[fit_rows])
    _, idx = nn.kneighbors(loc[apply_rows])
    out["nn_log_per_sf"] = np.median(per_sf[idx], axis=1)
    out["nn_log_price"] = out["nn_log_per_sf"] + np.log(full.Gr_Liv_Area.to_numpy()[apply_rows])
    return pd.DataFrame(out)


def with_encodings(base, full, ly, fit_rows, apply_rows, inner_seed):
    """base rows `apply_rows` plus encodings fitted on `fit_rows`; where apply and fit coincide
    (training rows), the encodings are out-of-fold over an inner 5-fold split."""
    if np.array_equal(fit_rows, apply_rows):
        parts = []
        for a, b in KFold(FOLDS, shuffle=True, random_state=inner_seed).split(fit_rows):
            e = target_encode(full, ly, fit_rows[a], fit_rows[b])
            e.index = b
            parts.append(e)
        enc = pd.concat(parts).sort_index()
    else:
        enc = target_encode(full, ly, fit_rows, apply_rows)
    return np.column_stack([base.iloc[apply_rows].to_numpy(dtype=float), enc.to_numpy(dtype=float)])


def standard_models():
    """(name, factory) for every standard model."""
    yield "ols", LinearRegression
    for a in [0.1, 1.0, 10.0, 100.0]:
        yield f"ridge-a{a}", lambda a=a: make_pipeline(StandardScaler(), Ridge(alpha=a))
    yield "lasso-a0.01", lambda: make_pipeline(StandardScaler(), Lasso(alpha=0.01, max_iter=5000))
    for depth in [2, 4, 6, 10, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeRegressor(max_depth=d, random_state=0)
    # One job: parallel forests add the trees' predictions in varying order, changing the last bits.
    for n, depth in [(100, 8), (150, None)]:
        yield f"forest-n{n}-d{depth}", lambda n=n, d=depth: RandomForestRegressor(n_estimators=n, max_depth=d, max_features=0.5,
                                                                                random_state=0, n_jobs=1)
    yield "extra-trees-n100", lambda: ExtraTreesRegressor(n_estimators=100, min_samples_leaf=2, max_features=0.5, random_state=0, n_jobs=1)
    for lr, depth in [(0.05, 2), (0.1, 3), (0.1, 5), (0.3, 3)]:
        yield f"gbm-lr{lr}-d{depth}", lambda lr=lr, d=depth: GradientBoostingRegressor(learning_rate=lr, max_depth=d, random_state=0)
    yield "hist-gbm", lambda: HistGradientBoostingRegressor(random_state=0)
    yield "adaboost", lambda: AdaBoostRegressor(random_state=0)
    for k in [1, 5, 15, 50]:
        yield f"knn-k{k}", lambda k=k: make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=k))
    yield "svr-rbf", lambda: make_pipeline(StandardScaler(), SVR())
    yield "mlp-default", lambda: make_pipeline(StandardScaler(), MLPRegressor(max_iter=300, random_state=0))


def rmsle(truth, pred):
    return float(np.sqrt(np.mean((np.log1p(truth) - np.log1p(pred)) ** 2)))


def rmse(a, b):
    return float(np.sqrt(np.mean((np.asarray(a) - np.asarray(b)) ** 2)))


def main(data_dir):
    started = time.process_time()
    prepared = os.path.join(data_dir, "ames-housing", "prepared")
    train = pd.read_csv(os.path.join(prepared, "public", "train.csv"))
    test = pd.read_csv(os.path.join(prepared, "public", "test.csv"))
    answers = pd.read_csv(os.path.join(prepared, "private", "test.csv"))
    sample = pd.read_csv(os.path.join(prepared, "public", "sample_submission.csv"))
    truth = test[[ID]].merge(answers, on=ID, how="left")[TARGET].to_numpy(dtype=float)
    assert not np.isnan(truth).any(), "answers do not cover every test id"
    rows = []

    def add(team, pipeline, pred):
        pred = np.asarray(pred, dtype=float)
        assert pred.shape == truth.shape and np.isfinite(pred).all() and (pred >= 0).all(), team
        rows.append({"teamName": team, "score": rmsle(truth, pred), "pipeline": pipeline})

    # 1. Trivial.
    y = train[TARGET].to_numpy(dtype=float)
    ly = np.log1p(y)
    n_test = len(test)
    add("mean", "the mean Sale_Price of train", np.full(n_test, y.mean()))
    add("median", "the median Sale_Price of train", np.full(n_test, np.median(y)))
    add("geometric-mean", "exp of the mean log price of train", np.full(n_test, np.expm1(ly.mean())))
    add("constant-200k", "$200,000 for every house", np.full(n_test, 200000.0))
    for col in ["Neighborhood", "MS_SubClass", "MS_Zoning", "House_Style", "Bldg_Type"]:
        by = train.groupby(col)[TARGET].median()
        add(f"{col}-median", f"the median price of the house's {col} in train (the overall median when unseen)",
            test[col].map(by).fillna(np.median(y)).to_numpy())
    decade = lambda df: df.Year_Built // 10  # noqa: E731
    by = train.groupby(decade(train))[TARGET].median()
    add("decade-median", "the median price of houses built in the same decade", decade(test).map(by).fillna(np.median(y)).to_numpy())
    ppsf = (train[TARGET] / train.Gr_Liv_Area).groupby(train.Neighborhood).median()
    add("neighborhood-price-per-sqft", "the neighbourhood's median price per square foot of living area, times the living area",
        (test.Neighborhood.map(ppsf).fillna(ppsf.median()) * test.Gr_Liv_Area).to_numpy())
    add("price-per-sqft", "the median price per square foot of living area, times the living area",
        (train[TARGET] / train.Gr_Liv_Area).median() * test.Gr_Liv_Area.to_numpy())
    for name, f in [("living-area", lambda d: np.log(d.Gr_Liv_Area)), ("total-area", lambda d: np.log1p(d.Gr_Liv_Area + d.Total_Bsmt_SF)),
                    ("garage-cars", lambda d: d.Garage_Cars.astype(float)), ("year-built", lambda d: d.Year_Built.astype(float))]:
        fit = np.polyfit(f(train), ly, 1)
        add(f"{name}-loglinear", f"a straight line of log price on {name.replace('-', ' ')}", np.expm1(np.polyval(fit, f(test))))
    lin = LinearRegression().fit(train[["Gr_Liv_Area"]], y)
    add("living-area-linear", "a straight line of price on living area (floored at $1,000)", np.maximum(lin.predict(test[["Gr_Liv_Area"]]), FLOOR))

    # 2 and 3. Standard pipelines over feature sets, targets and budgets.
    for budget in [0.1, 0.25, 0.5, 1.0]:
        pct = int(round(budget * 100))
        sub = train.sample(frac=budget, random_state=7) if budget < 1 else train
        for kind in ["basic", "numeric", "rich"]:
            if budget <= 0.1 and kind == "rich":
                continue  # more columns than a sample this small supports
            x_train, x_test = raw_features(sub, kind, sub), raw_features(test, kind, sub)
            for target in ["log", "raw"]:
                yt = np.log1p(sub[TARGET].to_numpy(dtype=float)) if target == "log" else sub[TARGET].to_numpy(dtype=float)
                for name, factory in standard_models():
                    if budget < 0.35 and (name.startswith(("forest-n150", "extra", "gbm-lr0.05", "gbm-lr0.1-d5", "hist", "lasso",
                                                           "ridge-a0.1", "ridge-a100", "mlp", "knn-k50", "adaboost"))
                                          or (target == "raw" and kind == "basic")):
                        continue
                    if target == "raw" and name.startswith(("mlp", "svr", "lasso", "ridge-a0.1", "knn-k1", "tree-d2")):
                        continue  # unscaled dollars: these barely move from the mean
                    pred = factory().fit(x_train, yt).predict(x_test)
                    pred = np.expm1(np.clip(pred, np.log1p(FLOOR), 15.0)) if target == "log" else np.maximum(pred, FLOOR)
                    add(f"{name}/{kind}/{target}/{pct}pct", f"{name} on {kind} features, {target} price, {pct}% of train", pred)
    print(f"standard done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 4. Strong pipelines on the engineered features.
    full = pd.concat([train.drop(columns=TARGET), test], ignore_index=True)
    n = len(train)
    tree_base, linear_base = engineered_base(full, n)
    all_train = np.arange(n)
    test_rows = np.arange(n, len(full))
    folds = list(KFold(FOLDS, shuffle=True, random_state=42).split(all_train))

    def matrices(base):
        """Per fold (its training rows, validation rows, test), then all of train and test."""
        per_fold = [(with_encodings(base, full, ly, a, a, inner_seed=k), with_encodings(base, full, ly, a, b, inner_seed=k),
                     with_encodings(base, full, ly, a, test_rows, inner_seed=k)) for k, (a, b) in enumerate(folds)]
        return per_fold, with_encodings(base, full, ly, all_train, all_train, inner_seed=99), \
            with_encodings(base, full, ly, all_train, test_rows, inner_seed=99)

    sets = {"tree": matrices(tree_base), "linear": matrices(linear_base)}
    fold_data, X_full, X_test = sets["tree"]
    # Very large houses sold in partial or abnormal sales: the outliers the data's compiler warns about.
    outlier = ((train.Gr_Liv_Area > 4000) & train.Sale_Condition.isin(["Partial", "Abnorml"])).to_numpy()
    print(f"engineered: {X_full.shape[1]} features for trees, {sets['linear'][1].shape[1]} for linear models, "
          f"{outlier.sum()} training outliers", flush=True)
    lin_full = sets["linear"][1]
    lin_medians = np.nanmedian(lin_full, axis=0)
    tree_medians = np.nanmedian(X_full, axis=0)
    log_cols = [j for j in range(lin_full.shape[1]) if np.nanmin(lin_full[:, j]) >= 0 and np.nanmax(lin_full[:, j]) > 100]

    def filled(X):
        return np.where(np.isnan(X), tree_medians, X)

    def linear(X):
        """Medians for gaps, log(1 + x) for the large non-negative columns (areas, values)."""
        X = np.where(np.isnan(X), lin_medians, X)
        X[:, log_cols] = np.log1p(X[:, log_cols])
        return X

    library = {}

    def cv_run(make, prep=lambda X: X, drop_outliers=False, refit=True):
        """Out-of-fold log predictions, fold-averaged test predictions and (optionally) a refit on all of train."""
        per_fold, x_full, x_test = sets["linear" if prep is linear else "tree"]
        oof = np.zeros(n)
        fold_avg = np.zeros(n_test)
        for (a, b), (Xa, Xb, Xt) in zip(folds, per_fold):
            keep = ~outlier[a] if drop_outliers else np.ones(len(a), bool)
            m = make().fit(prep(Xa)[keep], ly[a][keep])
            oof[b] = m.predict(prep(Xb))
            fold_avg += m.predict(prep(Xt)) / FOLDS
        full_pred = None
        if refit:
            keep = ~outlier if drop_outliers else np.ones(n, bool)
            full_pred = make().fit(prep(x_full)[keep], ly[keep]).predict(prep(x_test))
        return oof, fold_avg, full_pred

    def price(log_pred):
        return np.expm1(np.clip(log_pred, np.log1p(FLOOR), 15.0))

    def enter(team, pipeline, oof, log_pred, keep=True):
        add(team, f"{pipeline} (CV RMSLE {rmse(ly, oof):.4f})", price(log_pred))
        if keep:
            library[team] = (oof, log_pred)

    strong = []
    for a in [1.0, 3.0, 10.0, 30.0]:
        strong.append((f"ridge-a{a}", lambda a=a: make_pipeline(StandardScaler(), Ridge(alpha=a)), linear))
    for a in [0.0003, 0.001, 0.003]:
        strong.append((f"lasso-a{a}", lambda a=a: make_pipeline(StandardScaler(), Lasso(alpha=a, max_iter=20000)), linear))
    for a, r in [(0.001, 0.5), (0.003, 0.3)]:
        strong.append((f"enet-a{a}-l{r}", lambda a=a, r=r: make_pipeline(StandardScaler(), ElasticNet(alpha=a, l1_ratio=r, max_iter=20000)), linear))
    strong += [
        ("kernel-ridge-poly2", lambda: make_pipeline(StandardScaler(), KernelRidge(alpha=30.0, kernel="polynomial", degree=2, coef0=10.0)), linear),
        ("svr-C3", lambda: make_pipeline(StandardScaler(), SVR(C=3.0, epsilon=0.02, gamma=0.0005)), linear),
        ("forest-mf0.3", lambda: RandomForestRegressor(n_estimators=120, max_features=0.3, random_state=0, n_jobs=1), filled),
        ("extra-trees-mf0.5", lambda: ExtraTreesRegressor(n_estimators=120, max_features=0.5, min_samples_leaf=2, random_state=0, n_jobs=1), filled),
        ("gbm-ls-d3", lambda: GradientBoostingRegressor(learning_rate=0.08, max_depth=3, n_estimators=300, subsample=0.8,
                                                        max_features=0.5, random_state=0), filled),
        ("gbm-huber-d4", lambda: GradientBoostingRegressor(loss="huber", learning_rate=0.08, max_depth=4, n_estimators=250, subsample=0.8,
                                                           max_features=0.3, random_state=0), filled),
        ("hist-gbm-tuned", lambda: HistGradientBoostingRegressor(learning_rate=0.08, max_iter=250, max_leaf_nodes=15, min_samples_leaf=10,
                                                                 l2_regularization=1.0, random_state=0), lambda X: X),
        ("knn-k10", lambda: make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=10, weights="distance")), linear),
    ]
    for name, make, prep in strong:
        for drop in [False, True]:
            if drop and not name.startswith(("ridge", "lasso", "enet", "kernel", "svr")):
                continue
            tag = f"{name}/engineered" + ("/no-outliers" if drop else "")
            how = "trained without the large partial/abnormal sales" if drop else "trained on all of train"
            oof, fold_avg, refit = cv_run(make, prep, drop_outliers=drop)
            enter(tag, f"{name} on engineered features with target encodings, log price, {how}, refit", oof, refit)
            add(f"{tag}/fold-avg", f"{name} on engineered features, {how}, the {FOLDS} CV-fold models averaged "
                f"(CV RMSLE {rmse(ly, oof):.4f})", price(fold_avg))
    mlp_oofs, mlp_preds = [], []
    for s in range(3):
        make = lambda s=s: TransformedTargetRegressor(make_pipeline(StandardScaler(), MLPRegressor(  # noqa: E731
            (64, 32), alpha=3.0, learning_rate_init=0.003, max_iter=500, early_stopping=True, random_state=s)), transformer=StandardScaler())
        oof, fold_avg, _ = cv_run(make, linear, refit=False)
        mlp_oofs.append(oof)
        mlp_preds.append(fold_avg)
        add(f"mlp-64x32/engineered/seed{s}", f"MLP (64, 32) on engineered features, standardised log price, {FOLDS} fold models averaged, "
            f"seed {s} (CV RMSLE {rmse(ly, oof):.4f})", price(fold_avg))
    enter("mlp-64x32/engineered/bag3", "MLP (64, 32) bagged over 3 seeds x 5 folds", np.mean(mlp_oofs, axis=0), np.mean(mlp_preds, axis=0))
    print(f"strong models done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # xgboost by random search on 5-fold CV with early stopping; the fold models are averaged on test.
    rng = np.random.default_rng(1880)
    draws = []
    for i in range(XGB_DRAWS):
        params = dict(learning_rate=float(np.exp(rng.uniform(np.log(0.04), np.log(0.2)))), max_depth=int(rng.integers(2, 7)),
                      min_child_weight=float(rng.choice([1, 2, 4, 8])), subsample=float(rng.uniform(0.5, 1.0)),
                      colsample_bytree=float(rng.uniform(0.2, 0.8)), reg_lambda=float(np.exp(rng.uniform(np.log(0.3), np.log(30)))),
                      reg_alpha=float(rng.choice([0, 0.001, 0.01])), gamma=float(rng.choice([0, 0, 0.001])))
        oof, fold_avg, best = np.zeros(n), np.zeros(n_test), []
        for (a, b), (Xa, Xb, Xt) in zip(folds, fold_data):
            m = xgb.XGBRegressor(n_estimators=1000, n_jobs=1, tree_method="hist", early_stopping_rounds=30, random_state=0, **params)
            m.fit(Xa, ly[a], eval_set=[(Xb, ly[b])], verbose=False)
            it = (0, m.best_iteration + 1)
            best.append(m.best_iteration + 1)
            oof[b] = m.predict(Xb, iteration_range=it)
            fold_avg += m.predict(Xt, iteration_range=it) / FOLDS
        desc = ", ".join(f"{k}={v:.3g}" for k, v in params.items())
        enter(f"xgb-search/draw{i:02d}", f"xgboost random-search draw {i} ({desc}; ~{int(np.mean(best))} rounds), engineered features, "
              f"log price, fold models averaged", oof, fold_avg, keep=False)
        rounds = int(np.mean(best) * 1.1)
        refit = xgb.XGBRegressor(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=0, **params).fit(X_full, ly).predict(X_test)
        add(f"xgb-search/draw{i:02d}-refit", f"xgboost random-search draw {i} refit on all of train ({rounds} rounds; CV RMSLE {rmse(ly, oof):.4f})",
            price(refit))
        draws.append((rmse(ly, oof), i, params, rounds, oof, fold_avg))
    draws.sort(key=lambda d: d[0])
    for top in [3, 5, 10]:
        enter(f"xgb-search/top{top}-avg", f"average of the {top} best xgboost draws by CV RMSLE",
              np.mean([d[4] for d in draws[:top]], axis=0), np.mean([d[5] for d in draws[:top]], axis=0))
    for rank in range(3):
        score, i, params, rounds, oof, fold_avg = draws[rank]
        library[f"xgb-cv-rank{rank + 1}"] = (oof, fold_avg)
        ps = [xgb.XGBRegressor(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=s, **params).fit(X_full, ly).predict(X_test)
              for s in range(1, 4)]
        add(f"xgb-search/cv-rank{rank + 1}-refit-3seeds", f"xgboost draw {i} (CV rank {rank + 1}) refit on all of train, 3 more seeds averaged "
            f"(CV RMSLE {score:.4f})", price(np.mean(ps, axis=0)))
    # Two-model blends: each of the ten best draws with the CV's best linear model.
    lin_best = min((k for k in library if k.startswith(("ridge", "lasso", "enet"))), key=lambda k: rmse(ly, library[k][0]))
    for score, i, params, rounds, oof, fold_avg in draws[:10]:
        w, _ = nnls(np.column_stack([oof, library[lin_best][0]]), ly)
        w = w / w.sum()
        add(f"blend/xgb-draw{i:02d}+linear", f"xgboost draw {i} ({w[0]:.2f}) blended with {lin_best} ({w[1]:.2f})",
            price(w[0] * fold_avg + w[1] * library[lin_best][1]))
    print(f"xgboost search done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Blends and stacking over the library.
    ranked = sorted(library, key=lambda k: rmse(ly, library[k][0]))
    for top in [2, 3, 4, 6, 10]:
        members = ranked[:top]
        add(f"blend/top{top}-equal", "equal blend of " + ", ".join(members), price(np.mean([library[k][1] for k in members], axis=0)))
    O = np.column_stack([library[k][0] for k in ranked])
    T = np.column_stack([library[k][1] for k in ranked])
    # Every pair among the twelve best by CV, weighted by least squares on their out-of-fold predictions.
    for i in range(12):
        for j in range(i + 1, 12):
            w, _ = nnls(O[:, [i, j]], ly)
            w = w / w.sum()
            add(f"blend/pair-{ranked[i]}+{ranked[j]}", f"{ranked[i]} ({w[0]:.2f}) blended with {ranked[j]} ({w[1]:.2f})",
                price(T[:, [i, j]] @ w))
    for top in [4, 8, len(ranked)]:
        w, _ = nnls(O[:, :top], ly)
        w = w / w.sum()
        chosen = [f"{ranked[j]} {w[j]:.2f}" for j in range(top) if w[j] > 0.005]
        add(f"blend/nnls-top{top}", "non-negative least-squares blend on the out-of-fold predictions: " + ", ".join(chosen), price(T[:, :top] @ w))
    for steps in [5, 10, 25]:
        chosen, total = [], np.zeros(n)
        for _ in range(steps):
            j = min(range(len(ranked)), key=lambda j: rmse(ly, (total + O[:, j]) / (len(chosen) + 1)))
            chosen.append(j)
            total += O[:, j]
        add(f"blend/greedy-{steps}", f"greedy forward blend ({steps} steps, with replacement) on the out-of-fold predictions: "
            + ", ".join(sorted({ranked[j] for j in chosen})), price(T[:, chosen].mean(axis=1)))
    for alpha in [1.0, 30.0]:
        meta = Ridge(alpha=alpha).fit(O, ly)
        add(f"stack-ridge-a{alpha}", f"stacking: ridge (alpha {alpha}) on the out-of-fold predictions of {len(ranked)} models", price(meta.predict(T)))

    baseline = rmsle(truth, sample.set_index(ID).loc[test[ID], TARGET].to_numpy(dtype=float))
    write_board(rows, OUT, lower_is_better=True, note=f" (sample submission {baseline:.5f}) in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
