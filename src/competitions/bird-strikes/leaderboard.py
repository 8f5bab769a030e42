#!/usr/bin/python3
"""Reference leaderboard for the offline `bird-strikes` competition.

Trains a documented population of pipelines on the public train split (6,989 strikes,
1990-1999), scores each by ROC AUC on the private answers (the 2,996 later strikes), and
writes leaderboard.csv beside this script (best first). The scores form a *reference
population* of pipelines, not a leaderboard of human teams. Nothing but the final scoring
reads the answers: every hyper-parameter, round count, blend and stacking weight is chosen by
stratified 5-fold cross-validation on train.

The population (about 600 entries), bottom to top:

1. Trivial: a constant; a seeded random score; one-column rules (wildlife size; phase;
   speed); the damage rate of the strike's size x phase cell in train.
2. Small budgets and badly regularised models: a seeded 2%, 5%, 10% or 20% sample of train
   with the standard models below; unpruned trees and few-neighbour kNN on any budget.
3. Standard pipelines, every combination of
   - feature sets "size", "size+phase", "basic" (adds time of day and the speed) and "rich"
     (adds species, aircraft, operator, airport and state, month and year), categorical
     columns one-hot encoded with levels seen fewer than 20 times pooled;
   - models: logistic regression (C 0.001 ... 10), decision trees (depth 1 ... unlimited),
     random forests, extra trees, gradient boosting, histogram gradient boosting, AdaBoost,
     k-nearest neighbours, Bernoulli naive Bayes;
   - budgets: 50% and 100% of train.
4. Strong pipelines on hand-made features that use what is known about strikes
   ("engineered"): the typical body mass of each species (from ornithology references: a
   starling weighs about 80 g, a Canada goose 3.6 kg, a white-tailed deer 70 kg), the impact's
   kinetic energy (mass x speed squared, the speed imputed by phase where missing), mammal and
   unidentified-species flags, the aircraft's class (military, wide-body, narrow-body,
   regional jet, turboprop, business jet, helicopter, piston), family (B-737 for B-737-300)
   and maker, military and business operators, the frequency of each category over train and
   test. Three versions of it: "engineered" (dense codes and numbers, label-free),
   "engineered+te" (plus out-of-fold smoothed target encodings of aircraft, family, operator,
   airport, species and state, fitted inside each CV fold) and "engineered-onehot" (one-hot
   codes with size x phase, class x size and speed-bin interactions, for linear models and
   MLPs). On them:
   - xgboost tuned by random search (30 draws of learning rate, depth, child weight,
     subsampling, column sampling, L2, gamma; a third on engineered+te) on 5-fold CV with
     early stopping; every draw is two entries (its fold models averaged on test; a refit on
     all of train with the CV's mean best round count), the best ones also seed-averaged;
   - random forests, extra trees and histogram gradient boosting over a small grid and the
     variants, each fold-averaged and refit; logistic regression on the one-hot version; MLPs
     bagged over seeds;
   - rank-average blends, greedy forward selection on the out-of-fold predictions (ranked
     within each fold), and stacking (logistic regression on out-of-fold ranks).

Runtime: about 6 CPU-minutes, single-threaded (OMP/BLAS threads pinned to 1).

Usage (Debian's interpreter, which has scikit-learn and xgboost):
    node dist/cli/main.js prepare -c bird-strikes --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/bird-strikes/leaderboard.py /tmp/lb-data
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
from sklearn.ensemble import (AdaBoostClassifier, ExtraTreesClassifier, GradientBoostingClassifier,  # noqa: E402
                              HistGradientBoostingClassifier, RandomForestClassifier)
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

# Categorical columns each standard feature set one-hot encodes (levels seen fewer than 20 times in the
# training rows are pooled), and whether it adds the speed and the date.
FEATURE_SETS = {
    "size": (["wildlife_size"], False, False),
    "size+phase": (["wildlife_size", "phase"], False, False),
    "basic": (["wildlife_size", "phase", "time_of_day"], True, False),
    "rich": (["wildlife_size", "phase", "time_of_day", "species", "aircraft", "operator", "airport", "state"], True, True),
}

# Typical adult body mass in kilograms (field-guide values, rounded); the unidentified classes get a
# representative mass for their reported size.
MASS_KG = {
    "Unknown bird - small": 0.05, "Unknown bird - medium": 0.4, "Unknown bird - large": 2.5, "Unknown bird or bat": 0.05,
    "European starling": 0.08, "Rock pigeon": 0.35, "Mourning dove": 0.12, "Canada goose": 3.6, "Red-tailed hawk": 1.1,
    "Ring-billed gull": 0.5, "American kestrel": 0.12, "Pacific golden-plover": 0.15, "Killdeer": 0.1, "Mallard": 1.1,
    "American robin": 0.08, "Herring gull": 1.1, "Barn owl": 0.5, "American crow": 0.45, "Barn swallow": 0.02,
    "White-tailed deer": 70.0, "Turkey vulture": 1.8, "Eastern meadowlark": 0.1, "Laughing gull": 0.3, "Coyote": 13.0,
    "Zebra dove": 0.05, "Great blue heron": 2.4, "Horned lark": 0.03, "Western meadowlark": 0.1, "Cattle egret": 0.35,
    "Tree swallow": 0.02, "Cliff swallow": 0.02, "Blackbirds": 0.07, "Meadowlarks": 0.1, "Short-eared owl": 0.35,
    "Chimney swift": 0.02, "Common nighthawk": 0.07, "Savannah sparrow": 0.02,
}
SIZE_MASS = {"Small": 0.05, "Medium": 0.4, "Large": 2.5}
MAMMALS = {"White-tailed deer", "Coyote"}

# Aircraft classes by the model designation's prefix, first match wins.
AIRCRAFT_CLASSES = [
    ("military", r"^(KC-|C-5|C-17|C-141|C-130|LOCKHEED C-130|HC-|MC-|EC-130|RC-|C-135|B-52|B-1B|E-\d|TC-|VC-|T-\d|F-\d|A-10|OA-10|A-7|P-3|C-21|C-9$)"),
    ("wide-body", r"^(B-747|B-767|B-777|DC-10|MD-11|L-1011|A-300|A-310)"),
    ("narrow-body", r"^(B-7[0-5]7|B-717|B-727|B-737|MD-[89]|DC-9|DC-8|A-3[12]|FOKKER|BA-146|AVRO)"),
    ("regional-jet", r"^(CL-RJ|EMB-1[34]|CL-6)"),
    ("turboprop", r"^(SAAB|EMB-1[12]|ATR|DHC|BA-31|BA-41|BA-ATP|BE-1900|DORNIER|SA22|SHORTS|CASA|CV-580|G-159|MERLIN|C-208|BE-[129]0|BE-300|RKWLTRBO|MU2)"),
    ("business-jet", r"^(LEARJET|CITATION|C-5[06]0|C-650|DA-|HAWKER|GULF|CHALLENGER|IAI|MU-300|BA-125|BE-400|RKWL SABR)"),
    ("helicopter", r"^(BELL|SIKORSKY|ROBINSON|HUGHES|AEROS|EC-135$)"),
]
CLASS_NAMES = [c for c, _ in AIRCRAFT_CLASSES] + ["piston"]
ENCODED = ["aircraft", "family", "operator", "airport", "species", "state", "aircraft_class"]


def aircraft_class(model):
    for name, pattern in AIRCRAFT_CLASSES:
        if re.match(pattern, model):
            return name
    return "piston"


def raw_features(train, test, kind):
    """Numeric matrices for train and test of a standard feature set, the encoding fitted on train alone."""
    cats, speed, date = FEATURE_SETS[kind]
    parts_train, parts_test = [], []
    for col in cats:
        counts = train[col].value_counts()
        for level in sorted(counts[counts >= 20].index):
            parts_train.append((train[col] == level).astype(float).rename(f"{col}={level}"))
            parts_test.append((test[col] == level).astype(float).rename(f"{col}={level}"))
    for df, parts in ((train, parts_train), (test, parts_test)):
        if speed:
            parts.append(df.speed_knots.fillna(train.speed_knots.median()).rename("speed"))
            parts.append(df.speed_knots.isna().astype(float).rename("speed_missing"))
        if date:
            when = pd.to_datetime(df.flight_date)
            parts.append(pd.Series(when.dt.month.astype(float), index=df.index, name="month"))
            parts.append(pd.Series((when.dt.year - 1990).astype(float), index=df.index, name="year"))
    return pd.concat(parts_train, axis=1).to_numpy(), pd.concat(parts_test, axis=1).to_numpy()


def engineered_base(full, n_train):
    """Label-free hand-made features (dense, for trees) and their one-hot companion (for linear models and MLPs)."""
    full = full.copy()
    full["family"] = full.aircraft.str.extract(r"^([A-Z]+[- ]?\d+)")[0].fillna(full.aircraft)
    full["maker"] = full.aircraft.str.extract(r"^([A-Z]+)")[0].fillna(full.aircraft)
    full["aircraft_class"] = full.aircraft.map(aircraft_class)
    train = full.iloc[:n_train]
    X = pd.DataFrame(index=full.index)
    mass = full.species.map(MASS_KG).fillna(full.wildlife_size.map(SIZE_MASS)).astype(float)
    X["log_mass"] = np.log(mass)
    X["size"] = full.wildlife_size.map({"Small": 0.0, "Medium": 1.0, "Large": 2.0})
    X["speed"] = full.speed_knots
    X["speed_missing"] = full.speed_knots.isna().astype(float)
    by_phase = train.groupby("phase").speed_knots.median()
    speed = full.speed_knots.fillna(full.phase.map(by_phase)).fillna(train.speed_knots.median())
    X["log_energy"] = np.log(0.5 * mass * (speed * 0.5144) ** 2 + 1e-3)
    X["mammal"] = full.species.isin(MAMMALS).astype(float)
    X["unidentified"] = full.species.str.startswith("Unknown").astype(float)
    X["military_operator"] = (full.operator == "MILITARY").astype(float)
    X["business_operator"] = (full.operator == "BUSINESS").astype(float)
    for c in CLASS_NAMES:
        X["class=" + c] = (full.aircraft_class == c).astype(float)
    when = pd.to_datetime(full.flight_date)
    X["year"] = (when.dt.year - 1990).astype(float)
    X["month"] = when.dt.month.astype(float)
    X["weekday"] = when.dt.dayofweek.astype(float)
    for c in ["time_of_day", "phase", "airport", "aircraft", "family", "maker", "operator", "state", "species"]:
        X["code_" + c] = pd.factorize(full[c], sort=True)[0].astype(float)
        X["freq_" + c] = full[c].map(full[c].value_counts()).astype(float)
    # One-hot companion for the linear models: categories, speed bins and two interactions.
    H = pd.DataFrame(index=full.index)
    speed_bin = pd.cut(speed, [-1, 20, 60, 100, 140, 180, 250, 2000]).astype(str)
    inter = {"size_x_phase": full.wildlife_size + "|" + full.phase, "class_x_size": full.aircraft_class + "|" + full.wildlife_size,
             "speed_bin": speed_bin, "speed_bin_x_size": speed_bin + "|" + full.wildlife_size}
    cols = {c: full[c] for c in ["time_of_day", "phase", "wildlife_size", "species", "aircraft", "family", "maker", "operator",
                                 "airport", "state", "aircraft_class"]}
    cols.update(inter)
    for name, values in cols.items():
        counts = values.iloc[:n_train].value_counts()
        for level in sorted(counts[counts >= 10].index):
            H[f"{name}={level}"] = (values == level).astype(float)
    for c in ["log_mass", "log_energy", "speed_missing", "mammal", "year"]:
        H[c] = X[c]
    return full, X, H


def target_encode(full, y, fit_rows, apply_rows, smoothing=20):
    out = {}
    for c in ENCODED:
        s = pd.DataFrame({"k": full[c].iloc[fit_rows].to_numpy(), "y": y[fit_rows]})
        g = s.groupby("k").y.agg(["sum", "count"])
        mean = s.y.mean()
        out["te_" + c] = full[c].iloc[apply_rows].map((g["sum"] + smoothing * mean) / (g["count"] + smoothing)).fillna(mean).to_numpy()
    return pd.DataFrame(out)


def with_encodings(base, full, y, fit_rows, apply_rows, inner_seed):
    """Rows `apply_rows` of base plus target encodings fitted on fit_rows (out-of-fold when they coincide)."""
    if np.array_equal(fit_rows, apply_rows):
        parts = []
        for a, b in StratifiedKFold(FOLDS, shuffle=True, random_state=inner_seed).split(fit_rows, y[fit_rows]):
            e = target_encode(full, y, fit_rows[a], fit_rows[b])
            e.index = b
            parts.append(e)
        enc = pd.concat(parts).sort_index()
    else:
        enc = target_encode(full, y, fit_rows, apply_rows)
    return np.column_stack([base.iloc[apply_rows].to_numpy(dtype=float), enc.to_numpy(dtype=float)])


def standard_models():
    """(name, factory) for every standard model; None is the constant prediction."""
    yield "constant", None
    for c in [0.001, 0.01, 0.1, 1.0, 10.0]:
        yield f"logreg-C{c}", lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=2000))
    for depth in [1, 2, 3, 4, 6, 10, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeClassifier(max_depth=d, min_samples_leaf=5, random_state=0)
    for n, depth in [(10, 3), (100, 4), (100, 8), (200, None)]:
        yield f"forest-n{n}-d{depth}", lambda n=n, d=depth: RandomForestClassifier(n_estimators=n, max_depth=d, min_samples_leaf=3, random_state=0)
    yield "extra-trees-n100", lambda: ExtraTreesClassifier(n_estimators=100, min_samples_leaf=3, random_state=0)
    for lr, depth in [(0.05, 2), (0.1, 3), (0.3, 5)]:
        yield f"gbm-lr{lr}-d{depth}", lambda lr=lr, d=depth: GradientBoostingClassifier(learning_rate=lr, max_depth=d, random_state=0)
    yield "hist-gbm", lambda: HistGradientBoostingClassifier(random_state=0)
    yield "adaboost", lambda: AdaBoostClassifier(random_state=0)
    for k in [5, 25, 100]:
        yield f"knn-k{k}", lambda k=k: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=k))
    yield "naive-bayes", BernoulliNB


def main(data_dir):
    started = time.process_time()
    root = os.path.join(data_dir, "bird-strikes", "prepared")
    train = pd.read_csv(os.path.join(root, "public", "train.csv"), keep_default_na=False, na_values=[""])
    test = pd.read_csv(os.path.join(root, "public", "test.csv"), keep_default_na=False, na_values=[""])
    answers = pd.read_csv(os.path.join(root, "private", "test.csv"))
    truth = test[["id"]].merge(answers, on="id", how="left").damaged.to_numpy()
    assert not np.isnan(truth.astype(float)).any(), "answers do not cover every test id"
    rows = []

    def add(team, pipeline, score):
        score = np.asarray(score, dtype=float)
        assert score.shape == truth.shape and np.isfinite(score).all(), team
        rows.append({"teamName": team, "score": float(roc_auc_score(truth, score)), "pipeline": pipeline})

    # 1. Trivial.
    y = train.damaged.to_numpy()
    add("constant", "the same score for every strike", np.full(len(test), y.mean()))
    for s in range(2):
        add(f"random-{s}", f"a seeded uniform random score (seed {s})", np.random.default_rng(s).random(len(test)))
    size = test.wildlife_size.map({"Small": 0, "Medium": 1, "Large": 2}).to_numpy()
    add("size-rule", "the reported wildlife size: small < medium < large", size)
    add("phase-rate", "the damage rate of the strike's phase of flight in train",
        test.phase.map(train.groupby("phase").damaged.mean()).fillna(y.mean()).to_numpy())
    add("speed-rule", "the speed (missing: the median)", test.speed_knots.fillna(train.speed_knots.median()).to_numpy())
    cell = train.groupby(["wildlife_size", "phase"]).damaged.agg(["sum", "count"])
    for alpha in [0, 20]:
        rate = (cell["sum"] + alpha * y.mean()) / (cell["count"] + alpha)
        keys = pd.MultiIndex.from_frame(test[["wildlife_size", "phase"]])
        add(f"size-x-phase-rate/a{alpha}", f"the damage rate of the strike's size x phase cell in train (smoothing {alpha})",
            pd.Series(rate.reindex(keys).to_numpy()).fillna(y.mean()).to_numpy())

    # 2 and 3. Standard pipelines over feature sets and budgets.
    for budget in [0.02, 0.05, 0.1, 0.2, 0.5, 1.0]:
        sub = train.sample(frac=budget, random_state=7) if budget < 1 else train
        pct = int(round(budget * 100))
        for kind in FEATURE_SETS:
            x_train, x_test = raw_features(sub, test, kind)
            for name, factory in standard_models():
                if factory is None:
                    if kind != "size":
                        continue  # a constant ignores features: one entry per budget
                    continue  # and scores 0.5 whatever the budget: entered once above
                if kind in ("size", "size+phase") and name.startswith(("forest", "extra", "gbm", "hist", "adaboost", "tree-d10", "tree-dNone", "knn-k100")):
                    continue  # a handful of binary columns: these reduce to the same lookup table
                if budget < 0.35 and name.startswith(("forest-n200", "extra", "gbm-lr0.05", "hist", "logreg-C0.001")):
                    continue
                if budget == 0.02 and kind == "rich":
                    continue
                pred = factory().fit(x_train, sub.damaged).predict_proba(x_test)[:, 1]
                add(f"{name}/{kind}/{pct}pct", f"{name} on {kind} features, {pct}% of train", pred)
    print(f"standard done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 4. Strong pipelines on the engineered features.
    full_raw = pd.concat([train.drop(columns="damaged"), test], ignore_index=True)
    n = len(train)
    full, base, onehot = engineered_base(full_raw, n)
    all_train, test_rows = np.arange(n), np.arange(n, len(full))
    folds = list(StratifiedKFold(FOLDS, shuffle=True, random_state=42).split(all_train, y))
    B = base.to_numpy(dtype=float)
    # Two dense variants: "engineered" (label-free) and "engineered+te" (plus target encodings fitted inside each fold).
    fold_plain = [(B[a], B[b], B[test_rows]) for a, b in folds]
    fold_te = [(with_encodings(base, full, y, a, a, k), with_encodings(base, full, y, a, b, k), with_encodings(base, full, y, a, test_rows, k))
               for k, (a, b) in enumerate(folds)]
    full_plain = (B[:n], B[test_rows])
    full_te = (with_encodings(base, full, y, all_train, all_train, 99), with_encodings(base, full, y, all_train, test_rows, 99))
    H = onehot.to_numpy(dtype=float)
    fold_onehot = [(H[a], H[b], H[test_rows]) for a, b in folds]
    full_onehot = (H[:n], H[test_rows])
    medians = np.nanmedian(B[:n], axis=0)

    def filled(X):
        """Missing engineered values (the speed) filled with train medians, for the models that need it; encodings have none."""
        head = X[:, :len(medians)]
        return np.column_stack([np.where(np.isnan(head), medians, head), X[:, len(medians):]])
    library = {}

    def auc(oof):
        """Mean of the per-fold AUCs (pooling folds would mix fold models' differing scales)."""
        return float(np.mean([roc_auc_score(y[b], oof[b]) for _, b in folds]))

    def enter(team, pipeline, oof, pred, keep=True):
        add(team, f"{pipeline} (CV AUC {auc(oof):.4f})", pred)
        if keep:
            library[team] = (oof, pred)

    def cv_run(make, data, whole, fill=False, refit=True):
        """Out-of-fold scores, fold-averaged test scores and a refit on all of train."""
        prep = filled if fill else (lambda X: X)
        oof, fold_avg = np.zeros(n), np.zeros(len(test))
        for (a, b), (Xa, Xb, Xt) in zip(folds, data):
            m = make().fit(prep(Xa), y[a])
            oof[b] = m.predict_proba(prep(Xb))[:, 1]
            fold_avg += m.predict_proba(prep(Xt))[:, 1] / FOLDS
        full_pred = make().fit(prep(whole[0]), y).predict_proba(prep(whole[1]))[:, 1] if refit else None
        return oof, fold_avg, full_pred

    variants = {"engineered": (fold_plain, full_plain), "engineered+te": (fold_te, full_te), "engineered-onehot": (fold_onehot, full_onehot)}
    dense = [
        ("forest-leaf1-mf0.3", lambda: RandomForestClassifier(n_estimators=120, min_samples_leaf=1, max_features=0.3, random_state=0), True,
         ["engineered", "engineered+te"]),
        ("forest-leaf3-mf0.2", lambda: RandomForestClassifier(n_estimators=120, min_samples_leaf=3, max_features=0.2, random_state=0), True,
         ["engineered", "engineered+te"]),
        ("forest-leaf8-mf0.4", lambda: RandomForestClassifier(n_estimators=120, min_samples_leaf=8, max_features=0.4, random_state=0), True,
         ["engineered"]),
        ("forest-leaf1-sqrt", lambda: RandomForestClassifier(n_estimators=120, min_samples_leaf=1, max_features="sqrt", random_state=0), False,
         ["engineered-onehot"]),
        ("forest-leaf2-sqrt", lambda: RandomForestClassifier(n_estimators=120, min_samples_leaf=2, max_features="sqrt", random_state=0), False,
         ["engineered-onehot"]),
        ("extra-trees-leaf2", lambda: ExtraTreesClassifier(n_estimators=120, min_samples_leaf=2, max_features=0.5, random_state=0), True,
         ["engineered", "engineered+te"]),
        ("hist-gbm-lr0.05", lambda: HistGradientBoostingClassifier(learning_rate=0.05, max_iter=250, max_leaf_nodes=15, min_samples_leaf=40,
                                                                   l2_regularization=1.0, random_state=0), False, ["engineered", "engineered+te"]),
        ("hist-gbm-lr0.03-d4", lambda: HistGradientBoostingClassifier(learning_rate=0.03, max_iter=400, max_depth=4, min_samples_leaf=30,
                                                                      l2_regularization=3.0, random_state=0), False, ["engineered", "engineered+te"]),
    ]
    for name, make, fill, kinds in dense:
        for kind in kinds:
            data, whole = variants[kind]
            oof, fold_avg, refit = cv_run(make, data, whole, fill=fill and kind != "engineered-onehot")
            enter(f"{name}/{kind}", f"{name} on {kind} features, {FOLDS} fold models averaged", oof, fold_avg)
            add(f"{name}/{kind}/refit", f"{name} on {kind} features, refit on all of train (CV AUC {auc(oof):.4f})", refit)
    for c in [0.03, 0.1, 0.3, 1.0]:
        oof, fold_avg, refit = cv_run(lambda c=c: LogisticRegression(C=c, max_iter=3000), fold_onehot, full_onehot)
        enter(f"logreg-C{c}/engineered-onehot", f"logistic regression (C={c}) on one-hot codes, interactions and engineered columns, refit", oof, refit)
        add(f"logreg-C{c}/engineered-onehot/fold-avg", f"logistic regression (C={c}) on the one-hot engineered set, fold models averaged", fold_avg)
    mlp_oof, mlp_pred = [], []
    for s in range(4):
        oof, fold_avg, _ = cv_run(lambda s=s: MLPClassifier((32,), alpha=3.0, learning_rate_init=0.003, max_iter=300, early_stopping=True,
                                                            random_state=s), fold_onehot, full_onehot, refit=False)
        mlp_oof.append(oof)
        mlp_pred.append(fold_avg)
        add(f"mlp-32/engineered-onehot/seed{s}", f"MLP (32 hidden, alpha 3) on the one-hot engineered set, fold models averaged, seed {s} "
            f"(CV AUC {auc(oof):.4f})", fold_avg)
    enter("mlp-32/engineered-onehot/bag4", "MLP (32 hidden) bagged over 4 seeds x 5 folds", np.mean(mlp_oof, axis=0), np.mean(mlp_pred, axis=0))
    print(f"strong models done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # xgboost by random search on 5-fold CV with early stopping, on each dense variant.
    rng = np.random.default_rng(1990)
    draws = []
    for i in range(30):
        kind = "engineered" if i % 3 else "engineered+te"
        data, whole = variants[kind]
        params = dict(learning_rate=float(np.exp(rng.uniform(np.log(0.02), np.log(0.2)))), max_depth=int(rng.integers(2, 8)),
                      min_child_weight=float(rng.choice([1, 3, 5, 10, 20])), subsample=float(rng.uniform(0.5, 1.0)),
                      colsample_bytree=float(rng.uniform(0.3, 1.0)), reg_lambda=float(np.exp(rng.uniform(np.log(0.3), np.log(30)))),
                      gamma=float(rng.choice([0, 0, 0.5, 1.0])))
        oof, fold_avg, best = np.zeros(n), np.zeros(len(test)), []
        for (a, b), (Xa, Xb, Xt) in zip(folds, data):
            m = xgb.XGBClassifier(n_estimators=800, n_jobs=1, tree_method="hist", early_stopping_rounds=40, eval_metric="logloss", random_state=0, **params)
            m.fit(Xa, y[a], eval_set=[(Xb, y[b])], verbose=False)
            it = (0, m.best_iteration + 1)
            best.append(m.best_iteration + 1)
            oof[b] = m.predict_proba(Xb, iteration_range=it)[:, 1]
            fold_avg += m.predict_proba(Xt, iteration_range=it)[:, 1] / FOLDS
        rounds = max(10, int(np.mean(best) * 1.1))
        desc = ", ".join(f"{k}={v:.3g}" for k, v in params.items())
        enter(f"xgb-search/draw{i:02d}", f"xgboost random-search draw {i} ({desc}; ~{int(np.mean(best))} rounds), {kind} features, "
              "fold models averaged", oof, fold_avg, keep=False)
        refit = xgb.XGBClassifier(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=0, **params).fit(whole[0], y).predict_proba(whole[1])[:, 1]
        add(f"xgb-search/draw{i:02d}-refit", f"xgboost random-search draw {i} refit on all of train ({rounds} rounds), {kind} features "
            f"(CV AUC {auc(oof):.4f})", refit)
        draws.append((auc(oof), i, kind, params, rounds, oof, fold_avg))
    draws.sort(key=lambda d: -d[0])
    for top in [3, 5, 10]:
        enter(f"xgb-search/top{top}-avg", f"average of the {top} best xgboost draws by CV AUC",
              np.mean([d[5] for d in draws[:top]], axis=0), np.mean([d[6] for d in draws[:top]], axis=0))
    for rank in range(3):
        score, i, kind, params, rounds, oof, fold_avg = draws[rank]
        library[f"xgb-cv-rank{rank + 1}"] = (oof, fold_avg)
        whole = variants[kind][1]
        ps = [xgb.XGBClassifier(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=s, **params).fit(whole[0], y).predict_proba(whole[1])[:, 1]
              for s in range(1, 4)]
        add(f"xgb-search/cv-rank{rank + 1}-refit-3seeds", f"xgboost draw {i} (CV rank {rank + 1}) refit on all of train, 3 more seeds averaged "
            f"(CV AUC {score:.4f})", np.mean(ps, axis=0))
    print(f"xgboost search done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Blends (on ranks, since AUC only sees the order) and stacking.
    ranked = sorted(library, key=lambda k: -auc(library[k][0]))
    rank_of = lambda p: rankdata(p) / len(p)  # noqa: E731
    for top in [2, 3, 5, 8, len(ranked)]:
        members = ranked[:top]
        add(f"rank-blend/top{top}", "rank average of " + ", ".join(members), np.mean([rank_of(library[k][1]) for k in members], axis=0))
    families = {}
    for k in ranked:
        families.setdefault(k.split("/")[0].split("-")[0], k)
    fam = list(families.values())
    for top in [2, 3, len(fam)]:
        members = fam[:top]
        add(f"rank-blend/families-top{top}", "rank average of the best model of each family: " + ", ".join(members),
            np.mean([rank_of(library[k][1]) for k in members], axis=0))

    def fold_ranks(oof):
        """Out-of-fold scores ranked within each fold, so that folds with differently scaled models mix fairly."""
        out = np.zeros(n)
        for _, b in folds:
            out[b] = rank_of(oof[b])
        return out

    O = np.column_stack([fold_ranks(library[k][0]) for k in ranked])
    T = np.column_stack([rank_of(library[k][1]) for k in ranked])
    for steps in [5, 10, 20]:
        chosen, total = [], np.zeros(n)
        for _ in range(steps):
            j = max(range(len(ranked)), key=lambda j: auc(total + O[:, j]))
            chosen.append(j)
            total += O[:, j]
        add(f"rank-blend/greedy-{steps}", f"greedy forward rank blend ({steps} steps, with replacement) on the out-of-fold predictions: "
            + ", ".join(sorted({ranked[j] for j in chosen})), T[:, chosen].mean(axis=1))
    for c in [0.1, 1.0]:
        meta = LogisticRegression(C=c, max_iter=3000).fit(O, y)
        add(f"stack-logreg-C{c}", f"stacking: logistic regression (C={c}) on the out-of-fold ranks of {len(ranked)} models", meta.predict_proba(T)[:, 1])

    write_board(rows, OUT, lower_is_better=False, note=f" in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
