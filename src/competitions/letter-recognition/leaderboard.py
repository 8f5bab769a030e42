#!/usr/bin/python3
"""Reference leaderboard for the offline `letter-recognition` competition.

Trains a documented population of pipelines on the public train split (13,067 letter-image
records, 16 integer features), scores each by accuracy on the private answers (5,601 records),
and writes leaderboard.csv beside this script (best first). The scores form a *reference
population* of pipelines, not a leaderboard of human teams. Nothing but the final scoring reads
the answers: every hyper-parameter, round count and blend weight of the strong entries is chosen
on a stratified 20% hold-out of train.

The population (about 650 entries), bottom to top:

1. Trivial: one constant letter (each of the 26); seeded random letters (uniform, and drawn
   from the training frequencies); the majority letter for each value of one feature (each of
   the 16) or of a pair of features; nearest centroids.
2. Standard pipelines, every combination of
   - feature sets "box" (position and size of the box, on-pixel count), "moments" (the seven
     pixel moments), "edges" (the four edge statistics), "box+moments" and "all" (the 16);
   - models: naive Bayes, linear and quadratic discriminant analysis, logistic regression,
     decision trees (depth 2 ... unlimited), k-nearest neighbours on standardised features,
     random forests and extra trees (100 trees); on the richer sets also a linear SVM and an
     RBF SVM with default settings, and on all 16 a small histogram gradient boosting and a
     small scikit-learn MLP;
   - budgets: a stratified 5%, 10%, 25%, 50% or 100% of train.
3. Strong pipelines on all 16 features, standardised, and on hand-made shape features added to
   them (box area and aspect ratio, ink density, the mean position relative to the box size,
   the ratios of the spreads and of the edge counts):
   - an RBF SVM over a 3 x 3 grid of C and gamma fit on 80% of train, the best three cells by
     hold-out accuracy refit on all of train, the best also on the engineered features;
   - k-nearest neighbours (k 1 ... 9, plain and distance votes) on raw, standardised and
     engineered features;
   - extra trees (500 trees, also with half the features per split) and a 300-tree forest;
   - xgboost tuned by random search (learning rate, depth, child weight, subsampling, column
     sampling, L2) with early stopping on the hold-out, the best draw refit on all of train;
   - torch MLPs (two hidden layers of 256 or 512, dropout, AdamW, one-cycle schedule, label
     smoothing) over seeds, fit on 80% and refit on all of train, and their seed averages;
   - soft-vote blends of the SVM (softmaxed decision values), kNN, extra trees, xgboost and
     the MLPs: the best by hold-out accuracy, the best of each family, and greedy forward
     selection on the hold-out.
4. A wider search around the strong families, the part of the field a Kaggle leaderboard on
   this data fills with many strong teams:
   - the whole RBF-SVM grid (C 1 ... 100 x gamma 0.05 ... 0.4, 25 cells), each cell fit on
     80% of train and refit on all of train; a 3 x 3 grid on the engineered features the same
     way; one SVM bagged over five seeded 80% subsamples;
   - extra trees and random forests with more trees, other numbers of features per split and
     entropy splits, on both feature sets;
   - more torch MLP seeds, a third hidden layer, 80 epochs, more dropout, the raw 16 features
     as input, and their seed averages;
   - blends of the widened library: top-k averages, every pair and triple of the family
     leaders, greedy forward selection, and a logistic regression stacked on the hold-out
     log-probabilities (its C chosen by cross-validation within the hold-out).

Runtime: about 28 CPU-minutes (9 for sections 1-3), single-threaded (OMP/BLAS and torch threads
pinned to 1).

Usage (Debian's interpreter, which has scikit-learn, xgboost and torch):
    node dist/cli/main.js prepare -c letter-recognition --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/letter-recognition/leaderboard.py /tmp/lb-data
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402
import xgboost as xgb  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis  # noqa: E402
from sklearn.ensemble import ExtraTreesClassifier, HistGradientBoostingClassifier, RandomForestClassifier  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import cross_val_score, train_test_split  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import SVC, LinearSVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board  # noqa: E402

warnings.filterwarnings("ignore")
torch.set_num_threads(1)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
LETTERS = [chr(ord("A") + k) for k in range(26)]
BOX = ["x_box", "y_box", "width", "height", "onpix"]
MOMENTS = ["x_bar", "y_bar", "x2_bar", "y2_bar", "xy_bar", "x2y_bar", "xy2_bar"]
EDGES = ["x_edge", "x_edge_y", "y_edge", "y_edge_x"]
FEATURES = BOX + MOMENTS + EDGES
FEATURE_SETS = {"box": BOX, "moments": MOMENTS, "edges": EDGES, "box+moments": BOX + MOMENTS, "all": FEATURES}


def scaled(model):
    return make_pipeline(StandardScaler(), model)


def standard_models(kind):
    """(name, factory) of the standard models run on a feature set; the slow ones only on the richer sets."""
    yield "naive-bayes", GaussianNB
    yield "lda", LinearDiscriminantAnalysis
    yield "qda", lambda: QuadraticDiscriminantAnalysis(reg_param=0.01)
    for c in [0.01, 1.0]:
        yield f"logreg-C{c}", lambda c=c: scaled(LogisticRegression(C=c, max_iter=1000))
    for depth in [2, 4, 8, 12, None]:
        yield f"tree-d{depth}", lambda depth=depth: DecisionTreeClassifier(max_depth=depth, random_state=0)
    for k in [1, 5, 15]:
        yield f"knn-k{k}", lambda k=k: scaled(KNeighborsClassifier(n_neighbors=k))
    yield "forest-n100", lambda: RandomForestClassifier(n_estimators=100, random_state=0)
    yield "extra-trees-n100", lambda: ExtraTreesClassifier(n_estimators=100, random_state=0)
    if kind in ("box+moments", "all"):
        yield "linear-svm", lambda: scaled(LinearSVC(C=1.0, dual=False))
        yield "svm-rbf-default", lambda: scaled(SVC())
    if kind == "all":
        yield "hist-gbm", lambda: HistGradientBoostingClassifier(max_iter=50, random_state=0)
        yield "mlp-100", lambda: scaled(MLPClassifier((100,), max_iter=100, early_stopping=True, random_state=0))


def engineered(df):
    """The 16 features plus shape features a person would derive from the box and the moments."""
    out = df[FEATURES].astype(float).copy()
    w, h = df.width + 1.0, df.height + 1.0
    out["area"] = w * h
    out["aspect"] = w / h
    out["density"] = (df.onpix + 1.0) / (w * h)
    out["x_bar_rel"] = (df.x_bar - 7.0) / w
    out["y_bar_rel"] = (df.y_bar - 7.0) / h
    out["spread_ratio"] = (df.x2_bar + 1.0) / (df.y2_bar + 1.0)
    out["edge_ratio"] = (df.x_edge + 1.0) / (df.y_edge + 1.0)
    return out.to_numpy(dtype=float)


class TorchMLP:
    """A plain feed-forward classifier: standardised inputs, ReLU layers with dropout, AdamW with a cosine schedule."""

    def __init__(self, hidden=(512, 512), dropout=0.1, epochs=60, lr=3e-3, weight_decay=1e-4, batch=128, seed=0):
        self.hidden, self.dropout, self.epochs, self.lr, self.wd, self.batch, self.seed = hidden, dropout, epochs, lr, weight_decay, batch, seed

    def fit(self, X, y):
        torch.manual_seed(self.seed)
        self.mu, self.sd = X.mean(axis=0), X.std(axis=0) + 1e-9
        Xt = torch.tensor((X - self.mu) / self.sd, dtype=torch.float32)
        yt = torch.tensor(y, dtype=torch.long)
        layers, width = [], X.shape[1]
        for h in self.hidden:
            layers += [torch.nn.Linear(width, h), torch.nn.ReLU(), torch.nn.Dropout(self.dropout)]
            width = h
        self.net = torch.nn.Sequential(*layers, torch.nn.Linear(width, len(LETTERS)))
        opt = torch.optim.AdamW(self.net.parameters(), lr=self.lr, weight_decay=self.wd)
        steps = self.epochs * ((len(X) + self.batch - 1) // self.batch)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=self.lr, total_steps=steps, pct_start=0.2)
        gen = torch.Generator().manual_seed(self.seed)
        loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
        self.net.train()
        for _ in range(self.epochs):
            perm = torch.randperm(len(X), generator=gen)
            for i in range(0, len(X), self.batch):
                idx = perm[i:i + self.batch]
                opt.zero_grad()
                loss_fn(self.net(Xt[idx]), yt[idx]).backward()
                opt.step()
                sched.step()
        return self

    def predict_proba(self, X):
        self.net.eval()
        with torch.no_grad():
            return torch.softmax(self.net(torch.tensor((X - self.mu) / self.sd, dtype=torch.float32)), dim=1).numpy()


def main(data_dir):
    started = time.process_time()
    root = os.path.join(data_dir, "letter-recognition", "prepared")
    # No cell is missing, and "NA" must stay text should a class ever be spelled so.
    train = pd.read_csv(os.path.join(root, "public", "train.csv"), keep_default_na=False)
    test = pd.read_csv(os.path.join(root, "public", "test.csv"), keep_default_na=False)
    answers = pd.read_csv(os.path.join(root, "private", "test.csv"), keep_default_na=False)
    truth = test[["id"]].merge(answers, on="id", how="left").char.to_numpy()
    assert (pd.Series(truth).isin(LETTERS)).all(), "answers do not cover every test id"
    code = {letter: k for k, letter in enumerate(LETTERS)}
    y = train.char.map(code).to_numpy()
    truth_code = np.array([code[t] for t in truth])
    rows, names = [], set()

    def add(team, pipeline, pred):
        """Enter class codes (or a probability matrix, its argmax) scored by accuracy."""
        pred = np.asarray(pred)
        if pred.ndim == 2:
            pred = pred.argmax(axis=1)
        assert pred.shape == truth_code.shape, team
        # write_board keeps the first of two rows with one name, which would silently drop an entry.
        assert team not in names, team
        names.add(team)
        rows.append({"teamName": team, "score": float((pred == truth_code).mean()), "pipeline": pipeline})

    def lap(what):
        print(f"{what}: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 1. Trivial.
    for k, letter in enumerate(LETTERS):
        add(f"constant-{letter}", f"the letter {letter} for every record", np.full(len(test), k))
    prior = np.bincount(y, minlength=26) / len(y)
    for s in range(3):
        rng = np.random.default_rng(s)
        add(f"random-uniform-{s}", f"a seeded uniformly random letter (seed {s})", rng.integers(0, 26, len(test)))
        add(f"random-prior-{s}", f"a seeded random letter drawn from the training frequencies (seed {s})", rng.choice(26, len(test), p=prior))
    majority = int(np.argmax(prior))

    def lookup(cols):
        """The majority training letter of each combination of the columns' values (the overall majority where unseen)."""
        key_train = train[cols].astype(str).agg("-".join, axis=1)
        key_test = test[cols].astype(str).agg("-".join, axis=1)
        table = pd.Series(y).groupby(key_train.to_numpy()).agg(lambda s: s.value_counts().idxmax())
        return key_test.map(table).fillna(majority).astype(int).to_numpy()

    for c in FEATURES:
        add(f"one-feature/{c}", f"the majority letter for each value of {c}", lookup([c]))
    pairs = [("width", "height"), ("x_bar", "y_bar"), ("x2_bar", "y2_bar"), ("x_edge", "y_edge"), ("x_edge_y", "y_edge_x"),
             ("xy_bar", "x2y_bar"), ("onpix", "xy2_bar"), ("y_bar", "x2y_bar"), ("x2y_bar", "xy2_bar"), ("x_edge", "y_edge_x"),
             ("y2_bar", "x_edge_y"), ("xy_bar", "y_edge_x")]
    for a, b in pairs:
        add(f"two-features/{a}+{b}", f"the majority letter for each combination of {a} and {b}", lookup([a, b]))
    X_all, Xt_all = train[FEATURES].to_numpy(float), test[FEATURES].to_numpy(float)
    add("nearest-centroid", "nearest letter centroid on the raw features", NearestCentroid().fit(X_all, y).predict(Xt_all))
    add("nearest-centroid/scaled", "nearest letter centroid on standardised features", scaled(NearestCentroid()).fit(X_all, y).predict(Xt_all))
    lap("trivial done")

    # 2. Standard pipelines over feature sets and budgets.
    for budget in [0.05, 0.1, 0.25, 0.5, 1.0]:
        if budget < 1:
            sub, _ = train_test_split(np.arange(len(train)), train_size=budget, stratify=y, random_state=7)
            sub = np.sort(sub)
        else:
            sub = np.arange(len(train))
        pct = int(round(budget * 100))
        for kind, cols in FEATURE_SETS.items():
            Xs, Xt = train[cols].to_numpy(float)[sub], test[cols].to_numpy(float)
            for name, factory in standard_models(kind):
                add(f"{name}/{kind}/{pct}pct", f"{name} on the {kind} features, {pct}% of train", factory().fit(Xs, y[sub]).predict(Xt))
        lap(f"standard {pct}% done")

    # 3. Strong pipelines, selected on a stratified 20% hold-out of train.
    fit_rows, hold_rows = train_test_split(np.arange(len(train)), test_size=0.2, stratify=y, random_state=42)
    E, Et = engineered(train), engineered(test)
    scaler = StandardScaler().fit(X_all)
    S, St = scaler.transform(X_all), scaler.transform(Xt_all)
    escaler = StandardScaler().fit(E)
    SE, SEt = escaler.transform(E), escaler.transform(Et)
    y_fit, y_hold = y[fit_rows], y[hold_rows]
    library = {}  # name -> (hold-out probabilities, test probabilities)

    def hold_acc(p):
        return float((np.asarray(p).argmax(axis=1) == y_hold).mean()) if np.ndim(p) == 2 else float((p == y_hold).mean())

    def svm_scores(m, A):
        """The SVM's one-vs-rest decision values as a softmax, a stand-in for probabilities in the blends (Platt scaling costs 5 more fits)."""
        d = m.decision_function(A) * 2.0
        d = np.exp(d - d.max(axis=1, keepdims=True))
        return d / d.sum(axis=1, keepdims=True)

    # RBF SVM grid on the standardised features, fit on 80% of train; the hold-out picks the cells refit on all of train.
    svm_hold = {}
    for c in [3.0, 10.0, 30.0]:
        for g in [0.1, 0.2, 0.4]:
            m = SVC(C=c, gamma=g).fit(S[fit_rows], y_fit)
            svm_hold[(c, g)] = (svm_scores(m, S[hold_rows]), svm_scores(m, St))
            add(f"svm-rbf/C{c:g}-g{g:g}/fit80", f"RBF SVM (C={c:g}, gamma={g:g}) on standardised features, fit on 80% of train "
                f"(hold-out accuracy {hold_acc(svm_hold[(c, g)][0]):.4f})", svm_hold[(c, g)][1])
    cells = sorted(svm_hold, key=lambda k: -hold_acc(svm_hold[k][0]))
    library["svm-rbf"] = svm_hold[cells[0]]
    for rank, (c, g) in enumerate(cells[:3]):
        add(f"svm-rbf/C{c:g}-g{g:g}", f"RBF SVM (C={c:g}, gamma={g:g}; hold-out rank {rank + 1}) on standardised features, refit on all of train",
            SVC(C=c, gamma=g).fit(S, y).predict(St))
    c, g = cells[0]
    add("svm-rbf/engineered", f"RBF SVM at the hold-out's best cell (C={c:g}, gamma={g:g} per 16 features) on the standardised engineered "
        "features, all of train", SVC(C=c, gamma=g * 16 / SE.shape[1]).fit(SE, y).predict(SEt))
    lap("svm done")

    # k-nearest neighbours on several spaces.
    spaces = {"scaled": (S, St), "engineered": (SE, SEt), "raw": (X_all, Xt_all)}
    for space, (A, At) in spaces.items():
        for k in [1, 3, 5, 7, 9]:
            for weights in ["uniform", "distance"]:
                if k == 1 and weights == "distance":
                    continue
                m = KNeighborsClassifier(n_neighbors=k, weights=weights).fit(A, y)
                add(f"knn/{space}/k{k}-{weights}", f"{k}-nearest neighbours ({weights} votes) on {space} features, all of train", m.predict(At))
    knn = KNeighborsClassifier(n_neighbors=5, weights="distance")
    library["knn-raw-k5"] = (knn.fit(X_all[fit_rows], y_fit).predict_proba(X_all[hold_rows]), knn.fit(X_all, y).predict_proba(Xt_all))
    lap("knn done")

    # Tree ensembles.
    m = ExtraTreesClassifier(n_estimators=500, random_state=0).fit(X_all[fit_rows], y_fit)
    hold = m.predict_proba(X_all[hold_rows])
    add("extra-trees-n500/all/fit80", f"extra trees (500) on the 16 features, 80% of train (hold-out accuracy {hold_acc(hold):.4f})", m.predict_proba(Xt_all))
    library["extra-trees-n500"] = (hold, ExtraTreesClassifier(n_estimators=500, random_state=0).fit(X_all, y).predict_proba(Xt_all))
    add("extra-trees-n500/all", "extra trees (500) on the 16 features, all of train", library["extra-trees-n500"][1])
    et_eng_full = ExtraTreesClassifier(n_estimators=500, max_features=0.5, random_state=0).fit(E, y).predict_proba(Et)
    add("extra-trees-n500-mf0.5/engineered", "extra trees (500, half the features per split) on the engineered features, all of train",
        et_eng_full)
    add("forest-n300/all", "random forest (300) on the 16 features, all of train",
        RandomForestClassifier(n_estimators=300, random_state=0).fit(X_all, y).predict(Xt_all))
    lap("tree ensembles done")

    # xgboost by random search with early stopping on the hold-out.
    rng = np.random.default_rng(1991)
    draws = []
    for i in range(3):
        params = dict(learning_rate=float(np.exp(rng.uniform(np.log(0.1), np.log(0.3)))), max_depth=int(rng.integers(4, 9)),
                      min_child_weight=float(rng.choice([1, 2, 5])), subsample=float(rng.uniform(0.6, 1.0)),
                      colsample_bytree=float(rng.uniform(0.5, 1.0)), reg_lambda=float(np.exp(rng.uniform(np.log(0.3), np.log(10)))))
        m = xgb.XGBClassifier(n_estimators=400, n_jobs=1, tree_method="hist", early_stopping_rounds=20, eval_metric="mlogloss",
                              random_state=0, **params)
        m.fit(E[fit_rows], y_fit, eval_set=[(E[hold_rows], y_hold)], verbose=False)
        it = (0, m.best_iteration + 1)
        hold = m.predict_proba(E[hold_rows], iteration_range=it)
        desc = ", ".join(f"{k}={v:.3g}" for k, v in params.items())
        add(f"xgb-search/draw{i}", f"xgboost draw {i} ({desc}; {m.best_iteration + 1} rounds) on engineered features, 80% of train "
            f"(hold-out accuracy {hold_acc(hold):.4f})", m.predict_proba(Et, iteration_range=it))
        draws.append((hold_acc(hold), i, params, m.best_iteration + 1, hold))
    acc, i, params, rounds, hold = max(draws, key=lambda d: d[0])
    full = xgb.XGBClassifier(n_estimators=int(rounds * 1.15), n_jobs=1, tree_method="hist", random_state=0, **params).fit(E, y).predict_proba(Et)
    library["xgb-best"] = (hold, full)
    add("xgb-search/best-refit", f"xgboost draw {i} (best on the hold-out, accuracy {acc:.4f}) refit on all of train ({int(rounds * 1.15)} rounds)", full)
    lap("xgboost done")

    # Torch MLPs on the engineered features: fit on 80% (the hold-out feeds the blends), and refit on all of train.
    mlp_runs = {}  # kept so that section 4 can add seeds to these families without retraining the ones here
    for name, cfg, seeds, refits in [("mlp-256x2", dict(hidden=(256, 256)), 3, 3), ("mlp-512x2", dict(hidden=(512, 512)), 1, 1)]:
        holds, tests, fulls = [], [], []
        for s in range(seeds):
            m = TorchMLP(seed=s, epochs=40, batch=256, **cfg).fit(E[fit_rows], y_fit)
            holds.append(m.predict_proba(E[hold_rows]))
            tests.append(m.predict_proba(Et))
            add(f"{name}/seed{s}/fit80", f"torch MLP {cfg['hidden']} (dropout 0.1) on engineered features, 80% of train, seed {s} "
                f"(hold-out accuracy {hold_acc(holds[-1]):.4f})", tests[-1])
        for s in range(refits):
            fulls.append(TorchMLP(seed=s, epochs=40, batch=256, **cfg).fit(E, y).predict_proba(Et))
            add(f"{name}/seed{s}", f"torch MLP {cfg['hidden']} on engineered features, all of train, seed {s}", fulls[-1])
        library[name] = (np.mean(holds, axis=0), np.mean(fulls, axis=0))
        mlp_runs[name] = (holds, tests, fulls)
        if seeds > 1:
            add(f"{name}/bag{seeds}/fit80", f"torch MLP {cfg['hidden']}, {seeds} seeds fit on 80% of train averaged "
                f"(hold-out accuracy {hold_acc(library[name][0]):.4f})", np.mean(tests, axis=0))
            add(f"{name}/bag{refits}", f"torch MLP {cfg['hidden']}, {refits} seeds refit on all of train averaged", library[name][1])
        lap(f"{name} done")

    # Soft-vote blends on the hold-out probabilities.
    ranked = sorted(library, key=lambda k: -hold_acc(library[k][0]))
    for top in sorted({2, 3, 5, len(ranked)}):
        members = ranked[:top]
        add(f"blend/top{top}", "probability average of " + ", ".join(members), np.mean([library[k][1] for k in members], axis=0))
    families = {}
    for k in ranked:
        families.setdefault(k.split("/")[0].split("-")[0], k)
    fam = list(families.values())
    for top in [2, 3, len(fam)]:
        members = fam[:top]
        add(f"blend/families-top{top}", "probability average of the best model of each family: " + ", ".join(members),
            np.mean([library[k][1] for k in members], axis=0))
    for steps in [5, 10, 20]:
        chosen, total = [], np.zeros_like(library[ranked[0]][0])
        for _ in range(steps):
            j = max(ranked, key=lambda k: hold_acc(total + library[k][0]) + 1e-4 * np.log(library[k][0][np.arange(len(y_hold)), y_hold] + 1e-9).mean())
            chosen.append(j)
            total += library[j][0]
        add(f"blend/greedy-{steps}", f"greedy forward blend ({steps} steps, with replacement) on the hold-out: " + ", ".join(sorted(set(chosen))),
            np.mean([library[k][1] for k in chosen], axis=0))

    lap("blends done")

    # 4. A wider search around the strong families, as a field with many strong teams would run it. It comes after the
    # blends above so that they, and every row before them, stay as they were; its own blends draw on `wide`.
    wide = dict(library)

    # The whole RBF grid: each cell fit on 80% of train, and every cell refit on all of train (the hold-out rank says
    # which a team selecting on it would have kept).
    grid = dict(svm_hold)
    for c in [1.0, 3.0, 10.0, 30.0, 100.0]:
        for g in [0.05, 0.1, 0.2, 0.3, 0.4]:
            if (c, g) in grid:
                continue
            m = SVC(C=c, gamma=g).fit(S[fit_rows], y_fit)
            grid[(c, g)] = (svm_scores(m, S[hold_rows]), svm_scores(m, St))
            add(f"svm-rbf/C{c:g}-g{g:g}/fit80", f"RBF SVM (C={c:g}, gamma={g:g}) on standardised features, fit on 80% of train "
                f"(hold-out accuracy {hold_acc(grid[(c, g)][0]):.4f})", grid[(c, g)][1])
    wide_cells = sorted(grid, key=lambda k: (-hold_acc(grid[k][0]), k))
    for rank, (c, g) in enumerate(wide_cells):
        if (c, g) in cells[:3]:
            continue  # refit in section 3
        m = SVC(C=c, gamma=g).fit(S, y)
        add(f"svm-rbf/C{c:g}-g{g:g}", f"RBF SVM (C={c:g}, gamma={g:g}; hold-out rank {rank + 1} of {len(grid)}) on standardised "
            "features, refit on all of train", m.predict(St))
        if rank == 0:
            wide["svm-rbf-grid"] = (grid[(c, g)][0], svm_scores(m, St))
    if "svm-rbf-grid" not in wide:
        c, g = wide_cells[0]
        wide["svm-rbf-grid"] = (grid[(c, g)][0], svm_scores(SVC(C=c, gamma=g).fit(S, y), St))
    lap("svm grid done")

    # The same search on the engineered features; gamma is quoted per 16 features, so a cell means the same kernel width.
    eng_grid = {}
    per = 16 / SE.shape[1]
    for c in [3.0, 10.0, 30.0]:
        for g in [0.1, 0.2, 0.3]:
            m = SVC(C=c, gamma=g * per).fit(SE[fit_rows], y_fit)
            eng_grid[(c, g)] = (svm_scores(m, SE[hold_rows]), svm_scores(m, SEt))
            add(f"svm-rbf-engineered/C{c:g}-g{g:g}/fit80", f"RBF SVM (C={c:g}, gamma={g:g} per 16 features) on the standardised "
                f"engineered features, fit on 80% of train (hold-out accuracy {hold_acc(eng_grid[(c, g)][0]):.4f})", eng_grid[(c, g)][1])
    eng_cells = sorted(eng_grid, key=lambda k: (-hold_acc(eng_grid[k][0]), k))
    for rank, (c, g) in enumerate(eng_cells):
        if (c, g) == cells[0]:
            continue  # section 3's svm-rbf/engineered
        m = SVC(C=c, gamma=g * per).fit(SE, y)
        add(f"svm-rbf-engineered/C{c:g}-g{g:g}", f"RBF SVM (C={c:g}, gamma={g:g} per 16 features; hold-out rank {rank + 1} of "
            f"{len(eng_grid)}) on the standardised engineered features, refit on all of train", m.predict(SEt))
        if rank == 0:
            wide["svm-rbf-engineered"] = (eng_grid[(c, g)][0], svm_scores(m, SEt))
    if "svm-rbf-engineered" not in wide:
        c, g = eng_cells[0]
        wide["svm-rbf-engineered"] = (eng_grid[(c, g)][0], svm_scores(SVC(C=c, gamma=g * per).fit(SE, y), SEt))

    # A bagged SVM: the hold-out's best cell on five seeded 80% subsamples of train, decision values averaged.
    c, g = cells[0]
    bag = []
    for s in range(5):
        sub, _ = train_test_split(np.arange(len(train)), train_size=0.8, stratify=y, random_state=100 + s)
        bag.append(svm_scores(SVC(C=c, gamma=g).fit(S[sub], y[sub]), St))
    add("svm-rbf-bag5/scaled", f"five RBF SVMs (C={c:g}, gamma={g:g}) on seeded 80% subsamples of train, standardised features, "
        "softmaxed decision values averaged", np.mean(bag, axis=0))
    lap("engineered and bagged svm done")

    # Tree ensembles: more trees, other split sizes and criteria, both feature sets. Fresh seeds, so that no row repeats
    # a section 2 or 3 forest with only its tree count changed.
    raw_space, eng_space = (X_all, Xt_all), (E, Et)
    for name, what, factory, space in [
            ("extra-trees-n1000/all", "extra trees (1000)", lambda: ExtraTreesClassifier(n_estimators=1000, random_state=1), raw_space),
            ("extra-trees-n500-mf0.5/all", "extra trees (500, half the features per split)",
             lambda: ExtraTreesClassifier(n_estimators=500, max_features=0.5, random_state=1), raw_space),
            ("extra-trees-n500-entropy/all", "extra trees (500, entropy splits)",
             lambda: ExtraTreesClassifier(n_estimators=500, criterion="entropy", random_state=1), raw_space),
            ("extra-trees-n500/engineered", "extra trees (500)", lambda: ExtraTreesClassifier(n_estimators=500, random_state=1), eng_space),
            ("extra-trees-n1000-mf0.3/engineered", "extra trees (1000, 30% of the features per split)",
             lambda: ExtraTreesClassifier(n_estimators=1000, max_features=0.3, random_state=1), eng_space),
            ("forest-n500-mf2/all", "random forest (500, two features per split)",
             lambda: RandomForestClassifier(n_estimators=500, max_features=2, random_state=1), raw_space),
            ("forest-n500-mf3/all", "random forest (500, three features per split)",
             lambda: RandomForestClassifier(n_estimators=500, max_features=3, random_state=1), raw_space),
            ("forest-n500/engineered", "random forest (500)", lambda: RandomForestClassifier(n_estimators=500, random_state=1), eng_space),
            ("forest-n500-mf3/engineered", "random forest (500, three features per split)",
             lambda: RandomForestClassifier(n_estimators=500, max_features=3, random_state=1), eng_space)]:
        feats = "16" if space is raw_space else "engineered"
        add(name, f"{what} on the {feats} features, all of train", factory().fit(space[0], y).predict(space[1]))
    m = ExtraTreesClassifier(n_estimators=500, max_features=0.5, random_state=0).fit(E[fit_rows], y_fit)
    hold = m.predict_proba(E[hold_rows])
    add("extra-trees-n500-mf0.5/engineered/fit80", "extra trees (500, half the features per split) on the engineered features, "
        f"80% of train (hold-out accuracy {hold_acc(hold):.4f})", m.predict_proba(Et))
    wide["extra-trees-engineered"] = (hold, et_eng_full)
    lap("wide tree ensembles done")

    # More torch MLPs: further seeds of the 512-wide net, and other depths, widths, epochs, dropout and inputs.
    def mlp_family(name, what, A, At, cfg, fit80_seeds, refit_seeds, runs=None):
        """Fit the seeds on 80% and refit others on all of train; enter each and the seed averages, `runs` being earlier seeds."""
        holds, tests, fulls = runs if runs else ([], [], [])
        for s in fit80_seeds:
            m = TorchMLP(seed=s, batch=256, **cfg).fit(A[fit_rows], y_fit)
            holds.append(m.predict_proba(A[hold_rows]))
            tests.append(m.predict_proba(At))
            add(f"{name}/seed{s}/fit80", f"{what}, 80% of train, seed {s} (hold-out accuracy {hold_acc(holds[-1]):.4f})", tests[-1])
        for s in refit_seeds:
            fulls.append(TorchMLP(seed=s, batch=256, **cfg).fit(A, y).predict_proba(At))
            add(f"{name}/seed{s}", f"{what}, all of train, seed {s}", fulls[-1])
        wide[name] = (np.mean(holds, axis=0), np.mean(fulls, axis=0))
        if fit80_seeds and len(holds) > 1:
            add(f"{name}/bag{len(holds)}/fit80", f"{what}, {len(holds)} seeds fit on 80% of train averaged "
                f"(hold-out accuracy {hold_acc(wide[name][0]):.4f})", np.mean(tests, axis=0))
        if refit_seeds and len(fulls) > 1:
            add(f"{name}/bag{len(fulls)}", f"{what}, {len(fulls)} seeds refit on all of train averaged", wide[name][1])
        lap(f"{name} done")

    mlp_family("mlp-512x2", "torch MLP (512, 512) on engineered features", E, Et, dict(hidden=(512, 512), epochs=40), [1, 2], [1, 2, 3],
               runs=tuple(list(r) for r in mlp_runs["mlp-512x2"]))
    mlp_family("mlp-256x3", "torch MLP (256, 256, 256) on engineered features", E, Et, dict(hidden=(256, 256, 256), epochs=40), [0, 1], [0, 1, 2])
    mlp_family("mlp-256x2", "torch MLP (256, 256) on engineered features", E, Et, dict(hidden=(256, 256), epochs=40), [], [3, 4],
               runs=tuple(list(r) for r in mlp_runs["mlp-256x2"]))
    mlp_family("mlp-256x2-e80", "torch MLP (256, 256), 80 epochs, on engineered features", E, Et, dict(hidden=(256, 256), epochs=80), [0], [0, 1])
    mlp_family("mlp-512x2-d0.2", "torch MLP (512, 512), dropout 0.2, on engineered features", E, Et,
               dict(hidden=(512, 512), dropout=0.2, epochs=40), [0], [0])
    mlp_family("mlp-512x2-raw", "torch MLP (512, 512) on the 16 features", X_all, Xt_all, dict(hidden=(512, 512), epochs=40), [0], [0, 1])

    # Blends of the widened library: top-k averages, the pairs of family leaders, greedy forward selection, and stacking.
    w_ranked = sorted(wide, key=lambda k: (-hold_acc(wide[k][0]), k))
    for top in [4, 8, len(w_ranked)]:
        members = w_ranked[:top]
        add(f"blend-wide/top{top}", "probability average of " + ", ".join(members), np.mean([wide[k][1] for k in members], axis=0))

    def family(k):
        return "svm" if k.startswith("svm") else "trees" if k.startswith(("extra", "forest")) else k.split("-")[0]

    leaders = {}
    for k in w_ranked:
        leaders.setdefault(family(k), k)
    lead = list(leaders.values())
    for i, a in enumerate(lead):
        for b in lead[i + 1:]:
            add(f"blend-wide/pair/{a}+{b}", f"probability average of {a} and {b} (the best of their families on the hold-out)",
                (wide[a][1] + wide[b][1]) / 2)
    # Three-way averages of the family leaders, the blend a team with three strong models would submit.
    for i, a in enumerate(lead):
        for j, b in enumerate(lead[i + 1:], start=i + 1):
            for c3 in lead[j + 1:]:
                add(f"blend-wide/triple/{a}+{b}+{c3}", f"probability average of {a}, {b} and {c3} (the best of their families on "
                    "the hold-out)", (wide[a][1] + wide[b][1] + wide[c3][1]) / 3)
    for steps in [10, 30]:
        chosen, total = [], np.zeros_like(wide[w_ranked[0]][0])
        for _ in range(steps):
            j = max(w_ranked, key=lambda k: hold_acc(total + wide[k][0]) + 1e-4 * np.log(wide[k][0][np.arange(len(y_hold)), y_hold] + 1e-9).mean())
            chosen.append(j)
            total += wide[j][0]
        add(f"blend-wide/greedy-{steps}", f"greedy forward blend ({steps} steps, with replacement) on the hold-out over the widened "
            "library: " + ", ".join(sorted(set(chosen))), np.mean([wide[k][1] for k in chosen], axis=0))

    # Stacking: a logistic regression on the members' log-probabilities, trained on the hold-out (the only rows the
    # members did not see), its C picked by 5-fold cross-validation within the hold-out.
    for label, members in [("leaders", lead), ("all", w_ranked)]:
        H = np.hstack([np.log(wide[k][0] + 1e-6) for k in members])
        Ht = np.hstack([np.log(wide[k][1] + 1e-6) for k in members])
        best_c = max([0.01, 0.1, 1.0], key=lambda cc: cross_val_score(LogisticRegression(C=cc, max_iter=300), H, y_hold, cv=5).mean())
        meta = LogisticRegression(C=best_c, max_iter=300).fit(H, y_hold)
        add(f"stack-logreg/{label}", f"logistic regression (C={best_c:g}, chosen by 5-fold CV on the hold-out) stacked on the hold-out "
            "log-probabilities of " + ", ".join(members), meta.predict_proba(Ht))
    lap("wide blends done")

    write_board(rows, OUT, lower_is_better=False, note=f" in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
