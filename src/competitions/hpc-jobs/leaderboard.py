#!/usr/bin/python3
"""Reference leaderboard for the offline `hpc-jobs` competition.

Trains a documented population of classifiers on the public train split (3,032 jobs), scores
each by the mean misclassification cost under Kuhn & Johnson's cost matrix on the private
answers (1,299 jobs), and writes src/competitions/hpc-jobs/leaderboard.csv (lowest first). The
scores form a *reference population* of pipelines, not a leaderboard of human teams. Nothing
but the final scoring reads the answers: every hyper-parameter, round count, class weight,
decision threshold and blend weight is chosen by 5-fold stratified cross-validation on train.

Most pipelines produce class probabilities and are entered with one of three decision rules:
"argmax" (the most probable class, what an accuracy-minded entry does), "min-cost" (the class
with the lowest expected cost under the probabilities) and "tuned" (min-cost after per-class
probability weights fitted on the out-of-fold predictions, which corrects miscalibration).

The population (about 560 entries), bottom to top:

1. Trivial: one class for every job (each of the four), seeded random labels (uniform and by
   the training frequencies), the most common class of the job's protocol, the cheapest class
   of the protocol under its training frequencies, and thresholds on the number of compounds.
2. Small budgets: a seeded 10% or 25% sample of train with the standard models below.
3. Standard pipelines, every combination of
   - feature sets "basic" (compounds, input fields, iterations, pending jobs), "numeric" (adds
     the hour, the weekday and the protocol as integer codes) and "onehot" (log counts, one-hot
     protocol and weekday, the hour);
   - models: logistic regression (C 0.01 ... 10), decision trees (depth 3 ... unlimited),
     random forests, extra trees, gradient boosting, histogram gradient boosting, AdaBoost,
     k-nearest neighbours, naive Bayes, linear discriminant analysis, a default MLP;
   - decision rules argmax and min-cost; budgets 50% and 100% of train.
4. Strong pipelines on hand-made features ("engineered"): log counts, the size of the job
   (log compounds x input fields, times iterations), pending jobs per compound, the hour as a
   circle, night and weekend flags, and per protocol the frequency of each class and the
   median log size (out-of-fold inside each CV fold), with one-hot protocol for linear models.
   On them:
   - xgboost (multi-class softprob) tuned by random search (12 draws of learning rate,
     depth, child weight, subsampling, column sampling, L1/L2) on 5-fold CV with early
     stopping; each draw is entered with the min-cost and tuned rules, fold models averaged
     on test, the best ones also refit with more seeds;
   - random forests and extra trees (plain and with the book's class weights VF 1, F 1, M 5,
     L 10), histogram and scikit-learn gradient boosting, logistic regression with splines,
     a bagged MLP, kNN; each with the three decision rules;
   - probability blends (equal and greedy forward selection on the out-of-fold expected cost)
     and stacking (logistic regression on the out-of-fold log probabilities), decided by the
     tuned rule.

Runtime: about 6 CPU-minutes, single-threaded (OMP/BLAS threads pinned to 1).

Usage (Debian's interpreter, which has scikit-learn and xgboost):
    node dist/cli/main.js prepare -c hpc-jobs --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/hpc-jobs/leaderboard.py /tmp/lb-data
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
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.ensemble import (AdaBoostClassifier, ExtraTreesClassifier, GradientBoostingClassifier,  # noqa: E402
                              HistGradientBoostingClassifier, RandomForestClassifier)
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import SplineTransformer, StandardScaler  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board  # noqa: E402

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
ID, TARGET = "id", "class"
FOLDS = 5
XGB_DRAWS = 12
CLASSES = ["VF", "F", "M", "L"]
# Kuhn & Johnson's costs: row = true class, column = predicted class (the grader's COSTS).
COSTS = np.array([[0, 1, 1, 1], [1, 0, 1, 1], [5, 5, 0, 1], [10, 5, 1, 0]], dtype=float)
BOOK_WEIGHTS = np.array([1.0, 1.0, 5.0, 10.0])
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
COUNTS = ["compounds", "input_fields", "iterations", "num_pending"]


def mean_cost(y, pred):
    """Mean of COSTS[true, predicted] over the rows (class indices)."""
    return float(COSTS[np.asarray(y), np.asarray(pred)].mean())


def min_cost(p, weights=None):
    """The class with the lowest expected cost under probabilities p (rows), optionally reweighted."""
    q = p if weights is None else p * weights
    return np.argmin(q @ COSTS, axis=1)


def tune_weights(y, p):
    """Per-class probability weights minimising the out-of-fold cost of the min-cost rule (coordinate search)."""
    w = np.ones(4)
    grid = np.exp(np.linspace(np.log(0.25), np.log(4.0), 17))
    best = mean_cost(y, min_cost(p, w))
    for _ in range(3):
        for k in range(1, 4):
            for g in grid:
                trial = w.copy()
                trial[k] = g
                c = mean_cost(y, min_cost(p, trial))
                if c < best - 1e-12:
                    best, w = c, trial
    return w


def raw_features(df, kind, ref):
    """Feature matrix of the given richness; `ref` (the training sample) supplies the levels."""
    out = df[COUNTS].astype(float)
    if kind == "basic":
        return out
    if kind == "numeric":
        out["hour"] = df.hour
        out["day"] = df.day.map({d: i for i, d in enumerate(DAYS)}).astype(float)
        out["protocol"] = pd.Categorical(df.protocol, categories=sorted(ref.protocol.unique())).codes.astype(float)
        return out
    out = np.log1p(out)
    out["hour"] = df.hour
    for p in sorted(ref.protocol.unique()):
        out[f"protocol={p}"] = (df.protocol == p).astype(float)
    for d in DAYS:
        out[f"day={d}"] = (df.day == d).astype(float)
    return out


def engineered_base(full):
    """Label-free hand-made features for all jobs, and the one-hot protocol block."""
    X = pd.DataFrame(index=full.index)
    for c in COUNTS:
        X["log_" + c] = np.log1p(full[c].astype(float))
    X["log_size"] = X.log_compounds + X.log_input_fields
    X["log_work"] = X.log_size + X.log_iterations
    X["pending_per_compound"] = np.log1p(full.num_pending / full.compounds.clip(lower=1))
    X["any_pending"] = (full.num_pending > 0).astype(float)
    X["hour"] = full.hour
    X["hour_sin"] = np.sin(2 * np.pi * full.hour / 24)
    X["hour_cos"] = np.cos(2 * np.pi * full.hour / 24)
    X["night"] = ((full.hour < 7) | (full.hour >= 20)).astype(float)
    X["day"] = full.day.map({d: i for i, d in enumerate(DAYS)}).astype(float)
    X["weekend"] = full.day.isin(["Sat", "Sun"]).astype(float)
    X["protocol_code"] = pd.Categorical(full.protocol).codes.astype(float)
    X["iterations_default"] = (full.iterations == 20).astype(float)
    H = pd.DataFrame({f"protocol={p}": (full.protocol == p).astype(float) for p in sorted(full.protocol.unique())}, index=full.index)
    return X, H


def protocol_encodings(full, y, fit_rows, apply_rows, smoothing=10):
    """Smoothed class frequencies and the median log size of each protocol, fitted on fit_rows."""
    key = full.protocol.to_numpy()
    prior = np.bincount(y[fit_rows], minlength=4) / len(fit_rows)
    out = np.zeros((len(apply_rows), 5))
    size = np.log1p(full.compounds.to_numpy(dtype=float)) + np.log1p(full.input_fields.to_numpy(dtype=float))
    for p in np.unique(key[apply_rows]):
        mine = fit_rows[key[fit_rows] == p]
        counts = np.bincount(y[mine], minlength=4)
        freq = (counts + smoothing * prior) / (len(mine) + smoothing)
        med = np.median(size[mine]) if len(mine) else np.median(size[fit_rows])
        out[key[apply_rows] == p] = np.append(freq[1:], [med, len(mine)])
    return out


def standard_models():
    """(name, factory) for every standard model."""
    for c in [0.01, 0.1, 1.0, 10.0]:
        yield f"logreg-C{c}", lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=3000))
    for depth in [3, 5, 8, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeClassifier(max_depth=d, random_state=0)
    for n, leaf in [(100, 1), (200, 5)]:
        yield f"forest-n{n}-leaf{leaf}", lambda n=n, leaf=leaf: RandomForestClassifier(n_estimators=n, min_samples_leaf=leaf, random_state=0, n_jobs=1)
    yield "extra-trees-n100", lambda: ExtraTreesClassifier(n_estimators=100, min_samples_leaf=3, random_state=0, n_jobs=1)
    for lr, depth in [(0.1, 2), (0.1, 3)]:
        yield f"gbm-lr{lr}-d{depth}", lambda lr=lr, d=depth: GradientBoostingClassifier(learning_rate=lr, max_depth=d, random_state=0)
    yield "hist-gbm", lambda: HistGradientBoostingClassifier(random_state=0)
    yield "adaboost", lambda: AdaBoostClassifier(random_state=0)
    for k in [1, 15, 50]:
        yield f"knn-k{k}", lambda k=k: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=k))
    yield "naive-bayes", GaussianNB
    yield "lda", LinearDiscriminantAnalysis
    yield "mlp-default", lambda: make_pipeline(StandardScaler(), MLPClassifier(max_iter=300, random_state=0))


def main(data_dir):
    started = time.process_time()
    prepared = os.path.join(data_dir, "hpc-jobs", "prepared")
    train = pd.read_csv(os.path.join(prepared, "public", "train.csv"), keep_default_na=False)
    test = pd.read_csv(os.path.join(prepared, "public", "test.csv"), keep_default_na=False)
    answers = pd.read_csv(os.path.join(prepared, "private", "test.csv"), keep_default_na=False)
    sample = pd.read_csv(os.path.join(prepared, "public", "sample_submission.csv"), keep_default_na=False)
    index = {c: i for i, c in enumerate(CLASSES)}
    labels = test[[ID]].merge(answers, on=ID, how="left")[TARGET]
    assert labels.isin(CLASSES).all(), "answers do not cover every test id"
    truth = labels.map(index).to_numpy()
    y = train[TARGET].map(index).to_numpy()
    n, n_test = len(train), len(test)
    rows = []

    def add(team, pipeline, pred):
        pred = np.asarray(pred)
        assert pred.shape == truth.shape and pred.dtype.kind in "iu" and pred.min() >= 0 and pred.max() <= 3, team
        rows.append({"teamName": team, "score": mean_cost(truth, pred), "pipeline": pipeline})

    # 1. Trivial.
    for k, c in enumerate(CLASSES):
        add(f"all-{c}", f"{c} for every job", np.full(n_test, k))
    freq = np.bincount(y, minlength=4) / n
    for s in range(2):
        add(f"random-uniform-{s}", f"a seeded uniform random class (seed {s})", np.random.default_rng(s).integers(0, 4, n_test))
        add(f"random-prior-{s}", f"a seeded random class drawn with the training frequencies (seed {s})",
            np.random.default_rng(10 + s).choice(4, n_test, p=freq))
    add("cheapest-constant", "the class with the lowest expected cost under the training frequencies", np.full(n_test, int(min_cost(freq[None, :])[0])))
    by = train.groupby("protocol")[TARGET].agg(lambda s: s.value_counts().index[0])
    add("protocol-majority", "the most common class of the job's protocol in train",
        test.protocol.map(by).fillna("VF").map(index).to_numpy())
    table = pd.crosstab(train.protocol, train[TARGET]).reindex(columns=CLASSES, fill_value=0)
    cheapest = pd.Series(min_cost((table.to_numpy() / table.to_numpy().sum(axis=1, keepdims=True))), index=table.index)
    add("protocol-cheapest", "the class with the lowest expected cost under the class frequencies of the job's protocol",
        test.protocol.map(cheapest).fillna(2).astype(int).to_numpy())
    for cut in [500, 1000, 2000]:
        add(f"compounds-over-{cut}", f"M when the job has more than {cut} compounds, else VF",
            np.where(test.compounds > cut, 2, 0))
    add("compounds-bands", "VF below 200 compounds, F to 500, M to 2000, L above",
        np.digitize(test.compounds, [200, 500, 2000]))

    # 2 and 3. Standard pipelines over feature sets, decision rules and budgets.
    for budget in [0.1, 0.25, 0.5, 1.0]:
        pct = int(round(budget * 100))
        sub = train.groupby(TARGET, group_keys=False).apply(lambda g: g.sample(frac=budget, random_state=7)) if budget < 1 else train
        ys = sub[TARGET].map(index).to_numpy()
        for kind in ["basic", "numeric", "onehot"]:
            x_train, x_test = raw_features(sub, kind, sub), raw_features(test, kind, sub)
            for name, factory in standard_models():
                if budget < 0.35 and name.startswith(("forest-n200", "extra", "hist", "logreg-C0.01", "mlp", "knn-k50", "lda", "adaboost")):
                    continue
                model = factory().fit(x_train, ys)
                p = np.zeros((n_test, 4))
                p[:, model.classes_] = model.predict_proba(x_test)
                add(f"{name}/{kind}/argmax/{pct}pct", f"{name} on {kind} features, most probable class, {pct}% of train", p.argmax(axis=1))
                if budget >= 0.5 or kind != "basic":
                    add(f"{name}/{kind}/min-cost/{pct}pct", f"{name} on {kind} features, lowest expected cost, {pct}% of train", min_cost(p))
    print(f"standard done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 4. Strong pipelines on the engineered features.
    full = pd.concat([train.drop(columns=TARGET), test], ignore_index=True)
    base, onehot = engineered_base(full)
    B = base.to_numpy(dtype=float)
    H = onehot.to_numpy(dtype=float)
    all_train, test_rows = np.arange(n), np.arange(n, n + n_test)
    folds = list(StratifiedKFold(FOLDS, shuffle=True, random_state=42).split(all_train, y))

    def encoded(fit_rows, apply_rows, inner_seed):
        """Base rows plus protocol encodings fitted on fit_rows (out-of-fold when the rows coincide)."""
        if np.array_equal(fit_rows, apply_rows):
            enc = np.zeros((len(fit_rows), 5))
            for a, b in StratifiedKFold(FOLDS, shuffle=True, random_state=inner_seed).split(fit_rows, y[fit_rows]):
                enc[b] = protocol_encodings(full, y, fit_rows[a], fit_rows[b])
        else:
            enc = protocol_encodings(full, y, fit_rows, apply_rows)
        return np.column_stack([B[apply_rows], enc])

    dense = [(encoded(a, a, k), encoded(a, b, k), encoded(a, test_rows, k)) for k, (a, b) in enumerate(folds)]
    dense_full = (encoded(all_train, all_train, 99), encoded(all_train, test_rows, 99))
    L = np.column_stack([B, H])
    linear = [(L[a], L[b], L[test_rows]) for a, b in folds]
    linear_full = (L[:n], L[test_rows])
    library = {}

    def proba(model, X):
        p = np.zeros((len(X), 4))
        p[:, model.classes_] = model.predict_proba(X)
        return p

    def cv_run(make, data, whole, weights=None, refit=True):
        """Out-of-fold and fold-averaged test probabilities (and a refit's), optionally class-weighted."""
        oof, fold_avg = np.zeros((n, 4)), np.zeros((n_test, 4))
        for (a, b), (Xa, Xb, Xt) in zip(folds, data):
            m = make().fit(Xa, y[a]) if weights is None else fit_weighted(make(), Xa, y[a], weights[y[a]])
            oof[b] = proba(m, Xb)
            fold_avg += proba(m, Xt) / FOLDS
        full_pred = None
        if refit:
            m = make().fit(whole[0], y) if weights is None else fit_weighted(make(), whole[0], y, weights[y])
            full_pred = proba(m, whole[1])
        return oof, fold_avg, full_pred

    def enter(team, pipeline, oof, pred, keep=True, rules=("argmax", "min-cost", "tuned")):
        """One entry per decision rule; the tuned rule's weights come from the out-of-fold probabilities."""
        if "argmax" in rules:
            add(f"{team}/argmax", f"{pipeline}, most probable class (CV cost {mean_cost(y, oof.argmax(axis=1)):.4f})", pred.argmax(axis=1))
        if "min-cost" in rules:
            add(f"{team}/min-cost", f"{pipeline}, lowest expected cost (CV cost {mean_cost(y, min_cost(oof)):.4f})", min_cost(pred))
        if "tuned" in rules:
            w = tune_weights(y, oof)
            add(f"{team}/tuned", f"{pipeline}, lowest expected cost after CV-tuned class weights {np.round(w, 2).tolist()} "
                f"(CV cost {mean_cost(y, min_cost(oof, w)):.4f})", min_cost(pred, w))
        if keep:
            library[team] = (oof, pred)

    strong = [
        ("forest-leaf3", lambda: RandomForestClassifier(n_estimators=100, min_samples_leaf=3, max_features=0.5, random_state=0, n_jobs=1), None),
        ("forest-leaf3-book-weights", lambda: RandomForestClassifier(n_estimators=100, min_samples_leaf=3, max_features=0.5, random_state=0,
                                                                     n_jobs=1), BOOK_WEIGHTS),
        ("extra-trees-leaf2", lambda: ExtraTreesClassifier(n_estimators=100, min_samples_leaf=2, max_features=0.7, random_state=0, n_jobs=1), None),
        ("hist-gbm-lr0.08", lambda: HistGradientBoostingClassifier(learning_rate=0.08, max_iter=150, max_leaf_nodes=15, min_samples_leaf=20,
                                                                   l2_regularization=1.0, random_state=0), None),
        ("hist-gbm-lr0.08-book-weights", lambda: HistGradientBoostingClassifier(learning_rate=0.08, max_iter=150, max_leaf_nodes=15,
                                                                                min_samples_leaf=20, l2_regularization=1.0, random_state=0), BOOK_WEIGHTS),
        ("gbm-d3", lambda: GradientBoostingClassifier(learning_rate=0.1, max_depth=3, n_estimators=100, subsample=0.8, random_state=0), None),
    ]
    for name, make, weights in strong:
        oof, fold_avg, refit = cv_run(make, dense, dense_full, weights)
        enter(f"{name}/engineered", f"{name} on engineered features, {FOLDS} fold models averaged", oof, fold_avg)
        enter(f"{name}/engineered/refit", f"{name} on engineered features, refit on all of train", oof, refit, keep=False, rules=("min-cost", "tuned"))
    for knots in [5, 8]:
        for c in [0.3, 3.0]:
            make = lambda c=c, knots=knots: make_pipeline(SplineTransformer(n_knots=knots), StandardScaler(),  # noqa: E731
                                                          LogisticRegression(C=c, max_iter=5000))
            oof, fold_avg, refit = cv_run(make, linear, linear_full)
            enter(f"logreg-C{c}/splines{knots}", f"logistic regression (C={c}) on {knots}-knot splines of the engineered features "
                  "and one-hot protocol, refit", oof, refit)
    oof, fold_avg, refit = cv_run(lambda: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=25, weights="distance")), linear, linear_full)
    enter("knn-k25/engineered", "distance-weighted 25-nearest-neighbours on the standardised engineered features, refit", oof, refit)
    mlp_oof, mlp_pred = [], []
    for s in range(3):
        make = lambda s=s: make_pipeline(StandardScaler(), MLPClassifier((64, 32), alpha=1.0, learning_rate_init=0.003, max_iter=500,  # noqa: E731
                                                                         early_stopping=True, random_state=s))
        oof, fold_avg, _ = cv_run(make, linear, linear_full, refit=False)
        mlp_oof.append(oof)
        mlp_pred.append(fold_avg)
        enter(f"mlp-64x32/seed{s}", f"MLP (64, 32) on the engineered features, fold models averaged, seed {s}", oof, fold_avg, keep=False,
              rules=("min-cost",))
    enter("mlp-64x32/bag3", "MLP (64, 32) bagged over 3 seeds x 5 folds", np.mean(mlp_oof, axis=0), np.mean(mlp_pred, axis=0))
    print(f"strong models done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # xgboost by random search on 5-fold CV with early stopping on the multi-class log loss.
    rng = np.random.default_rng(4331)
    draws = []
    for i in range(XGB_DRAWS):
        params = dict(learning_rate=float(np.exp(rng.uniform(np.log(0.05), np.log(0.3)))), max_depth=int(rng.integers(2, 7)),
                      min_child_weight=float(rng.choice([1, 3, 5, 10])), subsample=float(rng.uniform(0.5, 1.0)),
                      colsample_bytree=float(rng.uniform(0.4, 1.0)), reg_lambda=float(np.exp(rng.uniform(np.log(0.3), np.log(30)))),
                      reg_alpha=float(rng.choice([0, 0.1, 1.0])))
        oof, fold_avg, best = np.zeros((n, 4)), np.zeros((n_test, 4)), []
        for (a, b), (Xa, Xb, Xt) in zip(folds, dense):
            m = xgb.XGBClassifier(n_estimators=500, n_jobs=1, tree_method="hist", objective="multi:softprob", early_stopping_rounds=25,
                                  eval_metric="mlogloss", random_state=0, **params)
            m.fit(Xa, y[a], eval_set=[(Xb, y[b])], verbose=False)
            it = (0, m.best_iteration + 1)
            best.append(m.best_iteration + 1)
            oof[b] = m.predict_proba(Xb, iteration_range=it)
            fold_avg += m.predict_proba(Xt, iteration_range=it) / FOLDS
        rounds = max(10, int(np.mean(best) * 1.1))
        desc = ", ".join(f"{k}={v:.3g}" for k, v in params.items())
        enter(f"xgb-search/draw{i:02d}", f"xgboost random-search draw {i} ({desc}; ~{int(np.mean(best))} rounds), fold models averaged",
              oof, fold_avg, keep=False, rules=("min-cost", "tuned"))
        draws.append((mean_cost(y, min_cost(oof, tune_weights(y, oof))), i, params, rounds, oof, fold_avg))
    draws.sort(key=lambda d: d[0])
    for top in [3, 5, 10]:
        enter(f"xgb-search/top{top}-avg", f"probabilities of the {top} best xgboost draws by tuned CV cost averaged",
              np.mean([d[4] for d in draws[:top]], axis=0), np.mean([d[5] for d in draws[:top]], axis=0), rules=("min-cost", "tuned"))
    for rank in range(3):
        score, i, params, rounds, oof, fold_avg = draws[rank]
        library[f"xgb-cv-rank{rank + 1}"] = (oof, fold_avg)
        ps = [xgb.XGBClassifier(n_estimators=rounds, n_jobs=1, tree_method="hist", objective="multi:softprob", random_state=s, **params)
              .fit(dense_full[0], y).predict_proba(dense_full[1]) for s in range(1, 4)]
        enter(f"xgb-search/cv-rank{rank + 1}-refit-3seeds", f"xgboost draw {i} (CV rank {rank + 1}) refit on all of train ({rounds} rounds), "
              "3 seeds averaged", oof, np.mean(ps, axis=0), keep=False, rules=("min-cost", "tuned"))
    print(f"xgboost search done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Probability blends and stacking over the library, decided by the tuned rule.
    tuned_cost = {k: mean_cost(y, min_cost(v[0], tune_weights(y, v[0]))) for k, v in library.items()}
    ranked = sorted(library, key=lambda k: tuned_cost[k])
    for top in [2, 3, 4, 6, 10]:
        members = ranked[:top]
        enter(f"blend/top{top}-equal", "equal probability blend of " + ", ".join(members),
              np.mean([library[k][0] for k in members], axis=0), np.mean([library[k][1] for k in members], axis=0),
              keep=False, rules=("min-cost", "tuned"))
    for i in range(8):
        for j in range(i + 1, 8):
            members = [ranked[i], ranked[j]]
            enter(f"blend/pair-{ranked[i]}+{ranked[j]}", f"equal probability blend of {ranked[i]} and {ranked[j]}",
                  (library[ranked[i]][0] + library[ranked[j]][0]) / 2, (library[ranked[i]][1] + library[ranked[j]][1]) / 2,
                  keep=False, rules=("tuned",))
    for steps in [5, 10, 20]:
        chosen, total = [], np.zeros((n, 4))
        for _ in range(steps):
            j = min(range(len(ranked)), key=lambda j: mean_cost(y, min_cost((total + library[ranked[j]][0]) / (len(chosen) + 1))))
            chosen.append(j)
            total += library[ranked[j]][0]
        enter(f"blend/greedy-{steps}", f"greedy forward probability blend ({steps} steps, with replacement) on the out-of-fold expected cost: "
              + ", ".join(sorted({ranked[j] for j in chosen})), total / steps,
              np.mean([library[ranked[j]][1] for j in chosen], axis=0), keep=False, rules=("min-cost", "tuned"))
    logs = lambda k, part: np.log(np.clip(library[k][part], 1e-6, 1))  # noqa: E731
    O = np.column_stack([logs(k, 0) for k in ranked])
    T = np.column_stack([logs(k, 1) for k in ranked])
    for c in [0.03, 0.3]:
        meta_oof = np.zeros((n, 4))
        for a, b in folds:
            meta_oof[b] = proba(LogisticRegression(C=c, max_iter=5000).fit(O[a], y[a]), O[b])
        meta = LogisticRegression(C=c, max_iter=5000).fit(O, y)
        enter(f"stack-logreg-C{c}", f"stacking: logistic regression (C={c}) on the out-of-fold log probabilities of {len(ranked)} models",
              meta_oof, proba(meta, T), keep=False, rules=("min-cost", "tuned"))

    baseline = mean_cost(truth, sample.set_index(ID).loc[test[ID], TARGET].map(index).to_numpy())
    write_board(rows, OUT, lower_is_better=True, note=f" (sample submission {baseline:.5f}) in {time.process_time() - started:.0f} CPU-s")


def fit_weighted(model, X, y, w):
    """Fit with per-row weights, passed to the final step of a pipeline."""
    if hasattr(model, "steps"):
        return model.fit(X, y, **{f"{model.steps[-1][0]}__sample_weight": w})
    return model.fit(X, y, sample_weight=w)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
