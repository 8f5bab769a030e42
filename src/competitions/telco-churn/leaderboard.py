#!/usr/bin/python3
"""Reference leaderboard for the offline `telco-churn` competition.

Trains a documented population of classifiers on the public train split (4,928 customers),
scores each by binary log loss of the predicted probability of churn on the private answers
(2,115 customers), and writes src/competitions/telco-churn/leaderboard.csv (lowest first). The
scores form a *reference population* of pipelines, not a leaderboard of human teams. Nothing
but the final scoring reads the answers: every hyper-parameter, round count, calibration, blend
and stacking weight is chosen by 5-fold stratified cross-validation on train.

The population (about 560 entries), bottom to top:

1. Trivial: a probability of 0.5, the training churn rate and a few other constants, seeded
   random probabilities, the churn rate of the customer's contract, internet service, payment
   method or tenure band in train, and of contract x internet service cells.
2. Small budgets and badly calibrated models: a seeded 5%, 10% or 25% sample of train with the
   standard models below; unpruned trees, 1-nearest-neighbour and naive Bayes on any budget
   (their hard or overconfident probabilities are what log loss punishes most).
3. Standard pipelines, every combination of
   - feature sets "basic" (tenure, monthly and total charges, contract), "numeric" (every
     column as a number, categories as integer codes) and "onehot" (one-hot categories);
   - models: logistic regression (C 0.001 ... 10), decision trees (depth 2 ... unlimited),
     random forests, extra trees, gradient boosting, histogram gradient boosting, AdaBoost,
     k-nearest neighbours, naive Bayes, linear discriminant analysis, a default MLP;
   - budgets: 50%, 75% and 100% of train.
4. Strong pipelines on hand-made features ("engineered"), what a retention analyst would add:
   log tenure and tenure bands, the average monthly bill so far (total / tenure) and its gap
   to the current charge (a recent price change), the number of add-on services, fibre
   without security or support, automatic payment, month-to-month x fibre, month-to-month x
   electronic check, senior x fibre, tenure x contract; plus their one-hot and spline
   companion for linear models. On them:
   - logistic regression over a grid of penalties, on the dense engineered features and on
     spline-expanded tenure and charges with pairwise interactions of the main categories;
   - xgboost tuned by random search (32 draws of learning rate, depth 2-4, child weight,
     subsampling, column sampling, L1/L2, gamma) on 5-fold CV with early stopping on log loss;
     every draw is two entries (its fold models averaged on test; a refit on all of train
     with the CV's mean best round count), the best ones also seed-averaged;
   - histogram gradient boosting, scikit-learn gradient boosting, random forests and extra
     trees with isotonic or sigmoid calibration, MLPs bagged over seeds;
   - blends with CV-chosen weights (every pair of the twelve best models; greedy forward
     selection on the out-of-fold log loss) and stacking (logistic regression on the
     out-of-fold log-odds).

Runtime: about 7 CPU-minutes, single-threaded (OMP/BLAS threads pinned to 1).

Usage (Debian's interpreter, which has scikit-learn and xgboost):
    node dist/cli/main.js prepare -c telco-churn --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/telco-churn/leaderboard.py /tmp/lb-data
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
from scipy.special import logit  # noqa: E402
from sklearn.calibration import CalibratedClassifierCV  # noqa: E402
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
ID, TARGET = "id", "churn"
FOLDS = 5
XGB_DRAWS = 32
EPS = np.finfo(np.float64).eps
ADDONS = ["online_security", "online_backup", "device_protection", "tech_support", "streaming_tv", "streaming_movies"]
CATEGORICAL = ["multiple_lines", "internet_service", *ADDONS, "contract", "payment_method"]


def log_loss(y, p):
    """Binary log loss by its formula, probabilities clipped at float64 eps as scikit-learn does."""
    p = np.clip(np.asarray(p, dtype=float), EPS, 1 - EPS)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def raw_features(df, kind, ref):
    """Feature matrix of the given richness; `ref` (the training sample) supplies fills and levels."""
    total = df.total_charges.fillna(0.0)
    out = pd.DataFrame({"tenure": df.tenure.astype(float), "monthly_charges": df.monthly_charges, "total_charges": total}, index=df.index)
    if kind == "basic":
        out["contract"] = df.contract.map({"Month-to-month": 0, "One year": 1, "Two year": 2}).astype(float)
        return out
    for c in ["female", "senior_citizen", "partner", "dependents", "phone_service", "paperless_billing"]:
        out[c] = df[c].astype(float)
    for c in CATEGORICAL:
        levels = sorted(ref[c].unique())
        if kind == "numeric":
            out[c] = pd.Categorical(df[c], categories=levels).codes.astype(float)
        else:
            for level in levels:
                out[f"{c}={level}"] = (df[c] == level).astype(float)
    return out


def engineered(df):
    """Label-free hand-made features (dense, for trees) and a one-hot + spline companion (for linear models)."""
    X = pd.DataFrame(index=df.index)
    tenure = df.tenure.astype(float)
    total = df.total_charges.fillna(0.0)
    X["tenure"] = tenure
    X["log_tenure"] = np.log1p(tenure)
    X["monthly"] = df.monthly_charges
    X["total"] = total
    X["avg_bill"] = np.where(tenure > 0, total / tenure.clip(lower=1), df.monthly_charges)
    X["bill_gap"] = df.monthly_charges - X.avg_bill
    X["new"] = (tenure <= 1).astype(float)
    X["addons"] = sum((df[c] == "Yes").astype(float) for c in ADDONS)
    X["protect"] = sum((df[c] == "Yes").astype(float) for c in ["online_security", "online_backup", "device_protection", "tech_support"])
    X["streams"] = (df.streaming_tv == "Yes").astype(float) + (df.streaming_movies == "Yes").astype(float)
    fibre = (df.internet_service == "Fiber optic").astype(float)
    monthly = (df.contract == "Month-to-month").astype(float)
    echeck = (df.payment_method == "Electronic check").astype(float)
    X["fibre"] = fibre
    X["no_internet"] = (df.internet_service == "No").astype(float)
    X["fibre_unprotected"] = fibre * (df.online_security == "No") * (df.tech_support == "No")
    X["auto_pay"] = df.payment_method.str.contains("automatic").astype(float)
    X["echeck"] = echeck
    X["m2m"] = monthly
    X["contract_years"] = df.contract.map({"Month-to-month": 0, "One year": 1, "Two year": 2}).astype(float)
    X["m2m_fibre"] = monthly * fibre
    X["m2m_echeck"] = monthly * echeck
    X["senior_fibre"] = df.senior_citizen * fibre
    X["tenure_x_contract"] = tenure * (1 + X.contract_years)
    X["family"] = df.partner + df.dependents
    for c in ["female", "senior_citizen", "partner", "dependents", "phone_service", "paperless_billing"]:
        X[c] = df[c].astype(float)
    X["multiple_lines"] = (df.multiple_lines == "Yes").astype(float)
    for c in ADDONS:
        X[c] = (df[c] == "Yes").astype(float)
    X["payment_code"] = pd.Categorical(df.payment_method).codes.astype(float)
    # Linear companion: one-hot categories, pairwise products of the key ones, splines added in the pipeline.
    H = pd.DataFrame(index=df.index)
    for c in CATEGORICAL:
        for level in sorted(df[c].unique()):
            H[f"{c}={level}"] = (df[c] == level).astype(float)
    keys = {"contract": df.contract, "internet": df.internet_service, "payment": df.payment_method,
            "senior": df.senior_citizen.astype(str), "paperless": df.paperless_billing.astype(str)}
    names = list(keys)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            combo = keys[a] + "|" + keys[b]
            for level in sorted(combo.unique()):
                H[f"{a}x{b}={level}"] = (combo == level).astype(float)
    for c in ["female", "partner", "dependents", "phone_service", "addons", "protect", "streams", "fibre_unprotected", "new"]:
        H[c] = X[c]
    smooth = X[["log_tenure", "monthly", "bill_gap"]].assign(log_total=np.log1p(total))
    return X, H, smooth


def standard_models():
    """(name, factory) for every standard model."""
    for c in [0.001, 0.01, 0.1, 1.0, 10.0]:
        yield f"logreg-C{c}", lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=2000))
    for depth in [2, 3, 5, 8, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeClassifier(max_depth=d, random_state=0)
    for n, depth, leaf in [(100, 6, 1), (200, None, 1), (200, None, 10)]:
        yield f"forest-n{n}-d{depth}-leaf{leaf}", lambda n=n, d=depth, leaf=leaf: RandomForestClassifier(
            n_estimators=n, max_depth=d, min_samples_leaf=leaf, random_state=0, n_jobs=1)
    yield "extra-trees-n100", lambda: ExtraTreesClassifier(n_estimators=100, min_samples_leaf=5, random_state=0, n_jobs=1)
    for lr, depth in [(0.05, 2), (0.1, 3), (0.3, 5)]:
        yield f"gbm-lr{lr}-d{depth}", lambda lr=lr, d=depth: GradientBoostingClassifier(learning_rate=lr, max_depth=d, random_state=0)
    yield "hist-gbm", lambda: HistGradientBoostingClassifier(random_state=0)
    yield "adaboost", lambda: AdaBoostClassifier(random_state=0)
    for k in [1, 15, 100]:
        yield f"knn-k{k}", lambda k=k: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=k))
    yield "naive-bayes", GaussianNB
    yield "lda", LinearDiscriminantAnalysis
    yield "mlp-default", lambda: make_pipeline(StandardScaler(), MLPClassifier(max_iter=300, random_state=0))


def main(data_dir):
    started = time.process_time()
    prepared = os.path.join(data_dir, "telco-churn", "prepared")
    train = pd.read_csv(os.path.join(prepared, "public", "train.csv"), keep_default_na=False, na_values=[""])
    test = pd.read_csv(os.path.join(prepared, "public", "test.csv"), keep_default_na=False, na_values=[""])
    answers = pd.read_csv(os.path.join(prepared, "private", "test.csv"), keep_default_na=False)
    sample = pd.read_csv(os.path.join(prepared, "public", "sample_submission.csv"))
    labels = test[[ID]].merge(answers, on=ID, how="left")[TARGET]
    assert labels.isin(["Yes", "No"]).all(), "answers do not cover every test id"
    truth = (labels == "Yes").to_numpy(dtype=float)
    y = (train[TARGET] == "Yes").to_numpy(dtype=int)
    n, n_test = len(train), len(test)
    rows = []

    def add(team, pipeline, p):
        p = np.asarray(p, dtype=float)
        assert p.shape == truth.shape and np.isfinite(p).all() and (p >= 0).all() and (p <= 1).all(), team
        rows.append({"teamName": team, "score": log_loss(truth, p), "pipeline": pipeline})

    # 1. Trivial.
    prior = y.mean()
    add("prior", "the training churn rate for every customer", np.full(n_test, prior))
    for c in [0.5, 0.1, 0.4]:
        add(f"constant-{c}", f"{c} for every customer", np.full(n_test, c))
    for s in range(2):
        add(f"random-{s}", f"a seeded uniform random probability (seed {s})", np.random.default_rng(s).random(n_test))
    band = lambda d: pd.cut(d.tenure, [-1, 6, 12, 24, 48, 100]).astype(str)  # noqa: E731
    groups = {"contract": lambda d: d.contract, "internet": lambda d: d.internet_service, "payment": lambda d: d.payment_method,
              "tenure-band": band, "contract-x-internet": lambda d: d.contract + "|" + d.internet_service,
              "contract-x-tenure-band": lambda d: d.contract + "|" + band(d)}
    for name, key in groups.items():
        rate = pd.Series(y).groupby(key(train).to_numpy()).mean()
        add(f"{name}-rate", f"the churn rate of the customer's {name.replace('-x-', ' x ')} in train",
            key(test).map(rate).fillna(prior).to_numpy())
    add("contract-rule", "0.9 for month-to-month contracts, 0.05 otherwise", np.where(test.contract == "Month-to-month", 0.9, 0.05))

    # 2 and 3. Standard pipelines over feature sets and budgets.
    for budget in [0.05, 0.1, 0.25, 0.5, 0.75, 1.0]:
        pct = int(round(budget * 100))
        sub = train.sample(frac=budget, random_state=7) if budget < 1 else train
        ys = (sub[TARGET] == "Yes").to_numpy(dtype=int)
        for kind in ["basic", "numeric", "onehot"]:
            x_train, x_test = raw_features(sub, kind, sub), raw_features(test, kind, sub)
            for name, factory in standard_models():
                if budget < 0.35 and (name.startswith(("forest-n200", "extra", "gbm-lr0.05", "hist", "logreg-C0.001", "mlp", "knn-k100", "lda"))
                                      or (budget < 0.15 and kind == "onehot")):
                    continue
                pred = factory().fit(x_train, ys).predict_proba(x_test)[:, 1]
                add(f"{name}/{kind}/{pct}pct", f"{name} on {kind} features, {pct}% of train", pred)
    print(f"standard done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 4. Strong pipelines on the engineered features.
    full = pd.concat([train.drop(columns=TARGET), test], ignore_index=True)
    dense, onehot, smooth = engineered(full)
    D = dense.to_numpy(dtype=float)
    H = onehot.to_numpy(dtype=float)
    S = smooth.to_numpy(dtype=float)
    folds = list(StratifiedKFold(FOLDS, shuffle=True, random_state=42).split(np.zeros(n), y))
    library = {}

    def linear_matrix(fit_rows, rows_, knots):
        """One-hot block plus splines of tenure and charges, the spline knots placed on fit_rows."""
        spl = SplineTransformer(n_knots=knots, degree=3).fit(S[fit_rows])
        return np.column_stack([H[rows_], spl.transform(S[rows_])])

    def cv_run(make, X=D, refit=True, linear_knots=None):
        """Out-of-fold probabilities, fold-averaged test probabilities and (optionally) a refit on all of train."""
        oof, fold_avg = np.zeros(n), np.zeros(n_test)
        test_rows = np.arange(n, n + n_test)
        for a, b in folds:
            if linear_knots:
                Xa, Xb, Xt = (linear_matrix(a, r, linear_knots) for r in (a, b, test_rows))
            else:
                Xa, Xb, Xt = X[a], X[b], X[test_rows]
            m = make().fit(Xa, y[a])
            oof[b] = m.predict_proba(Xb)[:, 1]
            fold_avg += m.predict_proba(Xt)[:, 1] / FOLDS
        full_pred = None
        if refit:
            all_rows = np.arange(n)
            if linear_knots:
                Xa, Xt = linear_matrix(all_rows, all_rows, linear_knots), linear_matrix(all_rows, test_rows, linear_knots)
            else:
                Xa, Xt = X[all_rows], X[test_rows]
            full_pred = make().fit(Xa, y).predict_proba(Xt)[:, 1]
        return oof, fold_avg, full_pred

    def enter(team, pipeline, oof, pred, keep=True):
        add(team, f"{pipeline} (CV log loss {log_loss(y, oof):.4f})", pred)
        if keep:
            library[team] = (oof, pred)

    for knots in [4, 6]:
        for c in [0.03, 0.1, 0.3, 1.0, 3.0]:
            make = lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=3000))  # noqa: E731
            oof, fold_avg, refit = cv_run(make, linear_knots=knots)
            tag = f"logreg-C{c}/splines{knots}+interactions"
            enter(tag, f"logistic regression (C={c}) on one-hot categories, pairwise interactions and {knots}-knot splines, refit", oof, refit)
            add(f"{tag}/fold-avg", f"logistic regression (C={c}), interactions and {knots}-knot splines, fold models averaged "
                f"(CV log loss {log_loss(y, oof):.4f})", fold_avg)
    for c in [0.03, 0.1, 0.3, 1.0, 3.0]:
        oof, fold_avg, refit = cv_run(lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=3000)))
        enter(f"logreg-C{c}/engineered", f"logistic regression (C={c}) on the dense engineered features, refit", oof, refit)
        add(f"logreg-C{c}/engineered/fold-avg", f"logistic regression (C={c}) on the dense engineered features, fold models averaged "
            f"(CV log loss {log_loss(y, oof):.4f})", fold_avg)
    trees = [
        ("hist-gbm-lr0.03", lambda: HistGradientBoostingClassifier(learning_rate=0.03, max_iter=300, max_depth=3, min_samples_leaf=40,
                                                                   l2_regularization=3.0, random_state=0)),
        ("hist-gbm-lr0.05-leaf8", lambda: HistGradientBoostingClassifier(learning_rate=0.05, max_iter=150, max_leaf_nodes=8, min_samples_leaf=60,
                                                                         l2_regularization=1.0, random_state=0)),
        ("gbm-d2", lambda: GradientBoostingClassifier(learning_rate=0.05, max_depth=2, n_estimators=300, subsample=0.8, random_state=0)),
        ("gbm-d3", lambda: GradientBoostingClassifier(learning_rate=0.03, max_depth=3, n_estimators=300, subsample=0.8, random_state=0)),
        ("forest-leaf20", lambda: RandomForestClassifier(n_estimators=150, min_samples_leaf=20, max_features=0.4, random_state=0, n_jobs=1)),
        ("forest-leaf5/isotonic", lambda: CalibratedClassifierCV(RandomForestClassifier(
            n_estimators=100, min_samples_leaf=5, max_features=0.4, random_state=0, n_jobs=1), method="isotonic", cv=3)),
        ("extra-trees-leaf10/sigmoid", lambda: CalibratedClassifierCV(ExtraTreesClassifier(
            n_estimators=100, min_samples_leaf=10, max_features=0.5, random_state=0, n_jobs=1), method="sigmoid", cv=3)),
    ]
    for name, make in trees:
        oof, fold_avg, refit = cv_run(make)
        enter(f"{name}/engineered", f"{name} on engineered features, {FOLDS} fold models averaged", oof, fold_avg)
        add(f"{name}/engineered/refit", f"{name} on engineered features, refit on all of train (CV log loss {log_loss(y, oof):.4f})", refit)
    mlp_oof, mlp_pred = [], []
    for s in range(5):
        make = lambda s=s: make_pipeline(StandardScaler(), MLPClassifier(  # noqa: E731
            (32,), alpha=1.0, learning_rate_init=0.003, max_iter=300, early_stopping=True, random_state=s))
        oof, fold_avg, _ = cv_run(make, linear_knots=4, refit=False)
        mlp_oof.append(oof)
        mlp_pred.append(fold_avg)
        add(f"mlp-32/splines4+interactions/seed{s}", f"MLP (32 hidden, alpha 1) on the one-hot + spline set, fold models averaged, seed {s} "
            f"(CV log loss {log_loss(y, oof):.4f})", fold_avg)
    enter("mlp-32/bag5", "MLP (32 hidden) bagged over 5 seeds x 5 folds", np.mean(mlp_oof, axis=0), np.mean(mlp_pred, axis=0))
    print(f"strong models done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # xgboost by random search on 5-fold CV with early stopping on log loss.
    rng = np.random.default_rng(7043)
    draws = []
    test_rows = np.arange(n, n + n_test)
    for i in range(XGB_DRAWS):
        params = dict(learning_rate=float(np.exp(rng.uniform(np.log(0.02), np.log(0.1)))), max_depth=int(rng.integers(2, 5)),
                      min_child_weight=float(rng.choice([5, 10, 20, 40])), subsample=float(rng.uniform(0.5, 1.0)),
                      colsample_bytree=float(rng.uniform(0.3, 1.0)), reg_lambda=float(np.exp(rng.uniform(np.log(0.3), np.log(30)))),
                      reg_alpha=float(rng.choice([0, 0.1, 1.0])), gamma=float(rng.choice([0, 0, 0.5, 1.0])))
        oof, fold_avg, best = np.zeros(n), np.zeros(n_test), []
        for a, b in folds:
            m = xgb.XGBClassifier(n_estimators=1000, n_jobs=1, tree_method="hist", early_stopping_rounds=40, eval_metric="logloss",
                                  random_state=0, **params)
            m.fit(D[a], y[a], eval_set=[(D[b], y[b])], verbose=False)
            it = (0, m.best_iteration + 1)
            best.append(m.best_iteration + 1)
            oof[b] = m.predict_proba(D[b], iteration_range=it)[:, 1]
            fold_avg += m.predict_proba(D[test_rows], iteration_range=it)[:, 1] / FOLDS
        rounds = max(10, int(np.mean(best) * 1.1))
        desc = ", ".join(f"{k}={v:.3g}" for k, v in params.items())
        enter(f"xgb-search/draw{i:02d}", f"xgboost random-search draw {i} ({desc}; ~{int(np.mean(best))} rounds), engineered features, "
              "fold models averaged", oof, fold_avg, keep=False)
        refit = xgb.XGBClassifier(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=0, **params).fit(D[:n], y).predict_proba(D[test_rows])[:, 1]
        add(f"xgb-search/draw{i:02d}-refit", f"xgboost random-search draw {i} refit on all of train ({rounds} rounds; "
            f"CV log loss {log_loss(y, oof):.4f})", refit)
        draws.append((log_loss(y, oof), i, params, rounds, oof, fold_avg))
    draws.sort(key=lambda d: d[0])
    for top in [3, 5, 10]:
        enter(f"xgb-search/top{top}-avg", f"average of the {top} best xgboost draws by CV log loss",
              np.mean([d[4] for d in draws[:top]], axis=0), np.mean([d[5] for d in draws[:top]], axis=0))
    for rank in range(3):
        score, i, params, rounds, oof, fold_avg = draws[rank]
        library[f"xgb-cv-rank{rank + 1}"] = (oof, fold_avg)
        ps = [xgb.XGBClassifier(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=s, **params).fit(D[:n], y).predict_proba(D[test_rows])[:, 1]
              for s in range(1, 4)]
        add(f"xgb-search/cv-rank{rank + 1}-refit-3seeds", f"xgboost draw {i} (CV rank {rank + 1}) refit on all of train, 3 more seeds averaged "
            f"(CV log loss {score:.4f})", np.mean(ps, axis=0))
    # Two-model blends: each of the eight best draws with the CV's best logistic regression, weight by CV.
    best_lin = min((k for k in library if k.startswith("logreg")), key=lambda k: log_loss(y, library[k][0]))
    for score, i, params, rounds, oof, fold_avg in draws[:8]:
        w = min(np.linspace(0, 1, 21), key=lambda w: log_loss(y, w * oof + (1 - w) * library[best_lin][0]))
        add(f"blend/xgb-draw{i:02d}+logreg", f"xgboost draw {i} ({w:.2f}) blended with {best_lin} ({1 - w:.2f})",
            w * fold_avg + (1 - w) * library[best_lin][1])
    print(f"xgboost search done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Blends and stacking over the library.
    ranked = sorted(library, key=lambda k: log_loss(y, library[k][0]))
    # Every pair among the twelve best by CV, the weight chosen on their out-of-fold probabilities.
    for i in range(12):
        for j in range(i + 1, 12):
            (oi, ti), (oj, tj) = library[ranked[i]], library[ranked[j]]
            w = min(np.linspace(0, 1, 21), key=lambda w: log_loss(y, w * oi + (1 - w) * oj))
            add(f"blend/pair-{ranked[i]}+{ranked[j]}", f"{ranked[i]} ({w:.2f}) blended with {ranked[j]} ({1 - w:.2f})", w * ti + (1 - w) * tj)
    for top in [2, 3, 5, 8]:
        members = ranked[:top]
        add(f"blend/top{top}-equal", "equal blend of " + ", ".join(members), np.mean([library[k][1] for k in members], axis=0))
    O = np.column_stack([library[k][0] for k in ranked])
    T = np.column_stack([library[k][1] for k in ranked])
    for steps in [5, 10, 20]:
        chosen, total = [], np.zeros(n)
        for _ in range(steps):
            j = min(range(len(ranked)), key=lambda j: log_loss(y, (total + O[:, j]) / (len(chosen) + 1)))
            chosen.append(j)
            total += O[:, j]
        add(f"blend/greedy-{steps}", f"greedy forward blend ({steps} steps, with replacement) on the out-of-fold log loss: "
            + ", ".join(sorted({ranked[j] for j in chosen})), T[:, chosen].mean(axis=1))
    clip = lambda p: np.clip(p, 1e-6, 1 - 1e-6)  # noqa: E731
    for c in [0.1, 1.0]:
        meta = LogisticRegression(C=c, max_iter=3000).fit(logit(clip(O)), y)
        add(f"stack-logreg-C{c}", f"stacking: logistic regression (C={c}) on the out-of-fold log-odds of {len(ranked)} models",
            meta.predict_proba(logit(clip(T)))[:, 1])

    baseline = log_loss(truth, sample.set_index(ID).loc[test[ID], TARGET].to_numpy(dtype=float))
    write_board(rows, OUT, lower_is_better=True, note=f" (sample submission {baseline:.5f}) in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
