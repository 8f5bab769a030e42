#!/usr/bin/python3
"""Reference leaderboard for the offline `satellite-landcover` competition.

Trains a documented population of classifiers on the public train split (4,505 windows of 3 x 3
pixels in 4 bands), scores each by multi-class log loss on the private answers (1,930 windows),
and writes leaderboard.csv beside this script (lowest first). The scores form a *reference
population* of pipelines, not a leaderboard of human teams. Nothing but the final scoring reads
the answers: every hyper-parameter, round count, temperature, blend weight and stacking model of
the strong entries is chosen by 5-fold stratified cross-validation on train.

Entries submit their probabilities as the models give them, floored at 1e-6 and renormalised
(a pure tree's 0/1 probabilities are what log loss punishes hardest); the score is the grader's
formula (clipped at float64 eps).

The population (about 510 entries), bottom to top:

1. Trivial: uniform probabilities, the training class shares, seeded random probabilities,
   and the class shares within bins of one band of the central pixel (each of the 4, in 4, 8
   or 16 quantile bins) or of a pair of them.
2. Standard pipelines, every combination of
   - feature sets "centre" (the central pixel's 4 bands), "all" (the 36 values), "window
     means" (each band's mean over the window) and "centre+means";
   - models with default or near-default settings: Gaussian naive Bayes, linear and quadratic
     discriminant analysis, logistic regression (C 0.01 ... 10), decision trees (depth 3, 6,
     unlimited), k-nearest neighbours (k 5, 25), random forests and extra trees (100 trees),
     a small histogram gradient boosting, a scikit-learn MLP;
   - budgets: a stratified 5%, 10%, 25%, 50%, 75% or 100% of train.
3. Strong pipelines on hand-made features ("engineered"): the 36 values, each band's mean,
   spread, minimum and maximum over the window, the central pixel minus the window mean,
   vegetation and wetness indices (normalised differences of infra-red and red, of the two
   infra-red bands) at the centre and over the window, and brightness; on them:
   - k-nearest neighbours (k 5 ... 40, distance-weighted, on standardised features), whose
     probabilities are tempered on the out-of-fold loss;
   - RBF SVMs over a grid of C with Platt probabilities;
   - random forests and extra trees (500 trees, several leaf sizes and feature shares);
   - logistic regression on splines of the engineered features;
   - xgboost tuned by random search (20 draws) with early stopping on each fold, each draw its
     fold models averaged, the best draws averaged;
   - MLPs over 5 seeds and their bag;
   - blends of every pair of the twelve best models by CV log loss (weight chosen on the
     out-of-fold probabilities), greedy forward selection, and a logistic-regression stack on
     the out-of-fold log-probabilities, each with a temperature fitted on the out-of-fold loss.

Runtime: about 15 CPU-minutes, single-threaded (OMP/BLAS threads pinned to 1); everything is
seeded, so a rerun writes the same file.

Usage (Debian's interpreter, which has scikit-learn and xgboost):
    node dist/cli/main.js prepare -c satellite-landcover --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/satellite-landcover/leaderboard.py /tmp/lb-data
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import itertools  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import xgboost as xgb  # noqa: E402
from scipy.optimize import minimize_scalar  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis  # noqa: E402
from sklearn.ensemble import ExtraTreesClassifier, HistGradientBoostingClassifier, RandomForestClassifier  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import SplineTransformer, StandardScaler  # noqa: E402
from sklearn.svm import SVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import log_loss, normalise, write_board  # noqa: E402

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
CLASSES = ["red_soil", "cotton_crop", "grey_soil", "damp_grey_soil", "vegetation_stubble", "very_damp_grey_soil"]
FLOOR = 1e-6
FOLDS = 5
XGB_DRAWS = 20
BAND = [[f"p{p}_b{b}" for p in range(1, 10)] for b in range(1, 5)]


def feature_sets(df):
    """The standard grid's feature sets, as float matrices."""
    centre = df[[f"p5_b{b}" for b in range(1, 5)]].to_numpy(dtype=float)
    means = np.column_stack([df[cols].mean(axis=1) for cols in BAND])
    return {"centre": centre, "all": df[[c for cols in BAND for c in cols]].to_numpy(dtype=float), "window-means": means,
            "centre+means": np.hstack([centre, means])}


def engineered(df):
    """Label-free hand-made features of a window."""
    X = df[[f"p{p}_b{b}" for p in range(1, 10) for b in range(1, 5)]].astype(float).copy()
    for b, cols in enumerate(BAND, start=1):
        v = df[cols].to_numpy(dtype=float)
        X[f"mean_b{b}"] = v.mean(axis=1)
        X[f"std_b{b}"] = v.std(axis=1)
        X[f"min_b{b}"] = v.min(axis=1)
        X[f"max_b{b}"] = v.max(axis=1)
        X[f"centre_minus_mean_b{b}"] = df[f"p5_b{b}"] - v.mean(axis=1)
    for where, get in [("centre", lambda b: df[f"p5_b{b}"].astype(float)), ("mean", lambda b: X[f"mean_b{b}"])]:
        X[f"vegetation_{where}"] = (get(4) - get(2)) / (get(4) + get(2) + 1.0)
        X[f"wetness_{where}"] = (get(3) - get(4)) / (get(3) + get(4) + 1.0)
        X[f"visible_ratio_{where}"] = (get(1) - get(2)) / (get(1) + get(2) + 1.0)
    X["brightness"] = sum(X[f"mean_b{b}"] for b in range(1, 5))
    X["centre_brightness"] = sum(df[f"p5_b{b}"].astype(float) for b in range(1, 5))
    return X.to_numpy(dtype=float)


def standard_models():
    """(name, factory) for every standard model."""
    yield "naive-bayes", GaussianNB
    yield "lda", LinearDiscriminantAnalysis
    yield "qda", lambda: QuadraticDiscriminantAnalysis(reg_param=0.01)
    for c in [0.01, 0.1, 1.0, 10.0]:
        yield f"logreg-C{c}", lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=2000))
    for depth in [3, 6, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeClassifier(max_depth=d, random_state=0)
    for k in [5, 25]:
        yield f"knn-k{k}", lambda k=k: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=k))
    yield "forest-n100", lambda: RandomForestClassifier(n_estimators=100, random_state=0, n_jobs=1)
    yield "extra-trees-n100", lambda: ExtraTreesClassifier(n_estimators=100, random_state=0, n_jobs=1)
    yield "hist-gbm-small", lambda: HistGradientBoostingClassifier(max_iter=50, random_state=0)
    yield "mlp-default", lambda: make_pipeline(StandardScaler(), MLPClassifier(max_iter=300, random_state=0))


def stratified_sample(y, share, seed):
    """A stratified share of the row indices, sorted."""
    rng = np.random.default_rng(seed)
    keep = []
    for k in range(len(CLASSES)):
        rows = np.flatnonzero(y == k)
        keep.extend(rng.permutation(rows)[:max(2, int(round(share * len(rows))))])
    return np.sort(np.array(keep))


def full_proba(model, X):
    """Probabilities for all six classes, even where a small sample lacked some."""
    p = np.zeros((len(X), len(CLASSES)))
    p[:, model.classes_] = model.predict_proba(X)
    return p


def temper(p, t):
    """Probabilities raised to 1/t and renormalised (t > 1 softens, t < 1 sharpens)."""
    q = np.power(np.clip(p, FLOOR, 1.0), 1.0 / t)
    return q / q.sum(axis=1, keepdims=True)


def main(data_dir):
    started = time.process_time()
    prepared = os.path.join(data_dir, "satellite-landcover", "prepared")
    train = pd.read_csv(os.path.join(prepared, "public", "train.csv"))
    test = pd.read_csv(os.path.join(prepared, "public", "test.csv"))
    answers = pd.read_csv(os.path.join(prepared, "private", "test.csv"))
    truth = test[["id"]].merge(answers, on="id", how="left")[CLASSES].to_numpy(dtype=float)
    assert np.allclose(truth.sum(axis=1), 1), "answers do not cover every test id"
    y = train["class"].map({c: k for k, c in enumerate(CLASSES)}).to_numpy()
    assert not np.isnan(y.astype(float)).any()
    onehot = np.eye(len(CLASSES))[y]
    n, n_test = len(train), len(test)
    rows = []

    def add(team, pipeline, p):
        p = normalise(np.asarray(p, dtype=float), FLOOR)
        assert p.shape == truth.shape and np.isfinite(p).all(), team
        rows.append({"teamName": team, "score": log_loss(truth, p), "pipeline": pipeline})

    # 1. Trivial.
    shares = onehot.mean(axis=0)
    add("uniform", "1/6 for every class", np.full((n_test, len(CLASSES)), 1 / len(CLASSES)))
    add("class-shares", "the training class shares for every window", np.tile(shares, (n_test, 1)))
    for s in range(3):
        add(f"random-{s}", f"seeded random probabilities (seed {s})", np.random.default_rng(s).dirichlet(np.ones(len(CLASSES)), n_test))

    def binned_shares(cols, bins):
        """Class shares within quantile bins of the given central-pixel bands (smoothed by the overall shares)."""
        key_train, key_test = np.zeros(n, dtype=int), np.zeros(n_test, dtype=int)
        for c in cols:
            edges = np.unique(np.quantile(train[c], np.linspace(0, 1, bins + 1)[1:-1]))
            key_train = key_train * (bins + 1) + np.searchsorted(edges, train[c].to_numpy(), side="right")
            key_test = key_test * (bins + 1) + np.searchsorted(edges, test[c].to_numpy(), side="right")
        counts = pd.DataFrame(onehot).groupby(key_train).size()
        sums = pd.DataFrame(onehot).groupby(key_train).sum()
        rates = (sums + 2 * shares).div(counts + 2, axis=0)
        return rates.reindex(key_test).fillna(pd.Series(shares)).to_numpy()

    centre = [f"p5_b{b}" for b in range(1, 5)]
    for c in centre:
        for bins in [4, 8, 16]:
            add(f"bins-{c}-{bins}", f"class shares within {bins} quantile bins of {c}", binned_shares([c], bins))
    for a, b in itertools.combinations(centre, 2):
        add(f"bins-{a}x{b}-4", f"class shares within 4 x 4 quantile bins of {a} and {b}", binned_shares([a, b], 4))

    # 2. Standard pipelines.
    sets_train, sets_test = feature_sets(train), feature_sets(test)
    for budget in [0.05, 0.1, 0.25, 0.5, 0.75, 1.0]:
        keep = stratified_sample(y, budget, 7) if budget < 1 else np.arange(n)
        pct = int(round(budget * 100))
        for kind in sets_train:
            for name, factory in standard_models():
                if budget < 0.2 and name in ("mlp-default", "qda", "knn-k25"):
                    continue
                model = factory().fit(sets_train[kind][keep], y[keep])
                add(f"{name}/{kind}/{pct}pct", f"{name} on {kind} features, {pct}% of train", full_proba(model, sets_test[kind]))
        print(f"standard {pct}% done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", file=sys.stderr, flush=True)

    # 3. Strong pipelines on engineered features, 5-fold CV.
    E, Et = engineered(train), engineered(test)
    folds = list(StratifiedKFold(FOLDS, shuffle=True, random_state=1993).split(E, y))
    library = {}

    def cv_run(make, X=E, Xt=Et, refit=True):
        """Out-of-fold probabilities, fold-averaged test probabilities, and (optionally) a refit on all of train."""
        oof, fold_avg = np.zeros((n, len(CLASSES))), np.zeros((n_test, len(CLASSES)))
        for a, b in folds:
            m = make().fit(X[a], y[a])
            oof[b] = full_proba(m, X[b])
            fold_avg += full_proba(m, Xt) / FOLDS
        return oof, fold_avg, full_proba(make().fit(X, y), Xt) if refit else None

    def best_temperature(oof):
        return minimize_scalar(lambda t: log_loss(onehot, temper(oof, t)), bounds=(0.3, 5.0), method="bounded").x

    def enter(team, pipeline, oof, pred, keep=True):
        add(team, f"{pipeline} (CV log loss {log_loss(onehot, normalise(oof, FLOOR)):.4f})", pred)
        if keep:
            library[team] = (normalise(oof, FLOOR), normalise(pred, FLOOR))

    for k in [5, 10, 20, 40]:
        make = lambda k=k: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=k, weights="distance"))  # noqa: E731
        oof, fold_avg, refit = cv_run(make)
        enter(f"knn-k{k}-distance/engineered", f"distance-weighted {k}-nearest neighbours on standardised engineered features, refit", oof, refit)
        t = best_temperature(oof)
        enter(f"knn-k{k}-distance/engineered/tempered", f"distance-weighted {k}-nearest neighbours, temperature {t:.2f} fitted out of fold",
              temper(oof, t), temper(refit, t))
    for c in [1.0, 3.0, 10.0, 30.0]:
        make = lambda c=c: make_pipeline(StandardScaler(), SVC(C=c, gamma="scale", probability=True, random_state=0))  # noqa: E731
        oof, fold_avg, refit = cv_run(make)
        enter(f"svm-rbf-C{c}/engineered", f"RBF SVM (C={c}, Platt probabilities) on standardised engineered features, refit", oof, refit)
        add(f"svm-rbf-C{c}/engineered/fold-avg", f"RBF SVM (C={c}), fold models averaged", fold_avg)
    print(f"knn and svm done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", file=sys.stderr, flush=True)
    for leaf, share in [(1, "sqrt"), (2, 0.3), (5, 0.5)]:
        for name, cls in [("forest", RandomForestClassifier), ("extra-trees", ExtraTreesClassifier)]:
            make = lambda cls=cls, leaf=leaf, share=share: cls(n_estimators=500, min_samples_leaf=leaf, max_features=share, random_state=0, n_jobs=1)  # noqa: E731
            oof, fold_avg, _ = cv_run(make, refit=False)
            enter(f"{name}-n500-leaf{leaf}-f{share}/engineered", f"{name} (500 trees, leaf {leaf}, max features {share}), fold models averaged", oof, fold_avg)
            t = best_temperature(oof)
            add(f"{name}-n500-leaf{leaf}-f{share}/engineered/tempered", f"{name} (500 trees, leaf {leaf}), temperature {t:.2f} fitted out of fold",
                temper(fold_avg, t))
    for c in [0.1, 1.0, 10.0]:
        make = lambda c=c: make_pipeline(StandardScaler(), SplineTransformer(n_knots=5), LogisticRegression(C=c, max_iter=3000))  # noqa: E731
        oof, fold_avg, refit = cv_run(make)
        enter(f"logreg-splines-C{c}/engineered", f"logistic regression (C={c}) on 5-knot splines of the engineered features, refit", oof, refit)
    mlp_oof, mlp_pred = [], []
    for s in range(5):
        make = lambda s=s: make_pipeline(StandardScaler(), MLPClassifier((128, 64), alpha=1e-3, max_iter=400, early_stopping=True, random_state=s))  # noqa: E731
        oof, fold_avg, _ = cv_run(make, refit=False)
        mlp_oof.append(oof)
        mlp_pred.append(fold_avg)
        enter(f"mlp-128x64/engineered/seed{s}", f"MLP (128, 64) on standardised engineered features, fold models averaged, seed {s}", oof, fold_avg, keep=False)
    enter("mlp-128x64/bag5", "MLP (128, 64) bagged over 5 seeds x 5 folds", np.mean(mlp_oof, axis=0), np.mean(mlp_pred, axis=0))
    print(f"trees, splines and mlps done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", file=sys.stderr, flush=True)

    rng = np.random.default_rng(6435)
    draws = []
    for i in range(XGB_DRAWS):
        params = dict(learning_rate=float(np.exp(rng.uniform(np.log(0.03), np.log(0.2)))), max_depth=int(rng.integers(3, 9)),
                      min_child_weight=float(rng.choice([1, 2, 5])), subsample=float(rng.uniform(0.6, 1.0)),
                      colsample_bytree=float(rng.uniform(0.3, 1.0)), reg_lambda=float(np.exp(rng.uniform(np.log(0.3), np.log(10)))),
                      reg_alpha=float(rng.choice([0, 0.1, 1.0])))
        oof, fold_avg, best = np.zeros((n, len(CLASSES))), np.zeros((n_test, len(CLASSES))), []
        for a, b in folds:
            m = xgb.XGBClassifier(n_estimators=1500, n_jobs=1, tree_method="hist", early_stopping_rounds=40, eval_metric="mlogloss",
                                  random_state=0, **params)
            m.fit(E[a], y[a], eval_set=[(E[b], y[b])], verbose=False)
            it = (0, m.best_iteration + 1)
            best.append(m.best_iteration + 1)
            oof[b] = m.predict_proba(E[b], iteration_range=it)
            fold_avg += m.predict_proba(Et, iteration_range=it) / FOLDS
        desc = ", ".join(f"{k}={v:.3g}" for k, v in params.items())
        enter(f"xgb-search/draw{i:02d}", f"xgboost random-search draw {i} ({desc}; ~{int(np.mean(best))} rounds), fold models averaged",
              oof, fold_avg, keep=False)
        draws.append((log_loss(onehot, normalise(oof, FLOOR)), i, oof, fold_avg))
    draws.sort(key=lambda d: d[0])
    for top in [3, 5, 10]:
        enter(f"xgb-search/top{top}-avg", f"average of the {top} best xgboost draws by CV log loss",
              np.mean([d[2] for d in draws[:top]], axis=0), np.mean([d[3] for d in draws[:top]], axis=0))
    library["xgb-cv-rank1"] = (normalise(draws[0][2], FLOOR), normalise(draws[0][3], FLOOR))
    print(f"xgboost search done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", file=sys.stderr, flush=True)

    # Blends and stacking over the library.
    ranked = sorted(library, key=lambda k: log_loss(onehot, library[k][0]))
    for i in range(12):
        for j in range(i + 1, 12):
            (oi, ti), (oj, tj) = library[ranked[i]], library[ranked[j]]
            w = min(np.linspace(0, 1, 21), key=lambda w: log_loss(onehot, w * oi + (1 - w) * oj))
            t = best_temperature(w * oi + (1 - w) * oj)
            add(f"blend/pair-{ranked[i]}+{ranked[j]}", f"{ranked[i]} ({w:.2f}) blended with {ranked[j]} ({1 - w:.2f}), temperature {t:.2f}",
                temper(w * ti + (1 - w) * tj, t))
    O = [library[k][0] for k in ranked]
    T = [library[k][1] for k in ranked]
    for steps in [5, 10, 20]:
        chosen, total = [], np.zeros((n, len(CLASSES)))
        for _ in range(steps):
            j = min(range(len(ranked)), key=lambda j: log_loss(onehot, (total + O[j]) / (len(chosen) + 1)))
            chosen.append(j)
            total += O[j]
        blend_oof, blend_test = total / steps, np.mean([T[j] for j in chosen], axis=0)
        t = best_temperature(blend_oof)
        add(f"blend/greedy-{steps}", f"greedy forward blend ({steps} steps, with replacement) on the out-of-fold log loss, temperature {t:.2f}: "
            + ", ".join(sorted({ranked[j] for j in chosen})), temper(blend_test, t))
    S = np.hstack([np.log(o) for o in O])
    St = np.hstack([np.log(t) for t in T])
    for c in [0.01, 0.1]:
        inner = np.zeros((n, len(CLASSES)))
        for a, b in folds:
            inner[b] = LogisticRegression(C=c, max_iter=3000).fit(S[a], y[a]).predict_proba(S[b])
        stack = LogisticRegression(C=c, max_iter=3000).fit(S, y).predict_proba(St)
        t = best_temperature(inner)
        add(f"stack-logreg-C{c}", f"stacking: logistic regression (C={c}) on the out-of-fold log-probabilities of {len(ranked)} models, "
            f"temperature {t:.2f} (CV log loss {log_loss(onehot, temper(inner, t)):.4f})", temper(stack, t))

    assert len({r["teamName"] for r in rows}) == len(rows), "team names must be unique"
    write_board(rows, OUT, lower_is_better=True, note=f" in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
