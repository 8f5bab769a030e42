#!/usr/bin/python3
"""Reference leaderboard for the offline `caravan-insurance` competition.

Trains a documented population of rankers on the public train split (the challenge's 5,822
training customers), scores each by the recall of the 800 highest-scored test customers (20%
of 4,000) on the private answers, and writes leaderboard.csv beside this script (best first).
The scores form a *reference population* of pipelines, not a leaderboard of human teams.
Nothing but the final scoring reads the answers: every hyper-parameter, round count and blend
is chosen by 5-fold stratified cross-validation on train, by out-of-fold ROC AUC (steadier
than the recall of the top fifth, which turns on a few dozen owners; both are printed in
each strong entry's pipeline text).

The population (about 560 entries), bottom to top:

1. Trivial: a constant (every customer tied: 0.2), seeded random scores, each of the 85
   columns alone as a score (bands read in their order, the sign taken from the training
   AUC), and the training owner rate of the customer's segment, main type, car-policy band
   and of segment x car-policy band.
2. Standard pipelines, every combination of
   - feature sets "products" (the 42 product columns, bands as ranks), "ordinal" (all 85,
     bands as ranks, segments as integer codes) and "onehot" (all 85, every label its own 0/1
     column);
   - models: logistic regression (C 0.001 ... 10), decision trees (depth 2 ... unlimited),
     random forests, extra trees, gradient boosting, histogram gradient boosting, AdaBoost,
     k-nearest neighbours, Gaussian naive Bayes, linear discriminant analysis, a default MLP;
   - budgets: a seeded 10%, 25%, 50% or 100% of train.
3. Strong pipelines on hand-made features ("engineered"), what the challenge's best entries
   found mattered: the car-policy contribution band and count, fire, boat and private
   third-party policies, the total number of policies and of contribution bands, purchasing
   power and income of the area, car x fire and car x purchasing-power interactions, and the
   owner rate of the customer's segment (smoothed, fitted inside each fold); on them:
   - logistic regression (L2 over a grid of C, and L1), refit on all of train and as the mean
     of the fold models;
   - histogram and classic gradient boosting, random forests and extra trees with large
     leaves, fold models averaged and refit;
   - MLPs over 5 seeds and their bag;
   - xgboost tuned by random search (40 draws of learning rate, depth 1-4, child weight,
     subsampling, column sampling, L1/L2, gamma) with early stopping on each fold; every draw
     is two entries (fold models averaged; a refit with the mean best round count), the top
     draws averaged and seed-averaged;
   - rank-average blends (every pair of the twelve best models by out-of-fold AUC, the top 2-8
     equally, greedy forward selection) and stacking (logistic regression on out-of-fold
     ranks).

Runtime: about 12 CPU-minutes, single-threaded (OMP/BLAS threads pinned to 1); everything is
seeded, so a rerun writes the same file.

Usage (Debian's interpreter, which has scikit-learn and xgboost):
    node dist/cli/main.js prepare -c caravan-insurance --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/caravan-insurance/leaderboard.py /tmp/lb-data
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import re  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import xgboost as xgb  # noqa: E402
from scipy.stats import rankdata  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.ensemble import (AdaBoostClassifier, ExtraTreesClassifier, GradientBoostingClassifier,  # noqa: E402
                              HistGradientBoostingClassifier, RandomForestClassifier)
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board  # noqa: E402

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
ID, TARGET = "id", "CARAVAN"
SHARE = 0.2
FOLDS = 5
XGB_DRAWS = 40
SEGMENTS = ["STYPE", "MOSHOOFD"]


def top_recall(y, score, share=SHARE):
    """Expected share of positives among the top `share` of scores, tied places shared at random."""
    y, score = np.asarray(y, dtype=float), np.asarray(score, dtype=float)
    k = int(round(len(y) * share))
    cut = np.sort(score)[::-1][k - 1]
    above, tied = score > cut, score == cut
    return float((y[above].sum() + (k - above.sum()) * y[tied].sum() / tied.sum()) / y.sum())


def band_rank(values):
    """Ranks of band labels in their natural order: by the first number in the label ('0%' < '1 - 10%' < ...)."""
    labels = sorted(set(values), key=lambda v: float(re.search(r"\d+", v).group()))
    return pd.Series(values).map({v: i for i, v in enumerate(labels)}).to_numpy(dtype=float)


def numeric_frame(df, columns):
    """Every column as a number: whole numbers as they are, bands as ranks, segments as integer codes."""
    out = pd.DataFrame(index=df.index)
    for c in columns:
        if c in SEGMENTS:
            out[c] = pd.Categorical(df[c], categories=sorted(df[c].unique())).codes.astype(float)
        elif df[c].dtype == object:
            out[c] = band_rank(df[c].to_numpy())
        else:
            out[c] = df[c].astype(float)
    return out


def onehot_frame(df, columns):
    """Every label of every text column its own 0/1 column; whole numbers kept."""
    parts = []
    for c in columns:
        if df[c].dtype == object:
            parts.append(pd.get_dummies(df[c], prefix=c, dtype=float))
        else:
            parts.append(df[[c]].astype(float))
    return pd.concat(parts, axis=1)


def engineered(num):
    """Label-free hand-made features on the ranked columns (segment rates are added per fold)."""
    X = pd.DataFrame(index=num.index)
    products = [c for c in num.columns if c.startswith("P") and c != "PPERSAUT"]
    counts = [c for c in num.columns if c.startswith("A") and c != "APERSAUT"]
    X["car_band"] = num.PPERSAUT
    X["car_count"] = num.APERSAUT
    X["car_high"] = (num.PPERSAUT >= 4).astype(float)
    X["fire_band"] = num.PBRAND
    X["boat"] = num.PPLEZIER + num.APLEZIER
    X["third_party"] = num.PWAPART
    X["life"] = num.PLEVEN
    X["moped"] = num.PBROM
    X["policies"] = num[counts].sum(axis=1) + num.APERSAUT
    X["contribution_bands"] = num[products].sum(axis=1) + num.PPERSAUT
    X["kinds"] = (num[counts] > 0).sum(axis=1)
    X["purchasing_power"] = num.MKOOPKLA
    X["income"] = num.MINKGEM
    X["high_income"] = num.MINK7512 + num.MINK123M
    X["low_income"] = num.MINKM30
    X["home_owners"] = num.MHKOOP
    X["cars1"] = num.MAUT1
    X["no_car"] = num.MAUT0
    X["social_a"] = num.MSKA
    X["low_education"] = num.MOPLLAAG
    X["married"] = num.MRELGE
    X["houses"] = num.MAANTHUI
    X["household"] = num.MGEMOMV
    X["age"] = num.MGEMLEEF
    X["car_x_fire"] = num.PPERSAUT * num.PBRAND
    X["car_x_power"] = num.PPERSAUT * num.MKOOPKLA
    X["car_high_x_third_party"] = X.car_high * (num.PWAPART > 0)
    X["main_type"] = num.MOSHOOFD
    return X


def segment_rates(segment, y, fit, rows, smoothing=20.0):
    """Owner rate of each segment on the `fit` rows, shrunk towards the overall rate, for `rows`."""
    prior = y[fit].mean()
    frame = pd.DataFrame({"s": segment[fit], "y": y[fit]}).groupby("s").y.agg(["sum", "count"])
    rate = (frame["sum"] + smoothing * prior) / (frame["count"] + smoothing)
    return pd.Series(segment[rows]).map(rate).fillna(prior).to_numpy(dtype=float)


def standard_models():
    """(name, factory) for every standard model."""
    for c in [0.001, 0.01, 0.1, 1.0, 10.0]:
        yield f"logreg-C{c}", lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=2000))
    for depth in [2, 3, 5, 8, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeClassifier(max_depth=d, random_state=0)
    for n, leaf in [(100, 1), (200, 10)]:
        yield f"forest-n{n}-leaf{leaf}", lambda n=n, leaf=leaf: RandomForestClassifier(n_estimators=n, min_samples_leaf=leaf, random_state=0, n_jobs=1)
    yield "extra-trees-n100", lambda: ExtraTreesClassifier(n_estimators=100, min_samples_leaf=5, random_state=0, n_jobs=1)
    for lr, depth in [(0.05, 2), (0.1, 3)]:
        yield f"gbm-lr{lr}-d{depth}", lambda lr=lr, d=depth: GradientBoostingClassifier(learning_rate=lr, max_depth=d, random_state=0)
    yield "hist-gbm", lambda: HistGradientBoostingClassifier(random_state=0)
    yield "adaboost", lambda: AdaBoostClassifier(random_state=0)
    for k in [5, 50, 200]:
        yield f"knn-k{k}", lambda k=k: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=k))
    yield "naive-bayes", GaussianNB
    yield "lda", LinearDiscriminantAnalysis
    yield "mlp-default", lambda: make_pipeline(StandardScaler(), MLPClassifier(max_iter=300, random_state=0))


def to_ranks(p):
    """Scores as ranks scaled to (0, 1], so models on different scales average fairly."""
    return rankdata(p) / len(p)


def main(data_dir):
    started = time.process_time()
    prepared = os.path.join(data_dir, "caravan-insurance", "prepared")
    train = pd.read_csv(os.path.join(prepared, "public", "train.csv"), keep_default_na=False)
    test = pd.read_csv(os.path.join(prepared, "public", "test.csv"), keep_default_na=False)
    answers = pd.read_csv(os.path.join(prepared, "private", "test.csv"))
    truth = test[[ID]].merge(answers, on=ID, how="left")[TARGET]
    assert truth.isin([0, 1]).all(), "answers do not cover every test id"
    truth = truth.to_numpy(dtype=float)
    y = train[TARGET].to_numpy(dtype=int)
    n, n_test = len(train), len(test)
    features = [c for c in test.columns if c != ID]
    rows = []

    def add(team, pipeline, score):
        score = np.asarray(score, dtype=float)
        assert score.shape == truth.shape and np.isfinite(score).all(), team
        rows.append({"teamName": team, "score": top_recall(truth, score), "pipeline": pipeline})

    full = pd.concat([train.drop(columns=TARGET), test], ignore_index=True)
    num_all = numeric_frame(full, features)
    hot_all = onehot_frame(full, features)

    # 1. Trivial.
    add("constant", "0.5 for every customer (all tied)", np.full(n_test, 0.5))
    for s in range(3):
        add(f"random-{s}", f"a seeded uniform random score (seed {s})", np.random.default_rng(s).random(n_test))
    for c in features:
        x = num_all[c].to_numpy()
        sign = 1.0 if roc_auc_score(y, x[:n]) >= 0.5 else -1.0
        add(f"one-column/{c}", f"the column {c} alone ({'higher' if sign > 0 else 'lower'} first, by its training AUC)", sign * x[n:])
    groups = {"segment": train.STYPE, "main-type": train.MOSHOOFD, "car-band": train.PPERSAUT,
              "segment-x-car-band": train.STYPE + "|" + train.PPERSAUT}
    tests = {"segment": test.STYPE, "main-type": test.MOSHOOFD, "car-band": test.PPERSAUT,
             "segment-x-car-band": test.STYPE + "|" + test.PPERSAUT}
    for name, key in groups.items():
        rate = pd.Series(y).groupby(key.to_numpy()).mean()
        add(f"{name}-rate", f"the training owner rate of the customer's {name.replace('-x-', ' x ').replace('-', ' ')}",
            tests[name].map(rate).fillna(y.mean()).to_numpy())

    # 2. Standard pipelines over feature sets and budgets.
    product_columns = [c for c in features if c[0] in "PA"]
    sets = {"products": num_all[product_columns].to_numpy(dtype=float), "ordinal": num_all.to_numpy(dtype=float),
            "onehot": hot_all.to_numpy(dtype=float)}
    order = np.random.default_rng(5822).permutation(n)
    for budget in [0.1, 0.25, 0.5, 1.0]:
        pct = int(round(budget * 100))
        keep = np.sort(order[:int(round(budget * n))])
        for kind, X in sets.items():
            for name, factory in standard_models():
                if kind == "onehot" and name in ("lda", "naive-bayes") and budget < 1:
                    continue
                model = factory().fit(X[:n][keep], y[keep])
                add(f"{name}/{kind}/{pct}pct", f"{name} on {kind} features, {pct}% of train", model.predict_proba(X[n:])[:, 1])
        print(f"standard {pct}% done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", file=sys.stderr, flush=True)

    # 3. Strong pipelines on engineered features with 5-fold CV.
    E = engineered(num_all)
    E_mat = E.to_numpy(dtype=float)
    segment = full.STYPE.to_numpy()
    folds = list(StratifiedKFold(FOLDS, shuffle=True, random_state=2000).split(np.zeros(n), y))
    test_rows = np.arange(n, n + n_test)
    library = {}

    def matrix(fit, rows_):
        """Engineered features plus the segment owner rate fitted on `fit`."""
        return np.column_stack([E_mat[rows_], segment_rates(segment, np.r_[y, np.zeros(n_test)], fit, rows_)])

    def cv_run(make, refit=True):
        """Out-of-fold scores, fold-averaged test ranks and (optionally) a refit on all of train."""
        oof, fold_avg = np.zeros(n), np.zeros(n_test)
        for a, b in folds:
            m = make().fit(matrix(a, a), y[a])
            oof[b] = m.predict_proba(matrix(a, b))[:, 1]
            fold_avg += to_ranks(m.predict_proba(matrix(a, test_rows))[:, 1]) / FOLDS
        all_rows = np.arange(n)
        full_pred = make().fit(matrix(all_rows, all_rows), y).predict_proba(matrix(all_rows, test_rows))[:, 1] if refit else None
        return oof, fold_avg, full_pred

    def cv_text(oof):
        """The entry's cross-validation figures, for its pipeline text."""
        return f"CV AUC {roc_auc_score(y, oof):.4f}, CV top-20% recall {top_recall(y, oof):.3f}"

    def enter(team, pipeline, oof, pred, keep=True):
        add(team, f"{pipeline} ({cv_text(oof)})", pred)
        if keep:
            library[team] = (oof, to_ranks(pred))

    for penalty, cs in [("l2", [0.003, 0.01, 0.03, 0.1, 1.0]), ("l1", [0.01, 0.03, 0.1])]:
        for c in cs:
            make = lambda c=c, p=penalty: make_pipeline(StandardScaler(), LogisticRegression(  # noqa: E731
                C=c, penalty=p, solver="liblinear" if p == "l1" else "lbfgs", max_iter=3000))
            oof, fold_avg, refit = cv_run(make)
            tag = f"logreg-{penalty}-C{c}/engineered"
            enter(tag, f"logistic regression ({penalty.upper()}, C={c}) on engineered features and the segment rate, refit", oof, refit)
            add(f"{tag}/fold-avg", f"logistic regression ({penalty.upper()}, C={c}) on engineered features, fold models averaged ({cv_text(oof)})",
                fold_avg)
    trees = [
        ("hist-gbm-lr0.03", lambda: HistGradientBoostingClassifier(learning_rate=0.03, max_iter=200, max_depth=3, min_samples_leaf=60,
                                                                   l2_regularization=3.0, random_state=0)),
        ("hist-gbm-lr0.05-leaf8", lambda: HistGradientBoostingClassifier(learning_rate=0.05, max_iter=100, max_leaf_nodes=8,
                                                                         min_samples_leaf=100, l2_regularization=1.0, random_state=0)),
        ("gbm-d2", lambda: GradientBoostingClassifier(learning_rate=0.03, max_depth=2, n_estimators=200, subsample=0.7, random_state=0)),
        ("gbm-d3", lambda: GradientBoostingClassifier(learning_rate=0.02, max_depth=3, n_estimators=200, subsample=0.7,
                                                      min_samples_leaf=40, random_state=0)),
        ("forest-leaf30", lambda: RandomForestClassifier(n_estimators=300, min_samples_leaf=30, max_features=0.3, random_state=0, n_jobs=1)),
        ("forest-leaf10", lambda: RandomForestClassifier(n_estimators=300, min_samples_leaf=10, max_features=0.3, random_state=0, n_jobs=1)),
        ("extra-trees-leaf20", lambda: ExtraTreesClassifier(n_estimators=300, min_samples_leaf=20, max_features=0.5, random_state=0, n_jobs=1)),
    ]
    for name, make in trees:
        oof, fold_avg, refit = cv_run(make)
        enter(f"{name}/engineered", f"{name} on engineered features and the segment rate, {FOLDS} fold models averaged", oof, fold_avg)
        add(f"{name}/engineered/refit", f"{name} on engineered features, refit on all of train ({cv_text(oof)})", refit)
    mlp_oof, mlp_pred = [], []
    for s in range(5):
        make = lambda s=s: make_pipeline(StandardScaler(), MLPClassifier(  # noqa: E731
            (16,), alpha=3.0, learning_rate_init=0.003, max_iter=300, early_stopping=True, random_state=s))
        oof, fold_avg, _ = cv_run(make, refit=False)
        mlp_oof.append(oof)
        mlp_pred.append(fold_avg)
        add(f"mlp-16/engineered/seed{s}", f"MLP (16 hidden, alpha 3) on engineered features, fold models averaged, seed {s} ({cv_text(oof)})",
            fold_avg)
    enter("mlp-16/bag5", "MLP (16 hidden) bagged over 5 seeds x 5 folds", np.mean(mlp_oof, axis=0), np.mean(mlp_pred, axis=0))
    print(f"strong models done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", file=sys.stderr, flush=True)

    # xgboost by random search, early stopping on each fold's log loss.
    rng = np.random.default_rng(2000)
    draws = []
    all_rows = np.arange(n)
    X_all, X_test = matrix(all_rows, all_rows), matrix(all_rows, test_rows)
    fold_mats = [(matrix(a, a), matrix(a, b), matrix(a, test_rows)) for a, b in folds]
    for i in range(XGB_DRAWS):
        params = dict(learning_rate=float(np.exp(rng.uniform(np.log(0.01), np.log(0.1)))), max_depth=int(rng.integers(1, 5)),
                      min_child_weight=float(rng.choice([1, 5, 10, 20])), subsample=float(rng.uniform(0.5, 1.0)),
                      colsample_bytree=float(rng.uniform(0.3, 1.0)), reg_lambda=float(np.exp(rng.uniform(np.log(0.3), np.log(30)))),
                      reg_alpha=float(rng.choice([0, 0.1, 1.0])), gamma=float(rng.choice([0, 0, 0.5, 1.0])))
        oof, fold_avg, best = np.zeros(n), np.zeros(n_test), []
        for (a, b), (Xa, Xb, Xt) in zip(folds, fold_mats):
            m = xgb.XGBClassifier(n_estimators=800, n_jobs=1, tree_method="hist", early_stopping_rounds=50, eval_metric="logloss",
                                  random_state=0, **params)
            m.fit(Xa, y[a], eval_set=[(Xb, y[b])], verbose=False)
            it = (0, m.best_iteration + 1)
            best.append(m.best_iteration + 1)
            oof[b] = m.predict_proba(Xb, iteration_range=it)[:, 1]
            fold_avg += to_ranks(m.predict_proba(Xt, iteration_range=it)[:, 1]) / FOLDS
        rounds = max(10, int(np.mean(best) * 1.1))
        desc = ", ".join(f"{k}={v:.3g}" for k, v in params.items())
        add(f"xgb-search/draw{i:02d}", f"xgboost random-search draw {i} ({desc}; ~{int(np.mean(best))} rounds), fold models averaged "
            f"({cv_text(oof)})", fold_avg)
        refit = xgb.XGBClassifier(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=0, **params).fit(X_all, y).predict_proba(X_test)[:, 1]
        add(f"xgb-search/draw{i:02d}-refit", f"xgboost random-search draw {i} refit on all of train ({rounds} rounds; {cv_text(oof)})", refit)
        draws.append((roc_auc_score(y, oof), i, params, rounds, oof, fold_avg))
    draws.sort(key=lambda d: -d[0])
    for top in [3, 5, 10]:
        enter(f"xgb-search/top{top}-avg", f"rank average of the {top} best xgboost draws by CV AUC",
              np.mean([to_ranks(d[4]) for d in draws[:top]], axis=0), np.mean([d[5] for d in draws[:top]], axis=0))
    for rank in range(3):
        auc, i, params, rounds, oof, fold_avg = draws[rank]
        library[f"xgb-cv-rank{rank + 1}"] = (oof, fold_avg)
        ps = [to_ranks(xgb.XGBClassifier(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=s, **params)
                       .fit(X_all, y).predict_proba(X_test)[:, 1]) for s in range(1, 4)]
        add(f"xgb-search/cv-rank{rank + 1}-refit-3seeds", f"xgboost draw {i} (CV rank {rank + 1}) refit on all of train, 3 more seeds "
            f"rank-averaged ({cv_text(oof)})", np.mean(ps, axis=0))
    print(f"xgboost search done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", file=sys.stderr, flush=True)

    # Rank-average blends and stacking over the library, chosen by out-of-fold AUC.
    ranked = sorted(library, key=lambda k: -roc_auc_score(y, library[k][0]))
    oof_ranks = {k: to_ranks(library[k][0]) for k in ranked}
    for i in range(12):
        for j in range(i + 1, 12):
            a, b = ranked[i], ranked[j]
            w = max(np.linspace(0, 1, 11), key=lambda w: roc_auc_score(y, w * oof_ranks[a] + (1 - w) * oof_ranks[b]))
            add(f"blend/pair-{a}+{b}", f"rank blend of {a} ({w:.1f}) and {b} ({1 - w:.1f}), weight by CV AUC",
                w * library[a][1] + (1 - w) * library[b][1])
    for top in [2, 3, 5, 8]:
        members = ranked[:top]
        add(f"blend/top{top}-equal", "equal rank average of " + ", ".join(members), np.mean([library[k][1] for k in members], axis=0))
    O = np.column_stack([oof_ranks[k] for k in ranked])
    T = np.column_stack([library[k][1] for k in ranked])
    for steps in [5, 10, 20]:
        chosen, total = [], np.zeros(n)
        for _ in range(steps):
            j = max(range(len(ranked)), key=lambda j: roc_auc_score(y, total + O[:, j]))
            chosen.append(j)
            total += O[:, j]
        add(f"blend/greedy-{steps}", f"greedy forward rank blend ({steps} steps, with replacement) on the out-of-fold AUC: "
            + ", ".join(sorted({ranked[j] for j in chosen})), T[:, chosen].mean(axis=1))
    for c in [0.01, 1.0]:
        meta = LogisticRegression(C=c, max_iter=3000).fit(O, y)
        add(f"stack-logreg-C{c}", f"stacking: logistic regression (C={c}) on the out-of-fold ranks of {len(ranked)} models",
            meta.predict_proba(T)[:, 1])

    assert len({r["teamName"] for r in rows}) == len(rows), "team names must be unique"
    write_board(rows, OUT, lower_is_better=False, note=f" in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
