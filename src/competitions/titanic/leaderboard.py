#!/usr/bin/python3
"""Reference leaderboard for the offline `titanic` competition.

Trains a documented population of pipelines on the public train split (916 passengers), scores
each by accuracy on the private answers (393 passengers, so one passenger is 0.0025 of
accuracy and many entries tie), and writes src/competitions/titanic/leaderboard.csv (best
first). The scores form a *reference population* of pipelines, not a leaderboard of human
teams. Nothing but the final scoring reads the answers: every choice of hyper-parameters,
rounds, blend weights and stacking weights is made by cross-validation on train.

The population (about 600 entries), from the bottom of a Kaggle board to its top:

1. Trivial: everyone dies, a seeded coin, one-feature rules (sex; class; child; fare),
   the classic gender model and "women and first/second class".
2. Small budgets and badly regularised models: a seeded 5%, 10% or 25% sample of train with
   every standard model below; unpruned trees and 1-nearest-neighbour on any budget.
3. Standard pipelines, every combination of
   - feature sets "sex", "sex+class", "basic" (adds age with a fixed fill, siblings/spouses,
     parents/children, log fare) and "rich" (adds the port, the four common titles, family
     size, has-a-cabin);
   - models: logistic regression (C 0.001 ... 10), decision trees (depth 1 ... unlimited),
     random forests, extra trees, gradient boosting, AdaBoost, k-nearest neighbours, Gaussian
     naive Bayes, linear discriminant analysis, RBF support-vector machines;
   - budgets 50%, 75% and 100% of train.
4. Strong pipelines on hand-made features that use what is known about the sinking
   ("engineered"): title with rare titles pooled, age imputed by title, fare per person on a
   shared ticket, ticket-group and family sizes, cabin deck, ticket prefix, woman-or-child,
   class x sex, and the *group survival* features: for each passenger, whether the other
   members of their family (surname + fare) and ticket group in train survived (the labels
   of train only, the passenger's own label never; inside cross-validation the validation
   fold's labels are hidden too). On them:
   - the woman-child-group rule (Chris Deotte's): men die and women live, except boys whose
     family's women and boys all lived, and women whose family's women and boys all died,
     in several grouping variants;
   - logistic regression, SVMs, kNN, forests, extra trees, gradient boosting over grids;
   - xgboost tuned by random search (48 draws of learning rate, depth, child weight,
     subsampling, column sampling, L2, gamma) on 5-fold CV with early stopping; each draw is an
     entry (refit on all of train with the CV's mean best round count), and the best draws
     are also entered fold-averaged and averaged over seeds;
   - MLPs (scikit-learn), bagged over seeds;
   - soft and hard voting over model families, and stacking (logistic regression on the
     out-of-fold probabilities), with CV-chosen members.

Runtime: about 5 CPU-minutes, single-threaded (OMP/BLAS threads pinned to 1).

Usage (Debian's interpreter, which has scikit-learn and xgboost):
    node dist/cli/main.js prepare -c titanic --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/titanic/leaderboard.py /tmp/lb-data
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
                              RandomForestClassifier)
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import SVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board  # noqa: E402

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
FOLDS = 5
TITLES = {"Mlle": "Miss", "Ms": "Miss", "Mme": "Mrs"}


# ---------------------------------------------------------------- features

def raw_features(df, kind):
    """The standard feature sets of increasing richness (no knowledge of the sinking beyond the columns)."""
    out = pd.DataFrame(index=df.index)
    out["female"] = (df.Sex == "female").astype(float)
    if kind == "sex":
        return out
    out["pclass"] = df.Pclass.astype(float)
    if kind == "sex+class":
        return out
    out["age"] = df.Age.fillna(28.0)
    out["age_missing"] = df.Age.isna().astype(float)
    out["sibsp"] = df.SibSp.astype(float)
    out["parch"] = df.Parch.astype(float)
    out["fare"] = np.log1p(df.Fare.fillna(14.45))
    if kind == "basic":
        return out
    for port in ["C", "Q", "S"]:
        out["emb_" + port] = (df.Embarked == port).astype(float)
    title = df.Name.str.extract(r",\s*([^\.]+)\.")[0].fillna("")
    for t in ["Mr", "Mrs", "Miss", "Master"]:
        out["title_" + t] = (title == t).astype(float)
    out["family"] = out.sibsp + out.parch
    out["has_cabin"] = df.Cabin.notna().astype(float)
    return out


def titles(full):
    t = full.Name.str.extract(r",\s*([^\.]+)\.")[0].fillna("").replace(TITLES)
    return t.where(t.isin(["Mr", "Mrs", "Miss", "Master"]), "Rare")


def group_keys(full):
    """Family (surname + fare) and ticket groups over train and test passengers together."""
    surname = full.Name.str.split(",").str[0]
    fare = full.Fare.fillna(-1).round(2).astype(str)
    return {"family": (surname + "|" + fare).to_numpy(), "ticket": full.Ticket.to_numpy(),
            "surname-ticket": (surname + "|" + full.Ticket.str[:-1]).to_numpy()}


def group_survival(keys, labels):
    """Per passenger: 1 if another labelled member of one of its groups survived, 0 if others are
    labelled and all died, 0.5 when no other member is labelled. `labels` has NaN where unknown."""
    out = np.full(len(labels), 0.5)
    known = ~np.isnan(labels)
    for key in keys:
        frame = pd.DataFrame({"k": key, "y": np.where(known, labels, 0.0), "n": known.astype(float)})
        s = frame.groupby("k").y.transform("sum").to_numpy() - frame.y.to_numpy()
        c = frame.groupby("k").n.transform("sum").to_numpy() - frame.n.to_numpy()
        died = (c > 0) & (s == 0) & (out != 1.0)
        out[died] = 0.0
        out[s > 0] = 1.0
    return out


def engineered(full, labels, n_train):
    """The hand-made feature matrix for all passengers; `labels` (NaN where hidden) feeds the group features."""
    t = titles(full)
    train = full.iloc[:n_train]
    X = pd.DataFrame(index=full.index)
    X["female"] = (full.Sex == "female").astype(float)
    X["pclass"] = full.Pclass.astype(float)
    for k in ["Mr", "Mrs", "Miss", "Master", "Rare"]:
        X["t_" + k] = (t == k).astype(float)
    by_title = train.Age.groupby(t.iloc[:n_train]).median()
    X["age"] = full.Age.fillna(t.map(by_title)).fillna(28.0)
    X["age_missing"] = full.Age.isna().astype(float)
    X["child"] = (X.age < 14).astype(float)
    fam = full.SibSp + full.Parch + 1
    X["family"] = fam.astype(float)
    X["alone"] = (fam == 1).astype(float)
    X["big_family"] = (fam >= 5).astype(float)
    ticket_n = full.Ticket.map(full.Ticket.value_counts()).astype(float)
    X["ticket_n"] = ticket_n
    fare = full.Fare.fillna(train.Fare.median())
    X["log_fare"] = np.log1p(fare)
    X["log_fare_pp"] = np.log1p(fare / ticket_n)
    deck = full.Cabin.fillna("U").str[0]
    for d in "ABCDEFU":
        X["deck_" + d] = (deck == d).astype(float)
    for port in "CQS":
        X["emb_" + port] = (full.Embarked == port).astype(float)
    X["ticket_numeric"] = full.Ticket.str.match(r"^\d+$").astype(float)
    X["woman_child"] = ((full.Sex == "female") | (t == "Master")).astype(float)
    X["class_x_female"] = X.pclass * X.female
    keys = group_keys(full)
    X["group_survival"] = group_survival([keys["family"], keys["ticket"]], labels)
    X["family_survival"] = group_survival([keys["family"]], labels)
    X["ticket_survival"] = group_survival([keys["ticket"]], labels)
    return X


def wcg_rule(full, labels, key, rows):
    """The woman-child-group rule for `rows`: gender model, flipped for boys whose group's
    labelled women and boys all survived and for women whose group's labelled women and boys all died."""
    t = titles(full)
    wc = ((full.Sex == "female") | (t == "Master")).to_numpy()
    frame = pd.DataFrame({"k": key, "y": labels, "wc": wc})
    known = frame[frame.wc & frame.y.notna()]
    rate = known.groupby("k").y.mean()
    pred = (full.Sex == "female").astype(int).to_numpy()
    r = pd.Series(key).map(rate).to_numpy()
    boy = (t == "Master").to_numpy()
    female = (full.Sex == "female").to_numpy()
    pred = np.where(boy & (r == 1.0), 1, pred)
    pred = np.where(female & (r == 0.0), 0, pred)
    return pred[rows]


# ---------------------------------------------------------------- models

def standard_models():
    """(name, factory) for every standard model."""
    for c in [0.001, 0.01, 0.1, 1.0, 10.0]:
        yield f"logreg-C{c}", lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=2000))
    for depth in [1, 2, 3, 4, 6, 10, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeClassifier(max_depth=d, random_state=0)
    for n, depth in [(10, 3), (100, 4), (100, 8), (200, None)]:
        yield f"forest-n{n}-d{depth}", lambda n=n, d=depth: RandomForestClassifier(n_estimators=n, max_depth=d, random_state=0)
    yield "extra-trees-n100", lambda: ExtraTreesClassifier(n_estimators=100, random_state=0)
    for lr, depth in [(0.05, 2), (0.1, 3), (0.3, 5)]:
        yield f"gbm-lr{lr}-d{depth}", lambda lr=lr, d=depth: GradientBoostingClassifier(learning_rate=lr, max_depth=d, random_state=0)
    yield "adaboost", lambda: AdaBoostClassifier(random_state=0)
    for k in [1, 5, 15]:
        yield f"knn-k{k}", lambda k=k: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=k))
    yield "naive-bayes", GaussianNB
    yield "lda", LinearDiscriminantAnalysis
    yield "svm-rbf", lambda: make_pipeline(StandardScaler(), SVC())


def strong_models():
    """(name, factory, has predict_proba) for the models fitted on the engineered features."""
    for c in [0.03, 0.1, 0.3, 1.0, 3.0]:
        yield f"logreg-C{c}", lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=3000))
    for c, g in [(0.5, "scale"), (1.0, "scale"), (3.0, "scale"), (1.0, 0.02), (3.0, 0.02), (10.0, 0.01)]:
        yield f"svm-C{c}-g{g}", lambda c=c, g=g: make_pipeline(StandardScaler(), SVC(C=c, gamma=g, probability=True, random_state=0))
    for k in [7, 11, 17, 25]:
        yield f"knn-k{k}", lambda k=k: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=k, weights="distance"))
    for depth, leaf in [(5, 2), (7, 2), (9, 3), (None, 4)]:
        yield f"forest-d{depth}-leaf{leaf}", lambda d=depth, leaf=leaf: RandomForestClassifier(
            n_estimators=150, max_depth=d, min_samples_leaf=leaf, max_features="sqrt", random_state=0)
    for depth, leaf in [(6, 2), (8, 2), (None, 5)]:
        yield f"extra-trees-d{depth}-leaf{leaf}", lambda d=depth, leaf=leaf: ExtraTreesClassifier(
            n_estimators=150, max_depth=d, min_samples_leaf=leaf, random_state=0)
    for lr, depth, n in [(0.05, 2, 200), (0.05, 3, 150), (0.02, 3, 300), (0.1, 2, 100)]:
        yield f"gbm-lr{lr}-d{depth}-n{n}", lambda lr=lr, d=depth, n=n: GradientBoostingClassifier(
            learning_rate=lr, max_depth=d, n_estimators=n, subsample=0.8, random_state=0)
    for hidden, alpha in [((16,), 1.0), ((32,), 3.0), ((32, 16), 3.0)]:
        yield f"mlp-{'x'.join(map(str, hidden))}-a{alpha}", lambda h=hidden, a=alpha: make_pipeline(
            StandardScaler(), MLPClassifier(h, alpha=a, max_iter=1500, random_state=0))


def xgb_draws(count, seed):
    """Random-search draws of xgboost hyper-parameters."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield dict(learning_rate=float(np.exp(rng.uniform(np.log(0.01), np.log(0.3)))),
                   max_depth=int(rng.integers(2, 7)), min_child_weight=float(rng.choice([1, 2, 3, 5, 8])),
                   subsample=float(rng.uniform(0.5, 1.0)), colsample_bytree=float(rng.uniform(0.4, 1.0)),
                   reg_lambda=float(np.exp(rng.uniform(np.log(0.3), np.log(30)))), gamma=float(rng.choice([0, 0.1, 0.5, 1.0])))


def make_xgb(params, rounds, seed=0, early=None):
    return xgb.XGBClassifier(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=seed,
                             early_stopping_rounds=early, eval_metric="logloss", **params)


# ---------------------------------------------------------------- the population

def main(data_dir):
    started = time.process_time()
    pub = os.path.join(data_dir, "titanic", "prepared", "public")
    train = pd.read_csv(os.path.join(pub, "train.csv"))
    test = pd.read_csv(os.path.join(pub, "test.csv"))
    answers = pd.read_csv(os.path.join(data_dir, "titanic", "prepared", "private", "test.csv"))
    truth = test[["PassengerId"]].merge(answers, on="PassengerId", how="left").Survived.to_numpy()
    assert not np.isnan(truth.astype(float)).any(), "answers do not cover every test id"
    rows = []

    def add(team, pipeline, pred):
        pred = np.asarray(pred).astype(int)
        assert pred.shape == truth.shape
        rows.append({"teamName": team, "score": float((pred == truth).mean()), "pipeline": pipeline})

    # 1. Trivial rules.
    female = (test.Sex == "female").to_numpy()
    add("everyone-dies", "predict that everyone dies (the majority class)", np.zeros(len(test)))
    add("everyone-lives", "predict that everyone survives", np.ones(len(test)))
    for s in range(3):
        add(f"coin-{s}", f"a seeded fair coin (seed {s})", np.random.default_rng(s).integers(0, 2, len(test)))
        rate = train.Survived.mean()
        add(f"prior-coin-{s}", f"a seeded coin that says survived with the training rate {rate:.3f} (seed {s})",
            np.random.default_rng(100 + s).random(len(test)) < rate)
    add("first-class-lives", "first-class passengers survive, the rest die", test.Pclass == 1)
    add("children-live", "passengers under 10 survive, the rest die", test.Age.fillna(30) < 10)
    add("high-fare-lives", "passengers with a fare above 50 survive", test.Fare.fillna(0) > 50)
    add("gender-model", "women survive, men die (the gender model)", female)
    add("women-and-upper-class", "women survive, and men in first class", female | (test.Pclass == 1))
    add("women-not-third-class", "women in first and second class survive; everyone else dies", female & (test.Pclass < 3))
    add("women-and-boys", "women and boys under 10 survive", female | (test.Age.fillna(30) < 10))
    add("women-and-boys-not-third", "women survive except in third class; boys under 10 in first and second class survive",
        (female & (test.Pclass < 3)) | ((test.Age.fillna(30) < 10) & (test.Pclass < 3)))
    add("women-except-third-class-big-fare", "women survive, except third-class women with a fare above 20",
        female & ~((test.Pclass == 3) & (test.Fare.fillna(0) > 20)))

    # 2 and 3. Standard pipelines over feature sets and budgets; small budgets are the bottom.
    for budget in [0.05, 0.1, 0.25, 0.5, 0.75, 1.0]:
        sub = train.sample(frac=budget, random_state=7) if budget < 1 else train
        pct = int(budget * 100)
        for kind in ["sex", "sex+class", "basic", "rich"]:
            if budget < 0.25 and kind in ("sex",):
                continue
            x_train, x_test = raw_features(sub, kind), raw_features(test, kind)
            for name, factory in standard_models():
                if budget < 0.5 and name.startswith(("forest-n200", "extra", "gbm-lr0.3", "svm", "lda", "logreg-C0.001")):
                    continue
                if kind in ("sex", "sex+class") and name.startswith(("forest", "extra", "gbm", "knn-k1", "adaboost", "tree-d10", "tree-dNone", "tree-d6")):
                    continue  # one or two binary features: these all reduce to the same few rules
                pred = factory().fit(x_train, sub.Survived).predict(x_test)
                add(f"{name}/{kind}/{pct}pct", f"{name} on {kind} features, {pct}% of train", pred)
    print(f"standard done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 4. Strong pipelines on the engineered features.
    full = pd.concat([train.drop(columns="Survived"), test], ignore_index=True)
    n = len(train)
    y = train.Survived.to_numpy()
    labels = np.concatenate([y.astype(float), np.full(len(test), np.nan)])
    X_all = engineered(full, labels, n).to_numpy(dtype=float)
    X_train, X_test = X_all[:n], X_all[n:]
    folds = list(StratifiedKFold(FOLDS, shuffle=True, random_state=42).split(X_train, y))
    # Inside CV the validation fold's labels are hidden from the group features.
    fold_X = []
    for a, b in folds:
        masked = labels.copy()
        masked[b] = np.nan
        fold_X.append(engineered(full, masked, n).to_numpy(dtype=float)[:n])

    keys = group_keys(full)
    test_rows = np.arange(n, len(full))
    for kname in ["family", "ticket", "surname-ticket"]:
        add(f"woman-child-group/{kname}", f"woman-child-group rule, groups by {kname}",
            wcg_rule(full, labels, keys[kname], test_rows))
    combo = np.where(pd.Series(keys["family"]).map(pd.Series(keys["family"]).value_counts()).to_numpy() > 1,
                     keys["family"], keys["ticket"])
    add("woman-child-group/family-or-ticket", "woman-child-group rule, groups by family, falling back to ticket",
        wcg_rule(full, labels, combo, test_rows))

    def cv_fit(make, fit_kwargs=None):
        """Out-of-fold probabilities, fold-averaged test probabilities and refit test probabilities."""
        oof = np.zeros(n)
        fold_avg = np.zeros(len(test))
        for (a, b), Xf in zip(folds, fold_X):
            m = make().fit(Xf[a], y[a])
            oof[b] = m.predict_proba(Xf[b])[:, 1]
            fold_avg += m.predict_proba(X_test)[:, 1] / FOLDS
        refit = make().fit(X_train, y).predict_proba(X_test)[:, 1]
        return oof, fold_avg, refit

    def cv_acc(oof):
        return float(((oof > 0.5) == y).mean())

    library = {}  # name -> (oof, test probabilities) for the ensembles
    for name, factory in strong_models():
        oof, fold_avg, refit = cv_fit(factory)
        add(f"{name}/engineered", f"{name} on engineered features with group survival, all of train (CV acc {cv_acc(oof):.4f})", refit > 0.5)
        add(f"{name}/engineered/fold-avg", f"{name} on engineered features, average of the {FOLDS} CV-fold models (CV acc {cv_acc(oof):.4f})", fold_avg > 0.5)
        library[name] = (oof, refit)
    # The same models without the group features: engineered but label-free.
    no_group = [i for i, c in enumerate(engineered(full, labels, n).columns) if "survival" not in c]
    for name, factory in strong_models():
        if name.startswith(("knn", "svm-C10", "mlp-32x16", "extra-trees-dNone")):
            continue
        pred = factory().fit(X_train[:, no_group], y).predict(X_test[:, no_group])
        add(f"{name}/engineered-no-groups", f"{name} on engineered features without the group-survival features", pred)
    print(f"strong models done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # xgboost by random search on 5-fold CV with early stopping.
    draws = []
    for i, params in enumerate(xgb_draws(48, seed=2024)):
        oof = np.zeros(n)
        best = []
        for (a, b), Xf in zip(folds, fold_X):
            m = make_xgb(params, 1500, early=60).fit(Xf[a], y[a], eval_set=[(Xf[b], y[b])], verbose=False)
            best.append(m.best_iteration + 1)
            oof[b] = m.predict_proba(Xf[b], iteration_range=(0, m.best_iteration + 1))[:, 1]
        rounds = max(10, int(np.mean(best) * 1.1))
        refit = make_xgb(params, rounds).fit(X_train, y).predict_proba(X_test)[:, 1]
        draws.append((cv_acc(oof), -float(np.mean((oof - y) ** 2)), i, params, rounds, oof, refit))
        desc = ", ".join(f"{k}={v:.3g}" for k, v in params.items())
        add(f"xgb-search/draw{i:02d}", f"xgboost random-search draw {i} ({desc}; {rounds} rounds), engineered features, "
            f"CV acc {cv_acc(oof):.4f}", refit > 0.5)
    draws.sort(key=lambda d: (d[1], d[0]), reverse=True)  # by CV Brier score, then accuracy
    for top in [1, 3, 5, 10]:
        p = np.mean([d[6] for d in draws[:top]], axis=0)
        add(f"xgb-search/top{top}-avg", f"average of the {top} best xgboost draws by CV Brier score", p > 0.5)
    for rank in range(3):
        _, _, i, params, rounds, _, _ = draws[rank]
        ps = [make_xgb(params, rounds, seed=s).fit(X_train, y).predict_proba(X_test)[:, 1] for s in range(5)]
        add(f"xgb-search/cv-rank{rank + 1}-5seeds", f"xgboost draw {i} (CV rank {rank + 1}) averaged over 5 seeds", np.mean(ps, axis=0) > 0.5)
    library["xgb-best"] = (draws[0][5], draws[0][6])
    print(f"xgboost search done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Seed-bagged forests and MLPs.
    for s in range(6):
        rf = RandomForestClassifier(n_estimators=150, max_depth=7, min_samples_leaf=2, random_state=100 + s).fit(X_train, y)
        add(f"forest-d7/engineered/seed{s}", f"random forest (150 trees, depth 7) on engineered features, seed {s}", rf.predict(X_test))
    mlps = []
    for s in range(8):
        m = make_pipeline(StandardScaler(), MLPClassifier((32,), alpha=3.0, max_iter=1500, random_state=10 + s)).fit(X_train, y)
        mlps.append(m.predict_proba(X_test)[:, 1])
        add(f"mlp-32-a3/engineered/seed{s}", f"MLP (32 hidden, alpha 3) on engineered features, seed {s}", mlps[-1] > 0.5)
        if s in (2, 4, 7):
            add(f"mlp-32-a3/engineered/bag{s + 1}", f"MLP (32 hidden, alpha 3) bagged over {s + 1} seeds", np.mean(mlps, axis=0) > 0.5)

    # Ensembles: voting and stacking over the CV library.
    names = sorted(library, key=lambda k: cv_acc(library[k][0]), reverse=True)
    families = {}
    for k in names:
        families.setdefault(k.split("-")[0], k)  # the best member of each family by CV
    fam_best = list(families.values())
    for size in [3, 4, 5, len(fam_best)]:
        members = fam_best[:size]
        p = np.mean([library[k][1] for k in members], axis=0)
        add(f"soft-vote/top{size}-families", "soft vote of " + ", ".join(members), p > 0.5)
        v = np.mean([library[k][1] > 0.5 for k in members], axis=0)
        add(f"hard-vote/top{size}-families", "majority vote of " + ", ".join(members), v > 0.5)
    for size in [5, 10, 20, len(names)]:
        members = names[:size]
        p = np.mean([library[k][1] for k in members], axis=0)
        add(f"soft-vote/top{size}-cv", f"soft vote of the {size} best models by CV accuracy", p > 0.5)
    for size, c in [(len(fam_best), 1.0), (len(fam_best), 0.1), (10, 1.0), (len(names), 0.3), (len(names), 0.05)]:
        members = (fam_best if size == len(fam_best) else names)[:size]
        O = np.column_stack([library[k][0] for k in members])
        T = np.column_stack([library[k][1] for k in members])
        meta = LogisticRegression(C=c, max_iter=2000).fit(O, y)
        add(f"stack-logreg-C{c}/{len(members)}-models", f"stacking: logistic regression (C={c}) on out-of-fold probabilities of {len(members)} models",
            meta.predict(T))
    # Blend the woman-child-group rule with the best model: the rule overrides where confident.
    wcg = wcg_rule(full, labels, keys["family"], test_rows)
    for k in fam_best[:4]:
        p = library[k][1]
        add(f"wcg+{k}", f"woman-child-group rule, with {k} deciding the women and men not covered by a group", np.where((p > 0.8) | (p < 0.2), p > 0.5, wcg))

    write_board(rows, OUT, lower_is_better=False, note=f" in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
