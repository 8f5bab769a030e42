#!/usr/bin/python3
"""Reference leaderboard for the offline `digits` competition.

Trains a documented population of pipelines on the public train split (1,258 images of 8x8
pixels), scores each by multi-class log loss on the private answers (539 images), and writes
leaderboard.csv beside this script (best, i.e. lowest, first). The scores form a *reference
population* of pipelines, not a leaderboard of human teams. Nothing but the final scoring reads
the answers: temperatures, blend and stacking weights are fitted on out-of-fold predictions of
a stratified 5-fold split of train.

The population (558 entries), bottom to top:

1. Trivial: 0.1 for every digit; the class frequencies of a budget; seeded random
   probabilities; one-pixel rules (a depth-1 or depth-2 tree on the single pixel that splits
   train best); nearest class centroid by total ink.
2. Standard pipelines on raw pixels, every combination of
   - models: Gaussian naive Bayes, LDA, regularised QDA, nearest centroids, logistic
     regression (C 0.001 ... 10, raw or standardised pixels), k-nearest neighbours (k 1 ... 25,
     plain or distance votes), decision trees, random forests, extra trees, gradient boosting,
     xgboost, RBF and linear SVMs with Platt-scaled probabilities, PCA + logistic regression or
     kNN, multi-layer perceptrons;
   - budgets: a stratified random 10%, 20%, 30%, 50% or 100% of train;
   and a share of them submitted as hard labels (one-hot rows), a common mistake that the
   metric punishes (each error costs about 9.2 under the 1e-4 floor), or as smoothed labels
   (0.91 on the predicted digit, 0.01 on each other).
3. Small torch CNNs (conv 32 -> pool -> conv 64 -> pool -> dense 128, or wider, or with a
   second 8x8 convolution), trained with AdamW and a one-cycle schedule: without augmentation
   at constant learning rate (the usual first try), with batch norm, with random one-pixel
   shifts as augmentation, on budgets of train.
4. Strong entries: CNNs trained with shift augmentation, each submitted plain or with
   test-time shift averaging (5 or 9 shifted copies of each image); seed ensembles per
   architecture and across architectures; a 5-fold CNN whose fold models are averaged on test
   and whose out-of-fold predictions set a temperature; kNN and an RBF SVM on the training
   images plus their shifted copies ("virtual examples"); xgboost with CV-chosen round counts;
   blends of CNN ensembles with the SVM or kNN, and stacking (multinomial logistic regression on
   the out-of-fold log-probabilities of the fold CNN, the shifted-copy kNN and the SVM).

Every submission is widened to all ten digits (a digit absent from a budget's rows gets 0),
clipped to [1e-4, 1] and renormalised so each row sums to one, as a careful submission would
be. The score is the log loss by its formula: probabilities clipped to [eps, 1 - eps] with eps
the float64 machine epsilon, rows not renormalised (scikit-learn 1.2's log_loss renormalises
and clips at 1e-15, so it is not used).

Runtime: about 5.5 CPU-minutes, single-threaded (OMP/BLAS and torch threads pinned to 1); the
output is reproducible (fixed seeds, deterministic CPU kernels).

Usage (Debian's interpreter, which has scikit-learn, xgboost and torch):
    node dist/cli/main.js prepare -c digits --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/digits/leaderboard.py /tmp/lb-data
"""
import os

# Thread counts are fixed before numpy loads: parallel BLAS reductions may sum in varying orders.
for var in ["OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"]:
    os.environ[var] = "1"

import sys  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import xgboost as xgb  # noqa: E402
from sklearn.calibration import CalibratedClassifierCV  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis  # noqa: E402
from sklearn.ensemble import ExtraTreesClassifier, GradientBoostingClassifier, RandomForestClassifier  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import StratifiedKFold, train_test_split  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import SVC, LinearSVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402
from torch import nn  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import log_loss, normalise, write_board  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
CLASSES = [str(d) for d in range(10)]
PIXELS = [f"pixel{k}" for k in range(64)]
# Floor applied before renormalising, so no pipeline stakes everything on a single digit.
PROBA_FLOOR = 1e-4
BUDGETS = [0.1, 0.2, 0.3, 0.5, 1.0]
FOLDS = 5
SHIFTS9 = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1)]
SHIFTS5 = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)]


def classic_models():
    """(name, factory, also submitted as hard labels) for the standard pixel pipelines."""
    yield "naive-bayes", GaussianNB, True
    yield "naive-bayes-smooth0.1", lambda: GaussianNB(var_smoothing=0.1), False
    yield "lda", LinearDiscriminantAnalysis, True
    yield "qda-reg0.5", lambda: QuadraticDiscriminantAnalysis(reg_param=0.5), True
    for c in [0.001, 0.01, 0.1, 1.0, 10.0]:
        yield f"logreg-C{c}/raw", lambda c=c: LogisticRegression(C=c, max_iter=3000), c == 0.1
        yield f"logreg-C{c}/scaled", lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=3000)), c == 1.0
    for k in [1, 3, 5, 10, 25]:
        yield f"knn-k{k}", lambda k=k: KNeighborsClassifier(n_neighbors=k), k in (1, 5)
    for k in [3, 5, 10]:
        yield f"knn-k{k}-distance", lambda k=k: KNeighborsClassifier(n_neighbors=k, weights="distance"), False
    for depth in [2, 4, 8, None]:
        yield f"tree-d{depth}", lambda d=depth: DecisionTreeClassifier(max_depth=d, random_state=0), depth == 8
    for n, depth in [(100, 6), (200, None)]:
        yield f"forest-n{n}-d{depth}", lambda n=n, d=depth: RandomForestClassifier(n_estimators=n, max_depth=d, random_state=0), depth is None
    yield "extra-trees-n200", lambda: ExtraTreesClassifier(n_estimators=200, random_state=0), True
    yield "gbm-n30-d2", lambda: GradientBoostingClassifier(n_estimators=30, max_depth=2, random_state=0), False
    for n, depth in [(100, 3), (300, 4)]:
        yield f"xgboost-n{n}-d{depth}", lambda n=n, d=depth: xgb.XGBClassifier(
            n_estimators=n, max_depth=d, learning_rate=0.1, subsample=0.8, colsample_bytree=0.5, tree_method="hist",
            n_jobs=1, random_state=0), n == 300
    for c in [1.0, 10.0]:
        yield f"svc-rbf-C{c}", lambda c=c: SVC(C=c, probability=True, random_state=0), True
    yield "svc-rbf-C10-gamma0.001", lambda: SVC(C=10, gamma=0.001, probability=True, random_state=0), False
    yield "linear-svc-sigmoid", lambda: CalibratedClassifierCV(
        make_pipeline(StandardScaler(), LinearSVC(C=0.01, max_iter=5000)), cv=3), False
    yield "pca10-logreg", lambda: make_pipeline(
        StandardScaler(), PCA(n_components=10, random_state=0), LogisticRegression(max_iter=3000)), False
    yield "pca30-logreg", lambda: make_pipeline(
        StandardScaler(), PCA(n_components=30, random_state=0), LogisticRegression(max_iter=3000)), True
    yield "pca20-knn-k5", lambda: make_pipeline(PCA(n_components=20, random_state=0), KNeighborsClassifier(5)), True
    for hidden in [(64,), (256,)]:
        yield f"mlp-{'x'.join(map(str, hidden))}", lambda h=hidden: make_pipeline(
            StandardScaler(), MLPClassifier(h, alpha=1e-3, max_iter=200, random_state=0)), hidden == (256,)


def widen(proba, classes):
    """predict_proba's columns (the digits seen in training) spread over all ten digits."""
    out = np.zeros((proba.shape[0], len(CLASSES)))
    for j, c in enumerate(classes):
        out[:, CLASSES.index(str(c))] = proba[:, j]
    return out


def one_hot(labels):
    """Hard-label rows: 1 for the predicted digit, 0 elsewhere."""
    return np.eye(len(CLASSES))[np.asarray(labels, dtype=int)]


def shift_images(x, shifts):
    """Copies of flat 8x8 images moved by each (rows, columns) offset, blank pixels filled with 0."""
    im = x.reshape(-1, 8, 8)
    out = []
    for a, b in shifts:
        z = np.zeros_like(im)
        z[:, max(a, 0):8 + min(a, 0), max(b, 0):8 + min(b, 0)] = im[:, max(-a, 0):8 + min(-a, 0), max(-b, 0):8 + min(-b, 0)]
        out.append(z.reshape(-1, 64))
    return np.concatenate(out)


def power(p, temperature):
    """Probabilities sharpened (T < 1) or softened (T > 1) as p^(1/T), renormalised."""
    q = np.clip(p, 1e-12, 1.0) ** (1.0 / temperature)
    return q / q.sum(axis=1, keepdims=True)


def fit_temperature(p, y):
    """The temperature on a grid that minimises the log loss of out-of-fold probabilities p."""
    truth = one_hot(y)
    grid = np.round(np.arange(0.5, 2.51, 0.05), 2)
    return float(min(grid, key=lambda t: log_loss(truth, normalise(power(p, t), PROBA_FLOOR))))


# ------------------------------------------------------------------ CNNs

CNN_CONFIGS = {
    # name: (width, batch norm, second 8x8 conv, shift augmentation, epochs, one-cycle peak lr)
    "plain": (32, False, False, False, 30, None),
    "bn": (32, True, False, False, 30, 2e-3),
    "bn-shift": (32, True, False, True, 30, 2e-3),
    "wide-bn-shift": (48, True, False, True, 30, 2e-3),
    "deep-bn-shift": (32, True, True, True, 20, 2e-3),
    "shift-lr3e-3": (32, False, False, True, 30, 3e-3),
}


def make_cnn(width, bn, deep):
    """conv(width) [-> conv(width)] -> pool -> conv(2 width) -> pool -> dense 128 -> 10 logits."""
    norm = (lambda c: [nn.BatchNorm2d(c)]) if bn else (lambda c: [])
    layers = [nn.Conv2d(1, width, 3, padding=1), *norm(width), nn.ReLU()]
    if deep:
        layers += [nn.Conv2d(width, width, 3, padding=1), *norm(width), nn.ReLU()]
    layers += [nn.MaxPool2d(2), nn.Conv2d(width, 2 * width, 3, padding=1), *norm(2 * width), nn.ReLU(), nn.MaxPool2d(2),
               nn.Flatten(), nn.Linear(2 * width * 4, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, 10)]
    return nn.Sequential(*layers)


def random_shift(x, gen):
    """Each image of a batch moved by a random offset in {-1, 0, 1}^2."""
    padded = F.pad(x, (1, 1, 1, 1))
    offsets = torch.randint(0, 3, (len(x), 2), generator=gen)
    out = torch.empty_like(x)
    for a in range(3):
        for b in range(3):
            hit = (offsets[:, 0] == a) & (offsets[:, 1] == b)
            if hit.any():
                out[hit] = padded[hit][:, :, a:a + 8, b:b + 8]
    return out


def train_cnn(config, x, y, seed):
    """A CNN of CNN_CONFIGS[config] trained on flat images x (0..1) with labels y."""
    width, bn, deep, augment, epochs, peak = CNN_CONFIGS[config]
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net = make_cnn(width, bn, deep)
    images, labels = torch.tensor(x, dtype=torch.float32).reshape(-1, 1, 8, 8), torch.tensor(y, dtype=torch.long)
    batch = 64
    steps = epochs * ((len(images) + batch - 1) // batch)
    if peak is None:
        opt, schedule = torch.optim.Adam(net.parameters(), lr=1e-3), None
    else:
        opt = torch.optim.AdamW(net.parameters(), lr=peak, weight_decay=1e-4)
        schedule = torch.optim.lr_scheduler.OneCycleLR(opt, peak, total_steps=steps)
    net.train()
    for _ in range(epochs):
        order = torch.randperm(len(images), generator=gen)
        for i in range(0, len(images), batch):
            idx = order[i:i + batch]
            xb = random_shift(images[idx], gen) if augment else images[idx]
            opt.zero_grad()
            F.cross_entropy(net(xb), labels[idx]).backward()
            opt.step()
            if schedule is not None:
                schedule.step()
    net.eval()
    return net


def cnn_predict(net, x):
    """Softmax probabilities of net for flat images x: plain, and averaged over 5 and 9 shifts."""
    out = {}
    with torch.no_grad():
        for tta, shifts in [("", [(0, 0)]), ("+tta5", SHIFTS5), ("+tta9", SHIFTS9)]:
            copies = torch.tensor(shift_images(x, shifts), dtype=torch.float32).reshape(len(shifts), len(x), 1, 8, 8)
            out[tta] = torch.stack([F.softmax(net(c), dim=1) for c in copies]).mean(dim=0).numpy().astype(float)
    return out


def main(data_dir):
    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    warnings.filterwarnings("ignore", category=UserWarning)
    torch.set_num_threads(1)
    root = os.path.join(data_dir, "digits", "prepared")
    train = pd.read_csv(os.path.join(root, "public", "train.csv"))
    test = pd.read_csv(os.path.join(root, "public", "test.csv"))
    answers = pd.read_csv(os.path.join(root, "private", "test.csv"))
    truth = test[["id"]].merge(answers, on="id", how="left")[CLASSES].to_numpy(dtype=float)
    assert np.allclose(truth.sum(axis=1), 1.0), "every test id needs a one-hot answer"
    x_all, y_all = train[PIXELS].to_numpy(dtype=float), train.label.to_numpy()
    x_test = test[PIXELS].to_numpy(dtype=float)
    n_test = len(test)
    rows = []

    def add(team, pipeline, p):
        rows.append({"teamName": team, "score": log_loss(truth, normalise(p, PROBA_FLOOR)), "pipeline": pipeline})

    def budget_rows(budget, seed=0):
        """Row indices of a stratified random share of train."""
        if budget == 1.0:
            return np.arange(len(train))
        keep, _ = train_test_split(np.arange(len(train)), train_size=budget, stratify=y_all, random_state=seed)
        return np.sort(keep)

    def where(budget):
        return "all of train" if budget == 1.0 else f"a stratified random {int(budget * 100)}% of train"

    # 1. Trivial entries.
    add("uniform", "0.1 for every digit", np.full((n_test, 10), 0.1))
    rng = np.random.default_rng(0)
    for s in range(3):
        add(f"random-dirichlet/seed{s}", f"seeded random probabilities (Dirichlet(1), seed {s})", rng.dirichlet(np.ones(10), n_test))
    add("random-hard-labels", "a seeded random digit per image, submitted as a hard label", one_hot(rng.integers(0, 10, n_test)))
    for budget in BUDGETS:
        keep = budget_rows(budget)
        pct = f"{int(budget * 100)}pct"
        freq = pd.Series(y_all[keep]).value_counts(normalize=True).reindex(range(10), fill_value=0.0).to_numpy()
        add(f"class-frequencies/{pct}", f"training class frequencies on {where(budget)}", np.tile(freq, (n_test, 1)))
        x, y = x_all[keep], y_all[keep]
        for depth in [1, 2]:
            scores = [DecisionTreeClassifier(max_depth=depth, random_state=0).fit(x[:, [j]], y).score(x[:, [j]], y) for j in range(64)]
            best = int(np.argmax(scores))
            rule = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(x[:, [best]], y)
            add(f"one-pixel-depth{depth}/{pct}", f"depth-{depth} tree on the single best pixel (pixel{best}) of {where(budget)}",
                widen(rule.predict_proba(x_test[:, [best]]), rule.classes_))
        ink, ink_test = x.sum(axis=1), x_test.sum(axis=1)
        centres = np.array([ink[y == d].mean() if (y == d).any() else np.inf for d in range(10)])
        spread = ink.std()
        add(f"total-ink-centroid/{pct}", f"softmax of distance to each digit's mean total ink, {where(budget)}",
            np.exp(-0.5 * ((ink_test[:, None] - centres[None, :]) / (0.25 * spread)) ** 2) + 1e-9)

    # 2. Standard pipelines over budgets.
    for budget in BUDGETS:
        keep = budget_rows(budget)
        pct = f"{int(budget * 100)}pct"
        x, y = x_all[keep], y_all[keep]
        for name, factory, hard in classic_models():
            model = factory().fit(x, y)
            p = widen(model.predict_proba(x_test), list(model.classes_))
            add(f"{name}/{pct}", f"{name} on {where(budget)} ({len(keep)} images)", p)
            if hard:
                add(f"{name}/{pct}/hard-labels", f"{name} on {where(budget)}, submitted as hard labels", one_hot(p.argmax(axis=1)))
                add(f"{name}/{pct}/smoothed-labels", f"{name} on {where(budget)}, 0.91 on its predicted digit and 0.01 elsewhere",
                    one_hot(p.argmax(axis=1)) * 0.9 + 0.01)

    # 3. CNNs on budgets (and the usual first try on all of train).
    xs_all, xs_test = x_all / 16.0, x_test / 16.0
    for config, budgets, seeds in [("plain", [0.3, 1.0], [0, 1]), ("bn", [1.0], [0, 1]), ("bn-shift", [0.1, 0.2, 0.5], [0])]:
        for budget in budgets:
            keep = budget_rows(budget)
            for seed in seeds:
                preds = cnn_predict(train_cnn(config, xs_all[keep], y_all[keep], seed), xs_test)
                for tta in ["", "+tta9"]:
                    add(f"cnn-{config}/seed{seed}/{int(budget * 100)}pct{tta}",
                        f"CNN '{config}' (seed {seed}) on {where(budget)}{' with 9-shift test-time averaging' if tta else ''}",
                        preds[tta])

    # 4. Strong entries on all of train.
    members = {}  # (config, seed) -> {tta: test probabilities}
    for config, seeds in [("bn-shift", range(5)), ("wide-bn-shift", range(3)), ("deep-bn-shift", range(3)), ("shift-lr3e-3", range(2))]:
        for seed in seeds:
            members[config, seed] = cnn_predict(train_cnn(config, xs_all, y_all, seed), xs_test)
            for tta, p in members[config, seed].items():
                add(f"cnn-{config}/seed{seed}{tta}", f"CNN '{config}' (seed {seed}) on all of train"
                    f"{'' if not tta else ', test-time averaging over ' + tta[4:] + ' shifts'}", p)
    ttas = ["", "+tta5", "+tta9"]
    for config, n_max in [("bn-shift", 5), ("wide-bn-shift", 3), ("deep-bn-shift", 3), ("shift-lr3e-3", 2)]:
        for n in range(2, n_max + 1):
            for tta in ttas:
                add(f"cnn-{config}/{n}-seed-ensemble{tta}", f"mean of {n} seeds of CNN '{config}'{tta}",
                    np.mean([members[config, s][tta] for s in range(n)], axis=0))
    mixes = {
        "bn+wide": [("bn-shift", s) for s in range(3)] + [("wide-bn-shift", s) for s in range(3)],
        "bn+deep": [("bn-shift", s) for s in range(3)] + [("deep-bn-shift", s) for s in range(3)],
        "wide+deep": [("wide-bn-shift", s) for s in range(3)] + [("deep-bn-shift", s) for s in range(3)],
        "all-bn": [k for k in members if k[0] != "shift-lr3e-3"],
        "all": list(members),
        "one-of-each": [(c, 0) for c in ["bn-shift", "wide-bn-shift", "deep-bn-shift", "shift-lr3e-3"]],
    }
    for mix, keys in mixes.items():
        for tta in ttas:
            add(f"cnn-mix-{mix}{tta}", f"mean of {len(keys)} CNNs ({mix}){tta}", np.mean([members[k][tta] for k in keys], axis=0))

    # Out-of-fold predictions on train for temperatures, blends and stacking.
    folds = list(StratifiedKFold(FOLDS, shuffle=True, random_state=0).split(x_all, y_all))
    oof = {k: np.zeros((len(train), 10)) for k in ["cnn", "knn", "svc"]}
    fold_test = []
    shifted9 = shift_images(x_all, SHIFTS9), np.tile(y_all, len(SHIFTS9))

    def shifted_rows(idx, shifts):
        """The augmented copies of train rows idx (SHIFTS9 order, a subset of shifts)."""
        blocks = [SHIFTS9.index(s) for s in shifts]
        rows_ = np.concatenate([idx + b * len(train) for b in blocks])
        return shifted9[0][rows_], shifted9[1][rows_]

    knn_aug = lambda: KNeighborsClassifier(n_neighbors=5, weights="distance")  # noqa: E731
    svc_plain = lambda: SVC(C=10, gamma=0.001, probability=True, random_state=0)  # noqa: E731
    for k, (a, b) in enumerate(folds):
        net = train_cnn("deep-bn-shift", xs_all[a], y_all[a], 100 + k)
        oof["cnn"][b] = cnn_predict(net, xs_all[b])["+tta9"]
        fold_test.append(cnn_predict(net, xs_test))
        oof["knn"][b] = knn_aug().fit(*shifted_rows(a, SHIFTS9)).predict_proba(x_all[b])
        oof["svc"][b] = svc_plain().fit(x_all[a], y_all[a]).predict_proba(x_all[b])
    temperature = fit_temperature(oof["cnn"], y_all)
    for tta in ttas:
        p = np.mean([f[tta] for f in fold_test], axis=0)
        add(f"cnn-deep-bn-shift/5-fold-average{tta}", f"5 fold models of CNN 'deep-bn-shift' averaged on test{tta}", p)
        add(f"cnn-deep-bn-shift/5-fold-average{tta}/temperature",
            f"5 fold models averaged{tta}, temperature {temperature} fitted on out-of-fold predictions", power(p, temperature))
    fold_avg = np.mean([f["+tta9"] for f in fold_test], axis=0)

    knn_test, svc_test = {}, {}
    for shifts_name, shifts in [("5", SHIFTS5), ("9", SHIFTS9)]:
        xa, ya = shifted_rows(np.arange(len(train)), shifts)
        for n_neighbors in [3, 5, 10]:
            for votes in ["uniform", "distance"]:
                p = KNeighborsClassifier(n_neighbors=n_neighbors, weights=votes).fit(xa, ya).predict_proba(x_test)
                knn_test[shifts_name, n_neighbors, votes] = p
                add(f"knn-k{n_neighbors}-{votes}/shifted-copies{shifts_name}",
                    f"kNN (k {n_neighbors}, {votes} votes) on train plus its {shifts_name} shifted copies", p)
    svc_test["plain"] = svc_plain().fit(x_all, y_all).predict_proba(x_test)
    xa, ya = shifted_rows(np.arange(len(train)), SHIFTS5)
    svc_test["shift5"] = SVC(C=10, gamma=0.001, probability=True, random_state=0).fit(xa, ya).predict_proba(x_test)
    add("svc-rbf-C10-gamma0.001/shifted-copies5", "RBF SVM (C 10, gamma 0.001), Platt-scaled, on train plus 4 shifted copies",
        svc_test["shift5"])
    for t_name, p in [("svc", svc_test["shift5"]), ("knn", knn_test["9", 5, "distance"])]:
        add(f"{t_name}-shifted-copies/power0.7", f"{t_name} on shifted copies, probabilities sharpened (power 1/0.7)", power(p, 0.7))

    # xgboost with round counts from 5-fold CV early stopping, fold models averaged and refit.
    for depth, lr, cols in [(4, 0.1, 0.5), (6, 0.05, 0.3)]:
        make = lambda n=2000: xgb.XGBClassifier(  # noqa: E731
            n_estimators=n, max_depth=depth, learning_rate=lr, subsample=0.8, colsample_bytree=cols, tree_method="hist",
            n_jobs=1, random_state=0)
        rounds, fold_p = [], []
        for a, b in folds[:3]:
            model = make().set_params(early_stopping_rounds=40, eval_metric="mlogloss")
            model.fit(x_all[a], y_all[a], eval_set=[(x_all[b], y_all[b])], verbose=False)
            rounds.append(model.best_iteration + 1)
            fold_p.append(model.predict_proba(x_test))
        refit = make(int(np.mean(rounds) * 1.1)).fit(x_all, y_all).predict_proba(x_test)
        tag = f"xgboost-d{depth}-lr{lr}-col{cols}"
        add(f"{tag}/3-fold-average", f"xgboost (depth {depth}, lr {lr}), early-stopped fold models averaged", np.mean(fold_p, axis=0))
        add(f"{tag}/cv-rounds-refit", f"xgboost (depth {depth}, lr {lr}) refit with the CV's mean round count", refit)

    # Blends of CNN ensembles with the shifted-copy SVM and kNN, and stacking on out-of-fold log-probabilities.
    partners = {"svc-shift5": svc_test["shift5"], "knn-shift9": knn_test["9", 5, "distance"], "svc": svc_test["plain"]}
    bases = {"bn-shift-5seed+tta9": np.mean([members["bn-shift", s]["+tta9"] for s in range(5)], axis=0),
             "all-cnn+tta9": np.mean([members[k]["+tta9"] for k in members], axis=0),
             "wide-3seed+tta5": np.mean([members["wide-bn-shift", s]["+tta5"] for s in range(3)], axis=0),
             "fold-average+tta9": fold_avg}
    for base_name, base in bases.items():
        for partner_name, partner in partners.items():
            for w in [0.6, 0.8, 0.9]:
                add(f"blend-{base_name}-{partner_name}-w{w}", f"{w} x CNN {base_name} + {round(1 - w, 1)} x {partner_name}",
                    w * base + (1 - w) * partner)
    truth_train = one_hot(y_all)
    grid = np.round(np.arange(0.0, 1.01, 0.05), 2)
    for partner_name in ["knn", "svc"]:
        w = float(min(grid, key=lambda v: log_loss(truth_train, normalise(v * oof["cnn"] + (1 - v) * oof[partner_name], PROBA_FLOOR))))
        partner = knn_test["9", 5, "distance"] if partner_name == "knn" else svc_test["plain"]
        add(f"blend-fold-cnn-{partner_name}/oof-weight", f"fold CNN + {partner_name} with the weight {w} fitted out of fold",
            w * fold_avg + (1 - w) * partner)
    stack_train = np.hstack([np.log(np.clip(oof[k], 1e-4, 1)) for k in ["cnn", "knn", "svc"]])
    stack_test = np.hstack([np.log(np.clip(p, 1e-4, 1)) for p in [fold_avg, knn_test["9", 5, "distance"], svc_test["plain"]]])
    for c in [0.01, 0.1, 1.0]:
        stacker = LogisticRegression(C=c, max_iter=5000).fit(stack_train, y_all)
        add(f"stack-logreg-C{c}", f"multinomial logistic regression (C {c}) on out-of-fold log-probabilities of fold CNN, "
            "shifted-copy kNN and SVM", widen(stacker.predict_proba(stack_test), stacker.classes_))

    assert len({r["teamName"] for r in rows}) == len(rows)
    write_board(rows, OUT, lower_is_better=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
