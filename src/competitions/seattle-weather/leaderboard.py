#!/usr/bin/python3
"""Reference leaderboard for the offline `seattle-weather` competition.

Trains a documented population of pipelines on the public train split (1,023 days, 2012-01-01
to 2014-10-19), scores each with multi-class log loss on the private answers (the 438 later
days), and writes src/competitions/seattle-weather/leaderboard.csv (best, i.e. lowest, first).
The scores form a *reference population* of pipelines, not a leaderboard of human teams.
Nothing but the final scoring reads the answers: every hyper-parameter, recency half-life,
calibration temperature and blend weight is chosen on a forward-chaining time-series CV
inside train (three blocks of 120 days at the end of train, each predicted by a model fitted
on the days before it).

The population (about 600 entries), bottom to top:

1. Trivial: uniform 0.2; the class frequencies of all of train or of its last 90 ... 365
   days; class frequencies by month; "a wet day is rain, a dry day is sun" with several
   degrees of confidence.
2. Small budgets and badly regularised models: every standard model on only the most recent
   10% or 20% of train (or on the oldest 30%), unpruned trees, 1-nearest-neighbour.
3. Standard pipelines, every combination of
   - feature sets "weather" (the four measurements), "seasonal" (plus month and the day of the
     year as a point on a circle), "rich" (plus temperature range, a wet-day flag and log
     precipitation);
   - models: logistic regression (C 0.01 ... 10), decision trees (depth 2 ... unlimited),
     random forests, extra trees, gradient boosting, AdaBoost, k-nearest neighbours, Gaussian
     naive Bayes, LDA, a default MLP;
   - budgets: the most recent 30%, 45%, 60%, 80% or 100% of the training days (the split is by
     time, so a pipeline with a small budget sensibly keeps the days nearest the test period).
4. Strong pipelines on hand-made features ("temporal"): the rich set plus the measurements of
   the two days before and after (the test days are one contiguous stretch, so neighbours are
   public features), centred 3- and 7-day rolling means, dry-spell length and a linear time
   trend; trained with exponential recency weights (the label mix drifts: drizzle vanishes from
   2014 on, fog becomes more common), with
   - logistic regression, forests, extra trees, gradient boosting and MLPs over grids and
     recency half-lives;
   - xgboost tuned by random search (30 draws of learning rate, depth, child weight,
     subsampling, column sampling, L2, half-life) on the time-series CV with early stopping;
     every draw is an entry, the best ones also seed-averaged; seeds of the CV's best forest;
   - a two-stage model that uses what the labels mean (a wet day is rain or snow; a dry day is
     sun, fog, drizzle, or in the early years rain): one classifier per stage;
   - temperature scaling, and shrinking towards the last year's class frequencies, fitted on
     the CV predictions; equal and greedy (Caruana) blends;
     stacking (logistic regression on the CV blocks' predictions).

Every pipeline's probabilities are widened to all five types (a type absent from its training
days gets 0), floored at 1e-4 and renormalised so each row sums to one, as a careful submission
would be. The score is the log loss by its formula: probabilities clipped to [eps, 1 - eps]
with eps the float64 machine epsilon, rows not renormalised.

Runtime: about 5 CPU-minutes, single-threaded (OMP/BLAS threads pinned to 1).

Usage (Debian's interpreter, which has scikit-learn and xgboost):
    node dist/cli/main.js prepare -c seattle-weather --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/seattle-weather/leaderboard.py /tmp/lb-data
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
from scipy.optimize import minimize_scalar  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.ensemble import (AdaBoostClassifier, ExtraTreesClassifier, GradientBoostingClassifier,  # noqa: E402
                              RandomForestClassifier)
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import log_loss, normalise, write_board  # noqa: E402

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
CLASSES = ["drizzle", "fog", "rain", "snow", "sun"]
K = len(CLASSES)
# Floor applied before renormalising, so no pipeline stakes everything on a single type.
PROBA_FLOOR = 1e-4
# Forward-chaining CV: each block of BLOCK days at the end of train is predicted by a model fitted on the days before it.
BLOCKS, BLOCK = 3, 120


def raw_features(df, kind):
    """The standard feature sets of increasing richness."""
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


def temporal_features(days):
    """Hand-made features over all days (train and test) in date order."""
    X = raw_features(days, "rich").reset_index(drop=True)
    date = pd.to_datetime(days.date).reset_index(drop=True)
    X["trend"] = (date - pd.Timestamp("2012-01-01")).dt.days / 365.25
    for lag in [1, 2, -1, -2]:
        for c in ["log_precip", "wet", "temp_max", "temp_range", "wind"]:
            X[f"{c}_lag{lag}"] = X[c].shift(lag).bfill().ffill()
    for w in [3, 7]:
        for c in ["log_precip", "wind", "temp_range"]:
            X[f"{c}_roll{w}"] = X[c].rolling(w, center=True, min_periods=1).mean()
    spell = np.zeros(len(X))
    for i in range(1, len(X)):
        spell[i] = 0 if X.wet[i] else spell[i - 1] + 1
    X["dry_spell"] = np.minimum(spell, 30)
    return X


def widen(proba, classes):
    """predict_proba's columns (the classes seen in training) spread over all five types."""
    out = np.zeros((proba.shape[0], K))
    for j, c in enumerate(classes):
        out[:, int(c)] = proba[:, j]
    return out


def recency(dates, half_life_days):
    """Exponential weights halving every half_life_days before the last training day (None: equal)."""
    if half_life_days is None:
        return np.ones(len(dates))
    age = (dates.max() - dates).dt.days.to_numpy(dtype=float)
    return 0.5 ** (age / half_life_days)


def standard_models():
    for c in [0.01, 0.1, 1.0, 10.0]:
        yield f"logreg-C{c}", lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=2000))
    for depth in [2, 4, 6, 10, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeClassifier(max_depth=d, random_state=0)
    for n, depth, leaf in [(100, 4, 1), (100, 8, 1), (300, None, 1), (300, None, 5)]:
        yield f"forest-n{n}-d{depth}-leaf{leaf}", lambda n=n, d=depth, leaf=leaf: RandomForestClassifier(
            n_estimators=n, max_depth=d, min_samples_leaf=leaf, random_state=0)
    yield "extra-trees-n200-leaf3", lambda: ExtraTreesClassifier(n_estimators=200, min_samples_leaf=3, random_state=0)
    for lr, depth in [(0.05, 2), (0.1, 3)]:
        yield f"gbm-lr{lr}-d{depth}", lambda lr=lr, d=depth: GradientBoostingClassifier(learning_rate=lr, max_depth=d, random_state=0)
    yield "adaboost", lambda: AdaBoostClassifier(random_state=0)
    for k in [1, 5, 15, 50]:
        yield f"knn-k{k}", lambda k=k: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=k))
    yield "naive-bayes", GaussianNB
    yield "lda", LinearDiscriminantAnalysis
    yield "mlp-default", lambda: make_pipeline(StandardScaler(), MLPClassifier(max_iter=500, random_state=0))


def fit_weighted(model, X, y, w):
    """fit with sample weights, through a pipeline's last step where needed."""
    if hasattr(model, "steps"):
        return model.fit(X, y, **{model.steps[-1][0] + "__sample_weight": w})
    return model.fit(X, y, sample_weight=w)


def temperature(p, t):
    logp = np.log(np.clip(p, 1e-6, 1)) / t
    e = np.exp(logp - logp.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def main(data_dir):
    started = time.process_time()
    root = os.path.join(data_dir, "seattle-weather", "prepared")
    train = pd.read_csv(os.path.join(root, "public", "train.csv")).sort_values("date", kind="mergesort").reset_index(drop=True)
    test = pd.read_csv(os.path.join(root, "public", "test.csv"))
    answers = pd.read_csv(os.path.join(root, "private", "test.csv"))
    truth = test[["id"]].merge(answers, on="id", how="left")[CLASSES].to_numpy(dtype=float)
    assert not np.isnan(truth).any(), "answers do not cover every test id"
    y_all = train.weather.map({c: i for i, c in enumerate(CLASSES)}).to_numpy()
    n = len(train)
    rows = []

    def add(team, pipeline, p):
        p = np.asarray(p, dtype=float)
        assert p.shape == truth.shape and np.isfinite(p).all(), team
        rows.append({"teamName": team, "score": log_loss(truth, normalise(p, PROBA_FLOOR)), "pipeline": pipeline})

    # 1. Trivial.
    add("uniform", "0.2 for every weather type", np.full((len(test), K), 1 / K))
    test_month = pd.to_datetime(test.date).dt.month.to_numpy()
    train_dates = pd.to_datetime(train.date)
    for days in [None, 365, 270, 180, 90]:
        sub = train if days is None else train[train_dates > train_dates.max() - pd.Timedelta(days=days)]
        freq = sub.weather.value_counts(normalize=True).reindex(CLASSES, fill_value=0.0).to_numpy()
        where = "all of train" if days is None else f"the last {days} days of train"
        add(f"class-frequencies/{days or 'all'}", f"class frequencies of {where}", np.tile(freq, (len(test), 1)))
    by_month = pd.crosstab(train_dates.dt.month, train.weather).reindex(columns=CLASSES, fill_value=0)
    for alpha in [0.5, 5.0]:
        table = (by_month + alpha).div((by_month + alpha).sum(axis=1), axis=0)
        add(f"class-frequencies-by-month/a{alpha}", f"class frequencies of the test day's month over train (add-{alpha} smoothing)",
            table.loc[test_month].to_numpy())
    wet = (test.precipitation > 0).to_numpy()
    for conf in [0.6, 0.75, 0.9, 0.97]:
        p = np.full((len(test), K), (1 - conf) / (K - 1))
        p[wet, CLASSES.index("rain")] = conf
        p[~wet, CLASSES.index("sun")] = conf
        add(f"wet-rain-dry-sun/{conf}", f"a wet day is rain and a dry day sun, with probability {conf}, the rest spread evenly", p)

    # 2 and 3. Standard pipelines over feature sets and budgets (the most recent share of days; one oldest share).
    budgets = [("recent", 0.1), ("recent", 0.2), ("recent", 0.3), ("recent", 0.45), ("recent", 0.6), ("recent", 0.8),
               ("recent", 1.0), ("oldest", 0.3)]
    for side, budget in budgets:
        size = int(round(n * budget))
        sub = train.iloc[n - size:] if side == "recent" else train.iloc[:size]
        pct = f"{int(budget * 100)}pct" + ("-oldest" if side == "oldest" else "")
        where = ("all of train" if budget == 1.0 else f"the most recent {int(budget * 100)}% of train") if side == "recent" \
            else f"the oldest {int(budget * 100)}% of train"
        for kind in ["weather", "seasonal", "rich"]:
            x_train, x_test = raw_features(sub, kind), raw_features(test, kind)
            for name, factory in standard_models():
                small = budget <= 0.2 or side == "oldest"
                if small and name.startswith(("forest-n300-dNone-leaf5", "extra", "gbm-lr0.05", "lda", "knn-k50")):
                    continue
                if not small and kind == "weather" and name.startswith(("adaboost", "mlp", "lda")):
                    continue
                model = factory().fit(x_train, sub.weather)
                classes = [CLASSES.index(c) for c in model.classes_]
                add(f"{name}/{kind}/{pct}", f"{name} on {kind} features, {where}", widen(model.predict_proba(x_test), classes))
    print(f"standard done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 4. Strong pipelines on the temporal features, with recency weights and time-series CV.
    days = pd.concat([train.drop(columns="weather").assign(part=0), test.assign(part=1)]).sort_values("date", kind="mergesort")
    feats = temporal_features(days)
    part = days.part.to_numpy()
    # Map back: train rows are in date order already; test rows need the submission's order.
    X_train = feats[part == 0].to_numpy(dtype=float)
    test_order = days.id.to_numpy()[part == 1]
    position = pd.Series(np.arange(len(test_order)), index=test_order)
    X_test = feats[part == 1].to_numpy(dtype=float)[position.loc[test.id].to_numpy()]
    dates = train_dates
    blocks = [(np.arange(0, n - BLOCK * (BLOCKS - k)), np.arange(n - BLOCK * (BLOCKS - k), n - BLOCK * (BLOCKS - k - 1)))
              for k in range(BLOCKS)]
    cv_idx = np.concatenate([b for _, b in blocks])
    y_cv = y_all[cv_idx]
    onehot_cv = np.eye(K)[y_cv]
    cv_loss = lambda p: log_loss(onehot_cv, normalise(p, PROBA_FLOOR))  # noqa: E731

    def run_cv(make, half_life, cols=None, fit=None):
        """Predictions for the CV blocks (stacked) and for test from a model fitted on all of train."""
        fit = fit or (lambda m, X, y, w: fit_weighted(m, X, y, w))
        Xa = X_train if cols is None else X_train[:, cols]
        Xt = X_test if cols is None else X_test[:, cols]
        out = []
        for a, b in blocks:
            m = fit(make(), Xa[a], y_all[a], recency(dates.iloc[a], half_life))
            out.append(widen(m.predict_proba(Xa[b]), m.classes_))
        m = fit(make(), Xa, y_all, recency(dates, half_life))
        return np.vstack(out), widen(m.predict_proba(Xt), m.classes_)

    library = {}

    def enter(team, pipeline, cv_p, test_p, keep=True):
        add(team, f"{pipeline} (time-series CV log loss {cv_loss(cv_p):.4f})", test_p)
        if keep:
            library[team] = (cv_p, test_p)

    strong = [
        ("logreg-C0.1", lambda: make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=3000))),
        ("logreg-C1", lambda: make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=3000))),
        ("forest-leaf3", lambda: RandomForestClassifier(n_estimators=200, min_samples_leaf=3, max_features=0.4, random_state=0)),
        ("forest-leaf8", lambda: RandomForestClassifier(n_estimators=200, min_samples_leaf=8, max_features=0.4, random_state=0)),
        ("extra-trees-leaf5", lambda: ExtraTreesClassifier(n_estimators=200, min_samples_leaf=5, max_features=0.5, random_state=0)),
        ("gbm-lr0.05-d2", lambda: GradientBoostingClassifier(learning_rate=0.05, max_depth=2, n_estimators=120, subsample=0.8, random_state=0)),
        ("mlp-32-a1", lambda: make_pipeline(StandardScaler(), MLPClassifier((32,), alpha=1.0, max_iter=800, random_state=0))),
    ]
    for name, make in strong:
        for half_life in [None, 365, 180]:
            hl = "equal" if half_life is None else f"hl{half_life}"
            if name.startswith("mlp") and half_life is not None:
                continue  # MLPClassifier takes no sample weights
            fit = (lambda m, X, y, w: m.fit(X, y)) if name.startswith("mlp") else None
            cv_p, test_p = run_cv(make, half_life, fit=fit)
            weights = "equal weights" if half_life is None else f"recency weights halving every {half_life} days"
            enter(f"{name}/temporal/{hl}", f"{name} on temporal features, {weights}", cv_p, test_p)
    # Forest and extra-trees grids, and seeds of the forest the CV likes best.
    grid = []
    for leaf in [5, 12]:
        for mf in [0.25, 0.6]:
            for half_life in [None, 365]:
                grid.append((f"forest-leaf{leaf}-mf{mf}", leaf, mf, half_life, RandomForestClassifier))
    for leaf in [3, 10]:
        for half_life in [None, 365]:
            grid.append((f"extra-trees-leaf{leaf}-mf0.7", leaf, 0.7, half_life, ExtraTreesClassifier))
    forests = []
    for name, leaf, mf, half_life, cls in grid:
        make = lambda leaf=leaf, mf=mf, cls=cls, s=0: cls(n_estimators=150, min_samples_leaf=leaf, max_features=mf, random_state=s)  # noqa: E731
        cv_p, test_p = run_cv(make, half_life)
        hl = "equal" if half_life is None else f"hl{half_life}"
        enter(f"{name}/temporal/{hl}", f"{name} on temporal features, " + ("equal weights" if half_life is None else
              f"recency weights halving every {half_life} days"), cv_p, test_p, keep=False)
        forests.append((cv_loss(cv_p), name, leaf, mf, half_life, cls))
    _, name, leaf, mf, half_life, cls = min(forests, key=lambda f: f[0])
    for s in range(1, 6):
        m = fit_weighted(cls(n_estimators=150, min_samples_leaf=leaf, max_features=mf, random_state=s), X_train, y_all, recency(dates, half_life))
        add(f"{name}/temporal/cv-best-seed{s}", f"{name} (the CV's best forest, half-life {half_life}), seed {s}",
            widen(m.predict_proba(X_test), m.classes_))
    rich_cols = list(range(raw_features(train, "rich").shape[1]))
    for name, make in strong[:6]:
        cv_p, test_p = run_cv(make, 365, cols=rich_cols)
        enter(f"{name}/rich/hl365", f"{name} on the rich features (no neighbours), recency weights halving every 365 days", cv_p, test_p, keep=False)
    print(f"strong models done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Two-stage: wet days are rain or snow, dry days one of the rest.
    wet_tr, wet_te = train.precipitation.to_numpy() > 0, test.precipitation.to_numpy() > 0
    stage_models = [
        ("logreg", lambda: make_pipeline(StandardScaler(), LogisticRegression(C=0.3, max_iter=3000))),
        ("forest", lambda: RandomForestClassifier(n_estimators=200, min_samples_leaf=5, max_features=0.4, random_state=0)),
        ("gbm", lambda: GradientBoostingClassifier(learning_rate=0.05, max_depth=2, n_estimators=120, subsample=0.8, random_state=0)),
    ]

    def two_stage(make_dry, half_life, a, Xa, Xt, wet_t):
        out = np.zeros((len(Xt), K))
        w = recency(dates.iloc[a], half_life)
        for mask_tr, mask_te in [(wet_tr[a], wet_t), (~wet_tr[a], ~wet_t)]:
            ya = y_all[a][mask_tr]
            if mask_te.sum() == 0:
                continue
            if len(np.unique(ya)) == 1:
                out[np.ix_(mask_te, [ya[0]])] = 1.0
                continue
            m = fit_weighted(make_dry(), Xa[a][mask_tr], ya, w[mask_tr])
            out[mask_te] = widen(m.predict_proba(Xt[mask_te]), m.classes_)
        return out

    for name, make in stage_models:
        for half_life in [365, 180]:
            cv_p = np.vstack([two_stage(make, half_life, a, X_train, X_train[b], wet_tr[b]) for a, b in blocks])
            test_p = two_stage(make, half_life, np.arange(n), X_train, X_test, wet_te)
            enter(f"two-stage-{name}/temporal/hl{half_life}", f"two-stage {name} (wet: rain or snow; dry: the rest) on temporal features, "
                  f"recency half-life {half_life} days", cv_p, test_p)

    # xgboost by random search on the time-series CV.
    rng = np.random.default_rng(1461)
    draws = []
    for i in range(30):
        params = dict(learning_rate=float(np.exp(rng.uniform(np.log(0.03), np.log(0.3)))), max_depth=int(rng.integers(2, 6)),
                      min_child_weight=float(rng.choice([1, 2, 4, 8])), subsample=float(rng.uniform(0.5, 1.0)),
                      colsample_bytree=float(rng.uniform(0.3, 1.0)), reg_lambda=float(np.exp(rng.uniform(np.log(0.5), np.log(30)))))
        half_life = [None, 730, 365, 180][int(rng.integers(0, 4))]
        cv_parts, best = [], []
        for a, b in blocks:
            m = xgb.XGBClassifier(n_estimators=400, n_jobs=1, tree_method="hist", early_stopping_rounds=25, random_state=0,
                                  objective="multi:softprob", num_class=K, **params)
            m.fit(X_train[a], y_all[a], sample_weight=recency(dates.iloc[a], half_life), eval_set=[(X_train[b], y_all[b])], verbose=False)
            best.append(m.best_iteration + 1)
            cv_parts.append(m.predict_proba(X_train[b], iteration_range=(0, m.best_iteration + 1)))
        rounds = max(10, int(np.mean(best) * 1.1))
        final = xgb.XGBClassifier(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=0,
                                  objective="multi:softprob", num_class=K, **params)
        final.fit(X_train, y_all, sample_weight=recency(dates, half_life))
        cv_p, test_p = np.vstack(cv_parts), final.predict_proba(X_test)
        desc = ", ".join(f"{k}={v:.3g}" for k, v in params.items())
        enter(f"xgb-search/draw{i:02d}", f"xgboost random-search draw {i} ({desc}; half-life {half_life}; {rounds} rounds) on temporal features",
              cv_p, test_p, keep=False)
        draws.append((cv_loss(cv_p), i, params, half_life, rounds, cv_p, test_p))
    draws.sort(key=lambda d: d[0])
    for top in [3, 5, 10]:
        add(f"xgb-search/top{top}-avg", f"average of the {top} best xgboost draws by time-series CV",
            np.mean([d[6] for d in draws[:top]], axis=0))
    for rank in range(3):
        loss, i, params, half_life, rounds, cv_p, _ = draws[rank]
        ps = []
        for s in range(5):
            m = xgb.XGBClassifier(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=s,
                                  objective="multi:softprob", num_class=K, **params)
            ps.append(m.fit(X_train, y_all, sample_weight=recency(dates, half_life)).predict_proba(X_test))
            if s == 0:
                library[f"xgb-cv-rank{rank + 1}"] = (cv_p, ps[0])
        add(f"xgb-search/cv-rank{rank + 1}-5seeds", f"xgboost draw {i} (CV rank {rank + 1}) averaged over 5 seeds", np.mean(ps, axis=0))
    print(f"xgboost search done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Temperature scaling fitted on the CV predictions.
    ranked = sorted(library, key=lambda k: cv_loss(library[k][0]))
    for k in ranked[:12]:
        cv_p, test_p = library[k]
        t = minimize_scalar(lambda t: cv_loss(temperature(cv_p, t)), bounds=(0.3, 3.0), method="bounded").x
        add(f"{k}/temperature", f"{k}, temperature-scaled (T={t:.2f}, fitted on the CV blocks)", temperature(test_p, t))

    # Shrinking towards the recent class frequencies, the weight fitted on the CV blocks.
    recent = np.bincount(y_all[n - 365:], minlength=K) / 365.0
    for k in ranked[:12]:
        cv_p, test_p = library[k]
        e = minimize_scalar(lambda e: cv_loss((1 - e) * cv_p + e * recent), bounds=(0.0, 0.5), method="bounded").x
        add(f"{k}/prior-mix", f"{k}, mixed with the last year's class frequencies (weight {e:.3f}, fitted on the CV blocks)",
            (1 - e) * test_p + e * recent)

    # Blends and stacking.
    for top in [2, 3, 5, 8, 12]:
        members = ranked[:top]
        add(f"blend/top{top}-equal", "equal blend of " + ", ".join(members), np.mean([library[k][1] for k in members], axis=0))
    families = {}
    for k in ranked:
        families.setdefault(k.split("/")[0].split("-")[0], k)
    fam = list(families.values())
    for top in [3, 4, len(fam)]:
        members = fam[:top]
        add(f"blend/families-top{top}", "equal blend of the best model of each family: " + ", ".join(members),
            np.mean([library[k][1] for k in members], axis=0))
    # Greedy forward selection (Caruana) on the CV blocks, with replacement.
    for steps in [5, 10, 20]:
        chosen, current = [], None
        for _ in range(steps):
            best_k = min(ranked, key=lambda k: cv_loss(library[k][0] if current is None else (current * len(chosen) + library[k][0]) / (len(chosen) + 1)))
            chosen.append(best_k)
            current = np.mean([library[k][0] for k in chosen], axis=0)
        add(f"blend/greedy-{steps}", f"greedy forward blend ({steps} steps, with replacement) on the CV blocks: " + ", ".join(sorted(set(chosen))),
            np.mean([library[k][1] for k in chosen], axis=0))
    for top, c in [(4, 0.1), (6, 0.1), (6, 1.0), (12, 0.03)]:
        members = ranked[:top]
        O = np.column_stack([np.log(np.clip(library[k][0], 1e-4, 1)) for k in members])
        T = np.column_stack([np.log(np.clip(library[k][1], 1e-4, 1)) for k in members])
        meta = LogisticRegression(C=c, max_iter=3000).fit(O, y_cv)
        add(f"stack-logreg-C{c}/{top}-models", f"stacking: logistic regression (C={c}) on the log-probabilities of {top} models' CV predictions",
            widen(meta.predict_proba(T), meta.classes_))

    assert len({r["teamName"] for r in rows}) == len(rows)
    write_board(rows, OUT, lower_is_better=True, note=f" in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
