#!/usr/bin/python3
"""Reference leaderboard for the offline `grant-applications` competition.

Trains a documented population of pipelines on the public train split (6,633 applications lodged
before 2008), scores each by ROC AUC on the private answers (the 2,075 applications of 2008), and
writes leaderboard.csv beside this script (best first). The scores form a *reference population*
of pipelines, not a leaderboard of human teams. Nothing but the final scoring reads the answers:
every hyper-parameter, round count, blend and stacking weight is chosen by stratified 5-fold
cross-validation on train.

The population, bottom to top:

1. Trivial: a constant; seeded random scores; one-column rules (the value band being unrecorded,
   the chief investigators' earlier successes and failures, their success rate, the team size,
   the day of the year); the success rate of the application's month, value band, category or
   sponsor in train.
2. Standard pipelines, every combination of
   - feature sets "history" (the 12 counts of earlier successes and failures), "team" (team
     sizes, publications, time at the university, history, category indicators), "basic" (team
     plus the day and one-hot codes of value band, category, month and weekday), "reduced"
     (every column non-zero in at least 50 training rows, sponsors seen 20 times one-hot) and
     "full" (all 1,497 numeric columns and all one-hot codes); the 1,500 columns are kept to the
     cheap models and the boosted trees that sample them;
   - models: logistic regression (C 0.001 ... 1), decision trees (depth 1 ... unlimited), random
     forests, extra trees, histogram gradient boosting, AdaBoost, k-nearest neighbours, Bernoulli
     naive Bayes and xgboost with its defaults;
   - budgets: seeded 5%, 10%, 25%, 50% samples and all of train.
3. Strong pipelines on hand-made features that use what is known about this data: the number of
   administrative fields left unrecorded (sponsor, value band, category; with no research field
   or objective code), the team's and the chief investigators' smoothed success rates over
   earlier applications, per-person publication and A*-journal counts, doctorate and
   unknown-tenure shares, how many team members have no recorded birth year, the numbers of
   departments, faculties, research fields and objectives, weekend lodging, and frequency
   codes of every categorical column. Three versions: "engineered" (those plus the team and
   history counts), "engineered+wide" (plus every column non-zero in 50 training rows) and
   "engineered+te" (plus out-of-fold smoothed target encodings of sponsor, category, value band
   and month, fitted inside each CV fold). On them:
   - xgboost tuned by random search (24 draws of learning rate, depth, child weight,
     subsampling, column sampling, L2 and gamma over "engineered" and "engineered+te") on 5-fold CV with early
     stopping; every draw is two entries (fold models averaged on test; a refit on all of train
     with the CV's mean round count), the best also seed-averaged and averaged together;
   - random forests, extra trees and histogram gradient boosting over small grids; logistic
     regression and MLPs (bagged over seeds) on a one-hot, log-scaled version;
   - rank-average blends (the best k by CV, the best of each family, each of the 20 best paired
     with the best of another family), greedy forward selection on the out-of-fold ranks and
     stacking (logistic regression on out-of-fold ranks).

Runtime: about 8 CPU-minutes (467 CPU-s measured, 16 minutes of wall time on a shared two-core
machine), single-threaded (OMP/BLAS threads pinned to 1).

Usage (Debian's interpreter, which has scikit-learn and xgboost):
    node dist/cli/main.js prepare -c grant-applications --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/grant-applications/leaderboard.py /tmp/lb-data
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
from scipy.stats import rankdata  # noqa: E402
from sklearn.ensemble import (AdaBoostClassifier, ExtraTreesClassifier, HistGradientBoostingClassifier,  # noqa: E402
                              RandomForestClassifier)
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402
from sklearn.naive_bayes import BernoulliNB  # noqa: E402
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
FOLDS = 5
DRAWS = 24
TARGET = "successful"
CATEGORICAL = ["sponsor_code", "contract_value_band", "category_code", "month", "weekday"]
ADMIN = ["sponsor_code", "contract_value_band", "category_code"]
ROLES = ["ci", "dr", "eci", "ps", "hv", "sr"]
TEAM_PREFIXES = ("num_", "success_", "unsuccess_", "astar_", "a_", "b_", "c_", "all_pub", "duration_", "grant_cat_")


def one_hot(full, cols, n_train, min_count):
    """Indicator columns of the levels seen at least min_count times in the training rows."""
    out = {}
    for c in cols:
        counts = full[c].iloc[:n_train].value_counts()
        for level in sorted(counts[counts >= min_count].index):
            out[f"{c}={level}"] = (full[c] == level).astype(np.float32)
    return pd.DataFrame(out, index=full.index)


def standard_sets(full, n_train):
    """The standard feature sets as float32 matrices over train and test rows."""
    counts = [c for c in full.columns if c not in CATEGORICAL]
    history = [f"{k}_{r}" for k in ("success", "unsuccess") for r in ROLES]
    team = [c for c in counts if c.startswith(TEAM_PREFIXES)]
    nonzero = (full[counts].iloc[:n_train] != 0).sum()
    wide = [c for c in counts if nonzero[c] >= 50]
    small_codes = one_hot(full, ["contract_value_band", "category_code", "month", "weekday"], n_train, 1)
    sets = {
        "history": full[history].astype(np.float32),
        "team": full[team].astype(np.float32),
        "basic": pd.concat([full[team + ["day"]].astype(np.float32), small_codes], axis=1),
        "reduced": pd.concat([full[wide].astype(np.float32), small_codes, one_hot(full, ["sponsor_code"], n_train, 20)], axis=1),
        "full": pd.concat([full[counts].astype(np.float32), one_hot(full, CATEGORICAL, n_train, 1)], axis=1),
    }
    return {k: v.to_numpy(dtype=np.float32) for k, v in sets.items()}


def engineered(full, n_train):
    """Label-free hand-made features: recording gaps, track records, per-person output, team make-up, frequency codes."""
    E = pd.DataFrame(index=full.index)
    for c in CATEGORICAL:
        E["code_" + c] = pd.factorize(full[c], sort=True)[0].astype(float)
        E["freq_" + c] = full[c].map(full[c].value_counts()).astype(float)
    for c in ADMIN:
        E["unrecorded_" + c] = (full[c] == "Unk").astype(float)
    people = full.num_people.clip(lower=1)
    succ = full[[f"success_{r}" for r in ROLES]].sum(axis=1)
    fail = full[[f"unsuccess_{r}" for r in ROLES]].sum(axis=1)
    E["team_successes"], E["team_failures"] = succ, fail
    E["team_success_rate"] = (succ + 1) / (succ + fail + 2)
    E["ci_success_rate"] = (full.success_ci + 1) / (full.success_ci + full.unsuccess_ci + 2)
    E["no_history"] = ((succ + fail) == 0).astype(float)
    E["pubs_per_person"] = full.all_pub / people
    E["astar_per_person"] = full.astar_total / people
    E["a_per_person"] = full.a_total / people
    E["n_fields"] = (full.filter(regex="^rfcd_") > 0).sum(axis=1)
    E["n_objectives"] = (full.filter(regex="^seo_") > 0).sum(axis=1)
    E["n_departments"] = (full.filter(regex="_dept_") > 0).sum(axis=1)
    E["n_faculties"] = (full.filter(regex="_faculty_") > 0).sum(axis=1)
    E["phd_share"] = full.filter(regex="_ph_d$").sum(axis=1) / people
    E["unknown_tenure_share"] = full.duration_unk / people
    born = [c for c in full.columns if c.split("_")[0] in ROLES + ["sci", "unk", "ea"] and c.split("_")[-1].isdigit() and len(c.split("_")) == 2]
    E["no_birth_year"] = (full.num_people - full[born].sum(axis=1)).clip(lower=0)
    E["english_share"] = full.filter(regex="_english$").sum(axis=1) / people
    E["unrecorded_fields"] = sum(E["unrecorded_" + c] for c in ADMIN) + (E.n_fields == 0) + (E.n_objectives == 0)
    E["day"] = full.day.astype(float)
    E["weekend"] = full.weekday.isin(["Sat", "Sun"]).astype(float)
    return E


def target_encode(full, y, fit_rows, apply_rows, smoothing=20):
    out = {}
    for c in ["sponsor_code", "category_code", "contract_value_band", "month"]:
        s = pd.DataFrame({"k": full[c].iloc[fit_rows].to_numpy(), "y": y[fit_rows]})
        g = s.groupby("k").y.agg(["sum", "count"])
        mean = s.y.mean()
        out["te_" + c] = full[c].iloc[apply_rows].map((g["sum"] + smoothing * mean) / (g["count"] + smoothing)).fillna(mean).to_numpy()
    return pd.DataFrame(out)


def with_encodings(base, full, y, fit_rows, apply_rows, inner_seed):
    """Rows `apply_rows` of base plus target encodings fitted on fit_rows (out-of-fold when they coincide)."""
    if np.array_equal(fit_rows, apply_rows):
        enc = np.zeros((len(fit_rows), 4))
        for a, b in StratifiedKFold(FOLDS, shuffle=True, random_state=inner_seed).split(fit_rows, y[fit_rows]):
            enc[b] = target_encode(full, y, fit_rows[a], fit_rows[b]).to_numpy()
    else:
        enc = target_encode(full, y, fit_rows, apply_rows).to_numpy()
    return np.column_stack([base[apply_rows], enc])


def standard_models(n_cols):
    """(name, factory) for every standard model; the wide sets skip the ones that would not finish in time."""
    for c in [0.001, 0.01, 0.1, 1.0]:
        yield f"logreg-C{c}", lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=300))
    for depth in [1, 2, 3, 4, 6, 10, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeClassifier(max_depth=d, min_samples_leaf=5, random_state=0)
    for n, depth in [(20, 4), (100, 8), (150, None)]:
        yield f"forest-n{n}-d{depth}", lambda n=n, d=depth: RandomForestClassifier(n_estimators=n, max_depth=d, min_samples_leaf=3, random_state=0)
    yield "extra-trees-n100", lambda: ExtraTreesClassifier(n_estimators=100, min_samples_leaf=3, random_state=0)
    if n_cols < 500:
        yield "hist-gbm", lambda: HistGradientBoostingClassifier(random_state=0)
        yield "adaboost", lambda: AdaBoostClassifier(random_state=0)
        for k in [5, 25, 100]:
            yield f"knn-k{k}", lambda k=k: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=k))
    yield "naive-bayes", BernoulliNB
    yield "xgboost-default", lambda: xgb.XGBClassifier(n_jobs=1, tree_method="hist", random_state=0)


def main(data_dir):
    started = time.process_time()
    root = os.path.join(data_dir, "grant-applications", "prepared")
    train = pd.read_csv(os.path.join(root, "public", "train.csv"), keep_default_na=False)
    test = pd.read_csv(os.path.join(root, "public", "test.csv"), keep_default_na=False)
    answers = pd.read_csv(os.path.join(root, "private", "test.csv"))
    truth = test[["id"]].merge(answers, on="id", how="left")[TARGET].to_numpy()
    assert not np.isnan(truth.astype(float)).any(), "answers do not cover every test id"
    rows = []

    def add(team, pipeline, score):
        score = np.asarray(score, dtype=float)
        assert score.shape == truth.shape and np.isfinite(score).all(), team
        rows.append({"teamName": team, "score": float(roc_auc_score(truth, score)), "pipeline": pipeline})

    y = train[TARGET].to_numpy()
    n = len(train)
    full = pd.concat([train.drop(columns=[TARGET, "id"]), test.drop(columns="id")], ignore_index=True)
    tail = full.iloc[n:]

    # 1. Trivial.
    add("constant", "the same score for every application", np.full(len(test), y.mean()))
    for s in range(3):
        add(f"random-{s}", f"a seeded uniform random score (seed {s})", np.random.default_rng(s).random(len(test)))
    add("value-band-recorded", "1 when the contract value band is recorded, else 0", (tail.contract_value_band != "Unk").astype(float))
    add("ci-successes", "the chief investigators' earlier successful applications", tail.success_ci)
    add("ci-failures-negated", "minus the chief investigators' earlier unsuccessful applications", -tail.unsuccess_ci)
    add("ci-success-rate", "the chief investigators' smoothed earlier success rate", (tail.success_ci + 1) / (tail.success_ci + tail.unsuccess_ci + 2))
    add("team-size", "the number of people on the team", tail.num_people)
    add("day-of-year", "the day of the year the application was lodged", tail.day)
    add("publications", "the team's journal articles", tail.all_pub)
    for col in ["month", "contract_value_band", "category_code", "sponsor_code"]:
        for alpha in [0, 20]:
            g = train.groupby(col)[TARGET].agg(["sum", "count"])
            rate = (g["sum"] + alpha * y.mean()) / (g["count"] + alpha)
            add(f"{col}-rate/a{alpha}", f"the success rate of the application's {col} in train (smoothing {alpha})",
                tail[col].map(rate).fillna(y.mean()).to_numpy())
    print(f"trivial done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 2. Standard pipelines over feature sets and budgets.
    sets = standard_sets(full, n)
    for budget in [0.05, 0.1, 0.25, 0.5, 1.0]:
        pick = np.sort(np.random.default_rng(7).permutation(n)[:int(round(budget * n))]) if budget < 1 else np.arange(n)
        pct = int(round(budget * 100))
        for kind, X in sets.items():
            for name, factory in standard_models(X.shape[1]):
                if kind == "history" and name.startswith(("forest-n150", "extra", "adaboost", "knn-k100")):
                    continue  # twelve small counts: these add nothing the other entries lack
                if kind == "full" and budget < 0.25:
                    continue
                if budget < 0.25 and name in ("forest-n150-dNone", "logreg-C0.001"):
                    continue
                pred = factory().fit(X[pick], y[pick]).predict_proba(X[n:])[:, 1]
                add(f"{name}/{kind}/{pct}pct", f"{name} on {kind} features ({X.shape[1]} columns), {pct}% of train", pred)
        print(f"standard {budget:.0%} done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 3. Strong pipelines on the engineered features.
    E = engineered(full, n)
    team_cols = [c for c in full.columns if c.startswith(TEAM_PREFIXES)]
    counts = [c for c in full.columns if c not in CATEGORICAL]
    nonzero = (full[counts].iloc[:n] != 0).sum()
    wide_cols = [c for c in counts if nonzero[c] >= 50 and c not in team_cols and c != "day"]
    dense = pd.concat([E, full[team_cols].astype(float)], axis=1).to_numpy(dtype=float)
    wide = np.column_stack([dense, full[wide_cols].to_numpy(dtype=float)])
    all_train, test_rows = np.arange(n), np.arange(n, len(full))
    folds = list(StratifiedKFold(FOLDS, shuffle=True, random_state=42).split(all_train, y))
    variants = {
        "engineered": ([(dense[a], dense[b], dense[test_rows]) for a, b in folds], (dense[:n], dense[test_rows])),
        "engineered+wide": ([(wide[a], wide[b], wide[test_rows]) for a, b in folds], (wide[:n], wide[test_rows])),
        "engineered+te": ([(with_encodings(dense, full, y, a, a, k), with_encodings(dense, full, y, a, b, k),
                            with_encodings(dense, full, y, a, test_rows, k)) for k, (a, b) in enumerate(folds)],
                          (with_encodings(dense, full, y, all_train, all_train, 99), with_encodings(dense, full, y, all_train, test_rows, 99))),
    }
    # The one-hot, log-scaled version for linear models and MLPs.
    H = pd.concat([np.log1p(E.drop(columns=[c for c in E if c.startswith("code_")]).clip(lower=0)),
                   np.log1p(full[team_cols].astype(float)), one_hot(full, CATEGORICAL, n, 20)], axis=1).to_numpy(dtype=float)
    H = (H - H[:n].mean(axis=0)) / (H[:n].std(axis=0) + 1e-9)
    variants["engineered-onehot"] = ([(H[a], H[b], H[test_rows]) for a, b in folds], (H[:n], H[test_rows]))
    library = {}

    def auc(oof):
        """Mean of the per-fold AUCs (pooling folds would mix fold models' differing scales)."""
        return float(np.mean([roc_auc_score(y[b], oof[b]) for _, b in folds]))

    def enter(team, pipeline, oof, pred, keep=True):
        add(team, f"{pipeline} (CV AUC {auc(oof):.4f})", pred)
        if keep:
            library[team] = (oof, pred)

    def cv_run(make, kind, refit=True):
        """Out-of-fold scores, fold-averaged test scores and a refit on all of train."""
        data, whole = variants[kind]
        oof, fold_avg = np.zeros(n), np.zeros(len(test))
        for (a, b), (Xa, Xb, Xt) in zip(folds, data):
            m = make().fit(Xa, y[a])
            oof[b] = m.predict_proba(Xb)[:, 1]
            fold_avg += m.predict_proba(Xt)[:, 1] / FOLDS
        full_pred = make().fit(whole[0], y).predict_proba(whole[1])[:, 1] if refit else None
        return oof, fold_avg, full_pred

    bagged = [
        ("forest-leaf1-mf0.3", lambda: RandomForestClassifier(n_estimators=100, min_samples_leaf=1, max_features=0.3, random_state=0),
         ["engineered", "engineered+te"]),
        ("forest-leaf3-sqrt", lambda: RandomForestClassifier(n_estimators=100, min_samples_leaf=3, max_features="sqrt", random_state=0),
         ["engineered", "engineered+wide"]),
        ("extra-trees-leaf2", lambda: ExtraTreesClassifier(n_estimators=100, min_samples_leaf=2, max_features=0.5, random_state=0),
         ["engineered", "engineered+te"]),
        ("hist-gbm-lr0.05", lambda: HistGradientBoostingClassifier(learning_rate=0.05, max_iter=300, max_leaf_nodes=15, min_samples_leaf=40,
                                                                   l2_regularization=1.0, random_state=0),
         ["engineered", "engineered+te", "engineered+wide"]),
        ("hist-gbm-lr0.03-d4", lambda: HistGradientBoostingClassifier(learning_rate=0.03, max_iter=500, max_depth=4, min_samples_leaf=30,
                                                                      l2_regularization=3.0, random_state=0),
         ["engineered", "engineered+te", "engineered+wide"]),
        ("hist-gbm-lr0.1-leaf31", lambda: HistGradientBoostingClassifier(learning_rate=0.1, max_iter=150, max_leaf_nodes=31, min_samples_leaf=20,
                                                                         random_state=0), ["engineered", "engineered+te"]),
    ]
    for name, make, kinds in bagged:
        for kind in kinds:
            oof, fold_avg, refit = cv_run(make, kind)
            enter(f"{name}/{kind}", f"{name} on {kind} features, {FOLDS} fold models averaged", oof, fold_avg)
            add(f"{name}/{kind}/refit", f"{name} on {kind} features, refit on all of train (CV AUC {auc(oof):.4f})", refit)
    for c in [0.01, 0.03, 0.1, 0.3]:
        oof, fold_avg, refit = cv_run(lambda c=c: LogisticRegression(C=c, max_iter=2000), "engineered-onehot")
        enter(f"logreg-C{c}/engineered-onehot", f"logistic regression (C={c}) on the one-hot, log-scaled engineered set, refit", oof, refit)
        add(f"logreg-C{c}/engineered-onehot/fold-avg", f"logistic regression (C={c}) on the one-hot engineered set, fold models averaged", fold_avg)
    mlp_oof, mlp_pred = [], []
    for s in range(4):
        oof, fold_avg, _ = cv_run(lambda s=s: MLPClassifier((64,), alpha=3.0, learning_rate_init=0.003, max_iter=200, early_stopping=True,
                                                            random_state=s), "engineered-onehot", refit=False)
        mlp_oof.append(oof)
        mlp_pred.append(fold_avg)
        add(f"mlp-64/engineered-onehot/seed{s}", f"MLP (64 hidden, alpha 3) on the one-hot engineered set, fold models averaged, seed {s} "
            f"(CV AUC {auc(oof):.4f})", fold_avg)
    enter("mlp-64/engineered-onehot/bag4", "MLP (64 hidden) bagged over 4 seeds x 5 folds", np.mean(mlp_oof, axis=0), np.mean(mlp_pred, axis=0))
    print(f"strong models done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # xgboost by random search on 5-fold CV with early stopping, over the three dense versions.
    rng = np.random.default_rng(2011)
    draws = []
    # The wide version is searched by the bagged models only: boosting gains nothing from it and is slowest there.
    kinds = ["engineered", "engineered+te"]
    for i in range(DRAWS):
        kind = kinds[i % 2]
        data, whole = variants[kind]
        params = dict(learning_rate=float(np.exp(rng.uniform(np.log(0.04), np.log(0.2)))), max_depth=int(rng.integers(2, 8)),
                      min_child_weight=float(rng.choice([1, 3, 5, 10, 20])), subsample=float(rng.uniform(0.5, 1.0)),
                      colsample_bytree=float(rng.uniform(0.2, 0.9)), reg_lambda=float(np.exp(rng.uniform(np.log(0.3), np.log(30)))),
                      gamma=float(rng.choice([0, 0, 0.5, 1.0])))
        oof, fold_avg, best = np.zeros(n), np.zeros(len(test)), []
        for (a, b), (Xa, Xb, Xt) in zip(folds, data):
            m = xgb.XGBClassifier(n_estimators=500, n_jobs=1, tree_method="hist", early_stopping_rounds=30, eval_metric="logloss", random_state=0, **params)
            m.fit(Xa, y[a], eval_set=[(Xb, y[b])], verbose=False)
            it = (0, m.best_iteration + 1)
            best.append(m.best_iteration + 1)
            oof[b] = m.predict_proba(Xb, iteration_range=it)[:, 1]
            fold_avg += m.predict_proba(Xt, iteration_range=it)[:, 1] / FOLDS
        rounds = max(10, int(np.mean(best) * 1.1))
        desc = ", ".join(f"{k}={v:.3g}" for k, v in params.items())
        enter(f"xgb-search/draw{i:02d}", f"xgboost random-search draw {i} ({desc}; ~{int(np.mean(best))} rounds), {kind} features, "
              "fold models averaged", oof, fold_avg)
        refit = xgb.XGBClassifier(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=0, **params).fit(whole[0], y).predict_proba(whole[1])[:, 1]
        add(f"xgb-search/draw{i:02d}-refit", f"xgboost random-search draw {i} refit on all of train ({rounds} rounds), {kind} features "
            f"(CV AUC {auc(oof):.4f})", refit)
        draws.append((auc(oof), i, kind, params, rounds, oof, fold_avg, refit))
        print(f"  xgb draw {i}: CV {auc(oof):.4f}, {time.process_time() - started:.0f} CPU-s", flush=True)
    draws.sort(key=lambda d: -d[0])
    for top in [3, 5, 10]:
        enter(f"xgb-search/top{top}-avg", f"average of the {top} best xgboost draws by CV AUC, fold models",
              np.mean([d[5] for d in draws[:top]], axis=0), np.mean([d[6] for d in draws[:top]], axis=0))
        add(f"xgb-search/top{top}-refit-avg", f"average of the refits of the {top} best xgboost draws by CV AUC",
            np.mean([d[7] for d in draws[:top]], axis=0))
    for rank in range(5):
        score, i, kind, params, rounds, oof, fold_avg, _ = draws[rank]
        library[f"xgb-cv-rank{rank + 1}"] = (oof, fold_avg)
        whole = variants[kind][1]
        ps = [xgb.XGBClassifier(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=s, **params).fit(whole[0], y).predict_proba(whole[1])[:, 1]
              for s in range(1, 4)]
        add(f"xgb-search/cv-rank{rank + 1}-refit-3seeds", f"xgboost draw {i} (CV rank {rank + 1}) refit on all of train, 3 more seeds averaged "
            f"(CV AUC {score:.4f})", np.mean(ps, axis=0))
        add(f"xgb-search/cv-rank{rank + 1}-fold-and-seeds", f"xgboost draw {i} (CV rank {rank + 1}): fold models and 3 seed refits averaged",
            (np.mean(ps, axis=0) + fold_avg) / 2)
    print(f"xgboost search done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Blends (on ranks, since AUC only sees the order) and stacking.
    ranked = sorted(library, key=lambda k: -auc(library[k][0]))
    rank_of = lambda p: rankdata(p) / len(p)  # noqa: E731
    for top in [2, 3, 4, 5, 6, 8, 10, 12, 15, 20, len(ranked)]:
        members = ranked[:top]
        add(f"rank-blend/top{top}", "rank average of " + ", ".join(members), np.mean([rank_of(library[k][1]) for k in members], axis=0))
    families = {}
    for k in ranked:
        families.setdefault(k.split("/")[0].split("-")[0], k)
    fam = list(families.values())
    for top in [2, 3, 4, len(fam)]:
        members = fam[:top]
        add(f"rank-blend/families-top{top}", "rank average of the best model of each family: " + ", ".join(members),
            np.mean([rank_of(library[k][1]) for k in members], axis=0))

    # Pairs: each of the 20 best models by CV with the best model of another family, ranks averaged.
    for k in ranked[:20]:
        partner = next(m for m in ranked if m.split("/")[0].split("-")[0] != k.split("/")[0].split("-")[0])
        add(f"rank-blend/pair/{k}", f"rank average of {k} and {partner}", (rank_of(library[k][1]) + rank_of(library[partner][1])) / 2)

    def fold_ranks(oof):
        """Out-of-fold scores ranked within each fold, so that folds with differently scaled models mix fairly."""
        out = np.zeros(n)
        for _, b in folds:
            out[b] = rank_of(oof[b])
        return out

    O = np.column_stack([fold_ranks(library[k][0]) for k in ranked])
    T = np.column_stack([rank_of(library[k][1]) for k in ranked])
    for steps in [3, 5, 8, 10, 15, 20, 30]:
        chosen, total = [], np.zeros(n)
        for _ in range(steps):
            j = max(range(len(ranked)), key=lambda j: auc(total + O[:, j]))
            chosen.append(j)
            total += O[:, j]
        add(f"rank-blend/greedy-{steps}", f"greedy forward rank blend ({steps} steps, with replacement) on the out-of-fold predictions: "
            + ", ".join(sorted({ranked[j] for j in chosen})), T[:, chosen].mean(axis=1))
    for c in [0.01, 0.03, 0.1, 0.3, 1.0]:
        meta = LogisticRegression(C=c, max_iter=3000).fit(O, y)
        add(f"stack-logreg-C{c}", f"stacking: logistic regression (C={c}) on the out-of-fold ranks of {len(ranked)} models", meta.predict_proba(T)[:, 1])

    write_board(rows, OUT, lower_is_better=False, note=f" in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
