#!/usr/bin/python3
"""Reference leaderboard for the offline `dna-splice` competition.

Trains a documented population of classifiers on the public train split (2,099 windows of 60
bases), scores each by multi-class log loss on the private answers (901 windows), and writes
leaderboard.csv beside this script (lowest first). The scores form a *reference population* of
pipelines, not a leaderboard of human teams. Nothing but the final scoring reads the answers:
every hyper-parameter, round count, blend weight and stacking model of the strong entries is
chosen by 5-fold stratified cross-validation on train.

Entries submit their probabilities as the models give them, floored at 1e-6 and renormalised
(a pure tree's 0/1 probabilities are what log loss punishes hardest); the score is the grader's
formula (clipped at float64 eps).

The population (about 550 entries), bottom to top:

1. Trivial: uniform probabilities, the training class shares, seeded random probabilities, the
   class shares given the consensus dinucleotides (GT just after the middle, AG just before
   it) and given the base at one position near the middle (positions 25-36) or at a pair of
   them.
2. Standard pipelines, every combination of
   - feature sets "onehot" (the 60 x 4 base indicators), "middle" (indicators of the 20 bases
     around the junction), "kmers" (counts of the 16 dinucleotides and 64 trinucleotides of
     the whole window), "onehot+kmers" and "middle+kmers";
   - models with default or near-default settings: Bernoulli and multinomial naive Bayes,
     logistic regression (C 0.01 ... 10), decision trees (depth 3, 6, unlimited), k-nearest
     neighbours (k 5, 25), random forests and extra trees (100 trees), a small histogram
     gradient boosting, an RBF SVM with Platt probabilities, a scikit-learn MLP;
   - budgets: a stratified 5%, 10%, 25%, 50%, 75% or 100% of train.
3. Strong pipelines on hand-made features ("engineered"): the base indicators of the 30 middle
   positions, neighbouring-dinucleotide indicators around the junction, k-mer counts of each
   half, and donor/acceptor position-weight-matrix log-odds scores (fitted inside each fold,
   so a window never scores with statistics of its own label):
   - logistic regression over a grid of penalties;
   - RBF SVMs over a grid of C;
   - xgboost tuned by random search (16 draws of learning rate, depth, child weight,
     subsampling, column sampling, L1/L2) with early stopping on each fold; each draw enters as
     its fold models averaged on test;
   - 1-D convolutional networks (torch) on the one-hot sequence, two shapes, averaged over 1 or
     3 seeds, each seed's five fold models averaged on test;
   - blends of every pair of the twelve best models by CV log loss (weight chosen on the
     out-of-fold predictions), greedy forward selection, and a logistic-regression stack on the
     out-of-fold log-probabilities, each with a temperature fitted on the out-of-fold loss.

Runtime: about 20 CPU-minutes, single-threaded (OMP/BLAS and torch threads pinned to 1).

Usage (Debian's interpreter, which has scikit-learn, xgboost and torch):
    node dist/cli/main.js prepare -c dna-splice --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/dna-splice/leaderboard.py /tmp/lb-data
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
import torch  # noqa: E402
import xgboost as xgb  # noqa: E402
from scipy.optimize import minimize_scalar  # noqa: E402
from sklearn.ensemble import ExtraTreesClassifier, HistGradientBoostingClassifier, RandomForestClassifier  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import StratifiedKFold, train_test_split  # noqa: E402
from sklearn.naive_bayes import BernoulliNB, MultinomialNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import SVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import log_loss, normalise, write_board  # noqa: E402

warnings.filterwarnings("ignore")
torch.set_num_threads(1)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
CLASSES = ["EI", "IE", "N"]
BASES = "ACGT"
LENGTH = 60
MIDDLE = 30  # the junction lies between positions 30 and 31 (1-based), i.e. after index 29
FLOOR = 1e-6
FOLDS = 5
XGB_DRAWS = 16


def onehot(seqs, lo=0, hi=LENGTH):
    """Indicators of the base at each position lo..hi-1 (0-based), four per position."""
    codes = np.array([[BASES.index(b) for b in s[lo:hi]] for s in seqs])
    out = np.zeros((len(seqs), hi - lo, 4))
    np.put_along_axis(out, codes[:, :, None], 1.0, axis=2)
    return out.reshape(len(seqs), -1)


def kmer_counts(seqs, ks=(2, 3)):
    """Counts of every k-mer (k in ks) in each sequence."""
    cols = [("".join(p), k) for k in ks for p in itertools.product(BASES, repeat=k)]
    index = {m: j for j, (m, _) in enumerate(cols)}
    out = np.zeros((len(seqs), len(cols)))
    for i, s in enumerate(seqs):
        for k in ks:
            for a in range(len(s) - k + 1):
                out[i, index[s[a:a + k]]] += 1
    return out


def dinucleotides(seqs, lo, hi):
    """Indicators of the neighbouring pair of bases starting at each position lo..hi-1."""
    pairs = ["".join(p) for p in itertools.product(BASES, repeat=2)]
    out = np.zeros((len(seqs), (hi - lo) * 16))
    for i, s in enumerate(seqs):
        for a in range(lo, hi):
            out[i, (a - lo) * 16 + pairs.index(s[a:a + 2])] = 1
    return out


def pwm_scores(train_seqs, train_y, seqs):
    """Log-odds of each class's position weight matrix (pseudo-count 1) against the N windows', over the middle 30 bases."""
    x_train = onehot(train_seqs, MIDDLE - 15, MIDDLE + 15).reshape(len(train_seqs), 30, 4)
    x = onehot(seqs, MIDDLE - 15, MIDDLE + 15).reshape(len(seqs), 30, 4)
    background = np.log((x_train[train_y == 2].sum(axis=0) + 1) / ((train_y == 2).sum() + 4))
    out = []
    for c in (0, 1):
        model = np.log((x_train[train_y == c].sum(axis=0) + 1) / ((train_y == c).sum() + 4))
        out.append((x * (model - background)).sum(axis=(1, 2)))
    return np.stack(out, axis=1)


def engineered(train_seqs, train_y, seqs):
    """The strong pipelines' features of `seqs`; the PWM scores use only (train_seqs, train_y)."""
    return np.hstack([
        onehot(seqs, MIDDLE - 15, MIDDLE + 15),
        dinucleotides(seqs, MIDDLE - 6, MIDDLE + 6),
        kmer_counts([s[:MIDDLE] for s in seqs], (2, 3)),
        kmer_counts([s[MIDDLE:] for s in seqs], (2, 3)),
        pwm_scores(train_seqs, train_y, seqs),
    ])


def clean(p):
    return normalise(np.asarray(p, dtype=float), FLOOR)


def entry(rows, name, score, pipeline):
    rows.append({"teamName": name, "score": score, "pipeline": pipeline})


# ---------------------------------------------------------------- trivial


def trivial(rows, seqs_tr, y_tr, seqs_te, truth):
    n = len(seqs_te)
    entry(rows, "uniform", log_loss(truth, np.full((n, 3), 1 / 3)), "1/3 for every class")
    prior = np.bincount(y_tr, minlength=3) / len(y_tr)
    entry(rows, "class-shares", log_loss(truth, np.tile(prior, (n, 1))), "the training class shares for every window")
    for seed in range(3):
        p = np.random.default_rng(seed).dirichlet(np.ones(3), size=n)
        entry(rows, f"random/seed{seed}", log_loss(truth, clean(p)), f"seeded random probabilities (seed {seed})")

    def lookup(keys_tr, keys_te, name, pipeline, alpha=1.0):
        table = {}
        for k, y in zip(keys_tr, y_tr):
            table.setdefault(k, np.zeros(3))[y] += 1
        p = np.array([(table.get(k, np.zeros(3)) + alpha * prior * 3) / (table.get(k, np.zeros(3)).sum() + alpha * 3) for k in keys_te])
        entry(rows, name, log_loss(truth, clean(p)), pipeline)

    consensus = lambda s: (s[MIDDLE:MIDDLE + 2] == "GT", s[MIDDLE - 2:MIDDLE] == "AG")  # noqa: E731
    for alpha in (0.1, 1.0, 10.0):
        lookup([consensus(s) for s in seqs_tr], [consensus(s) for s in seqs_te], f"rule/consensus/a{alpha}",
               f"class shares given GT after and AG before the middle, smoothing {alpha}", alpha)
    for pos in range(MIDDLE - 5, MIDDLE + 7):
        lookup([s[pos - 1] for s in seqs_tr], [s[pos - 1] for s in seqs_te], f"rule/base-{pos}", f"class shares given the base at position {pos}")
    for a, b in [(29, 31), (28, 32), (30, 31), (29, 30), (31, 32), (27, 33)]:
        lookup([s[a - 1] + s[b - 1] for s in seqs_tr], [s[a - 1] + s[b - 1] for s in seqs_te], f"rule/bases-{a}+{b}",
               f"class shares given the bases at positions {a} and {b}")


# ---------------------------------------------------------------- standard


def standard_models(kind):
    if kind in ("onehot", "middle"):
        yield "bernoulli-nb", lambda: BernoulliNB()
    else:
        yield "multinomial-nb", lambda: MultinomialNB()
    for c in [0.01, 0.1, 1.0, 10.0]:
        yield f"logreg-C{c}", lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=2000))
    for depth in [3, 6, None]:
        yield f"tree-d{depth}", lambda depth=depth: DecisionTreeClassifier(max_depth=depth, random_state=0)
    for k in [5, 25]:
        yield f"knn-k{k}", lambda k=k: KNeighborsClassifier(n_neighbors=k)
    yield "forest-n100", lambda: RandomForestClassifier(n_estimators=100, random_state=0)
    yield "extra-trees-n100", lambda: ExtraTreesClassifier(n_estimators=100, random_state=0)
    yield "hist-gbm-50", lambda: HistGradientBoostingClassifier(max_iter=50, random_state=0)
    yield "svm-rbf-platt", lambda: make_pipeline(StandardScaler(), SVC(probability=True, random_state=0))
    yield "mlp-100", lambda: make_pipeline(StandardScaler(), MLPClassifier((100,), max_iter=200, early_stopping=True, random_state=0))


def standard(rows, seqs_tr, y_tr, seqs_te, truth):
    sets = {
        "onehot": (onehot(seqs_tr), onehot(seqs_te)),
        "middle": (onehot(seqs_tr, MIDDLE - 10, MIDDLE + 10), onehot(seqs_te, MIDDLE - 10, MIDDLE + 10)),
        "kmers": (kmer_counts(seqs_tr), kmer_counts(seqs_te)),
    }
    sets["onehot+kmers"] = (np.hstack([sets["onehot"][0], sets["kmers"][0]]), np.hstack([sets["onehot"][1], sets["kmers"][1]]))
    sets["middle+kmers"] = (np.hstack([sets["middle"][0], sets["kmers"][0]]), np.hstack([sets["middle"][1], sets["kmers"][1]]))
    for kind, (X, Xt) in sets.items():
        for budget in [0.05, 0.1, 0.25, 0.5, 0.75, 1.0]:
            if budget < 1:
                idx, _ = train_test_split(np.arange(len(y_tr)), train_size=budget, stratify=y_tr, random_state=0)
            else:
                idx = np.arange(len(y_tr))
            for name, make in standard_models(kind):
                model = make().fit(X[idx], y_tr[idx])
                p = clean(model.predict_proba(Xt))
                entry(rows, f"{name}/{kind}/{int(budget * 100)}pct", log_loss(truth, p),
                      f"{name} on {kind} features, {int(budget * 100)}% of train ({len(idx)} windows)")


# ---------------------------------------------------------------- strong


class Conv1D:
    """A small 1-D convolutional network on the one-hot sequence: conv layers, global max pooling, a softmax head."""

    def __init__(self, channels=64, kernel=9, layers=2, dropout=0.2, epochs=15, lr=2e-3, seed=0):
        self.channels, self.kernel, self.layers, self.dropout, self.epochs, self.lr, self.seed = channels, kernel, layers, dropout, epochs, lr, seed

    def _net(self):
        mods, width = [], 4
        for _ in range(self.layers):
            mods += [torch.nn.Conv1d(width, self.channels, self.kernel, padding=self.kernel // 2), torch.nn.ReLU()]
            width = self.channels
        return torch.nn.Sequential(*mods, torch.nn.AdaptiveMaxPool1d(1), torch.nn.Flatten(), torch.nn.Dropout(self.dropout), torch.nn.Linear(width, 3))

    def fit(self, X, y):
        torch.manual_seed(self.seed)
        self.net = self._net()
        Xt = torch.tensor(X.reshape(len(X), LENGTH, 4).transpose(0, 2, 1), dtype=torch.float32)
        yt = torch.tensor(y, dtype=torch.long)
        opt = torch.optim.AdamW(self.net.parameters(), lr=self.lr, weight_decay=1e-3)
        steps = self.epochs * ((len(X) + 63) // 64)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=self.lr, total_steps=steps)
        g = torch.Generator().manual_seed(self.seed)
        self.net.train()
        for _ in range(self.epochs):
            perm = torch.randperm(len(X), generator=g)
            for a in range(0, len(X), 64):
                b = perm[a:a + 64]
                opt.zero_grad()
                torch.nn.functional.cross_entropy(self.net(Xt[b]), yt[b]).backward()
                opt.step()
                sched.step()
        return self

    def predict_proba(self, X):
        self.net.eval()
        with torch.no_grad():
            Xt = torch.tensor(X.reshape(len(X), LENGTH, 4).transpose(0, 2, 1), dtype=torch.float32)
            return torch.softmax(self.net(Xt), dim=1).numpy()


def cv_model(make, features, folds, y_tr, n_te):
    """Out-of-fold probabilities on train and the fold models' mean on test; features(fold_train_idx, rows) gives matrices."""
    oof = np.zeros((len(y_tr), 3))
    test = np.zeros((n_te, 3))
    for fit_idx, val_idx in folds:
        X_fit, X_val, X_te = features(fit_idx)
        model = make(fit_idx, val_idx, X_fit, X_val).fit(X_fit, y_tr[fit_idx])
        oof[val_idx] = model.predict_proba(X_val)
        test += model.predict_proba(X_te) / len(folds)
    return clean(oof), clean(test)


class XGB:
    """xgboost with early stopping on the fold's validation part (the round count is chosen on train data only)."""

    def __init__(self, params, X_val, y_val):
        self.params, self.X_val, self.y_val = params, X_val, y_val

    def fit(self, X, y):
        self.model = xgb.XGBClassifier(n_estimators=800, early_stopping_rounds=30, eval_metric="mlogloss", tree_method="hist",
                                       n_jobs=1, random_state=0, **self.params)
        self.model.fit(X, y, eval_set=[(self.X_val, self.y_val)], verbose=False)
        return self

    def predict_proba(self, X):
        return self.model.predict_proba(X)


def temperature(oof, y_tr):
    """The power applied to probabilities (then renormalised) that minimises the out-of-fold log loss."""
    onehot_y = np.eye(3)[y_tr]
    res = minimize_scalar(lambda t: log_loss(onehot_y, clean(oof ** t)), bounds=(0.3, 3.0), method="bounded")
    return res.x


def strong(rows, seqs_tr, y_tr, seqs_te, truth):
    skf = StratifiedKFold(FOLDS, shuffle=True, random_state=0)
    folds = list(skf.split(np.zeros(len(y_tr)), y_tr))
    onehot_y = np.eye(3)[y_tr]
    seqs_tr, seqs_te = np.array(seqs_tr), np.array(seqs_te)
    cache = {}

    def eng(fit_idx):
        key = tuple(fit_idx[:5]) + (len(fit_idx),)
        if key not in cache:
            tr_s, tr_y = seqs_tr[fit_idx], y_tr[fit_idx]
            cache[key] = (engineered(tr_s, tr_y, tr_s), engineered(tr_s, tr_y, seqs_tr), engineered(tr_s, tr_y, seqs_te))
        X_fit, X_all, X_te = cache[key]
        return X_fit, X_all, X_te

    def eng_features(fit_idx):
        X_fit, X_all, X_te = eng(fit_idx)
        val_idx = np.setdiff1d(np.arange(len(y_tr)), fit_idx)
        return X_fit, X_all[val_idx], X_te

    oh_tr, oh_te = onehot(seqs_tr), onehot(seqs_te)

    def oh_features(fit_idx):
        val_idx = np.setdiff1d(np.arange(len(y_tr)), fit_idx)
        return oh_tr[fit_idx], oh_tr[val_idx], oh_te

    models = {}  # name -> (oof, test, pipeline)

    def add(name, oof, test, pipeline):
        cv = log_loss(onehot_y, oof)
        models[name] = (oof, test, pipeline, cv)
        entry(rows, name, log_loss(truth, test), f"{pipeline} (CV log loss {cv:.4f})")

    t0 = time.process_time()
    for c in [0.003, 0.01, 0.03, 0.1, 0.3, 1.0]:
        oof, test = cv_model(lambda f, v, X, Xv, c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=3000)), eng_features, folds, y_tr, len(seqs_te))
        add(f"strong/logreg-C{c}/engineered", oof, test, f"logistic regression C={c} on engineered features, fold models averaged")
    for c in [0.3, 1.0, 3.0, 10.0]:
        oof, test = cv_model(lambda f, v, X, Xv, c=c: make_pipeline(StandardScaler(), SVC(C=c, probability=True, random_state=0)), eng_features, folds, y_tr, len(seqs_te))
        add(f"strong/svm-rbf-C{c}/engineered", oof, test, f"RBF SVM C={c} with Platt probabilities on engineered features, fold models averaged")
    print(f"linear and SVM models: {len(rows)} entries, {time.process_time() - t0:.0f} CPU-s", flush=True)

    rng = np.random.default_rng(0)
    for d in range(XGB_DRAWS):
        params = {
            "learning_rate": float(10 ** rng.uniform(-1.3, -0.7)), "max_depth": int(rng.integers(2, 6)),
            "min_child_weight": float(10 ** rng.uniform(-0.5, 1)), "subsample": float(rng.uniform(0.6, 1)),
            "colsample_bytree": float(rng.uniform(0.2, 0.9)), "reg_lambda": float(10 ** rng.uniform(-1, 1.5)),
            "reg_alpha": float(10 ** rng.uniform(-3, 0.5)),
        }

        def make(f, v, X, Xv, params=params):
            return XGB(params, Xv, y_tr[v])

        oof, test = cv_model(make, eng_features, folds, y_tr, len(seqs_te))
        desc = ", ".join(f"{k} {v:.3g}" for k, v in params.items())
        add(f"strong/xgb-search/draw{d:02d}", oof, test, f"xgboost draw {d} ({desc}) on engineered features, early-stopped fold models averaged")
        print(f"xgboost draw {d}: CV {models[f'strong/xgb-search/draw{d:02d}'][3]:.4f}, {time.process_time() - t0:.0f} CPU-s", flush=True)
    print(f"xgboost search: {len(rows)} entries, {time.process_time() - t0:.0f} CPU-s", flush=True)

    shapes = {"cnn-32x9x1": dict(channels=32, kernel=9, layers=1), "cnn-48x9x2": dict(channels=48, kernel=9, layers=2)}
    for shape, kw in shapes.items():
        runs = []
        for seed in range(3):
            oof, test = cv_model(lambda f, v, X, Xv, seed=seed: Conv1D(seed=seed, **kw), oh_features, folds, y_tr, len(seqs_te))
            runs.append((oof, test))
            if seed + 1 in (1, 3):
                k = seed + 1
                add(f"strong/{shape}/seeds{k}", clean(np.mean([r[0] for r in runs], axis=0)), clean(np.mean([r[1] for r in runs], axis=0)),
                    f"1-D CNN ({kw['layers']} conv layers of {kw['channels']} filters, width {kw['kernel']}) on the one-hot sequence, {k} seed(s) x 5 fold models averaged")
        print(f"{shape}: {len(rows)} entries, {time.process_time() - t0:.0f} CPU-s", flush=True)

    # Blends and stacks of the best models by CV log loss.
    ranked = sorted(models, key=lambda m: models[m][3])
    top = ranked[:12]
    for a, b in itertools.combinations(top, 2):
        (oa, ta, _, _), (ob, tb, _, _) = models[a], models[b]
        res = minimize_scalar(lambda w: log_loss(onehot_y, clean(w * oa + (1 - w) * ob)), bounds=(0, 1), method="bounded")
        w = res.x
        entry(rows, f"blend/{a.split('/', 1)[1]}+{b.split('/', 1)[1]}", log_loss(truth, clean(w * ta + (1 - w) * tb)),
              f"{a} ({w:.2f}) blended with {b} ({1 - w:.2f}), weight from the out-of-fold log loss")
    chosen, blend_oof, blend_test = [], None, None
    for step in range(8):
        best = None
        for m in top:
            o = models[m][0] if blend_oof is None else (blend_oof * len(chosen) + models[m][0]) / (len(chosen) + 1)
            score = log_loss(onehot_y, clean(o))
            if best is None or score < best[0]:
                best = (score, m)
        m = best[1]
        blend_oof = models[m][0] if blend_oof is None else (blend_oof * len(chosen) + models[m][0]) / (len(chosen) + 1)
        blend_test = models[m][1] if blend_test is None else (blend_test * len(chosen) + models[m][1]) / (len(chosen) + 1)
        chosen.append(m)
        if step in (2, 4, 7):
            t = temperature(blend_oof, y_tr)
            entry(rows, f"ensemble/greedy-{step + 1}", log_loss(truth, clean(blend_test)), f"greedy forward selection of {step + 1} models (with replacement) on the out-of-fold loss: {', '.join(chosen)}")
            entry(rows, f"ensemble/greedy-{step + 1}/temp", log_loss(truth, clean(clean(blend_test) ** t)), f"the same, probabilities raised to {t:.3f} (fitted out of fold) and renormalised")
    for k in (5, 10, 20):
        members = ranked[:k]
        Z = np.hstack([np.log(models[m][0]) for m in members])
        Zt = np.hstack([np.log(models[m][1]) for m in members])
        for c in (0.01, 0.1, 1.0):
            stack = LogisticRegression(C=c, max_iter=3000).fit(Z, y_tr)
            entry(rows, f"stack/logreg-C{c}/top{k}", log_loss(truth, clean(stack.predict_proba(Zt))),
                  f"logistic regression (C={c}) on the out-of-fold log-probabilities of the {k} best models")
    print(f"blends and stacks: {len(rows)} entries, {time.process_time() - t0:.0f} CPU-s", flush=True)


def main(data_dir):
    t0 = time.process_time()
    prepared = os.path.join(data_dir, "dna-splice", "prepared")
    train = pd.read_csv(os.path.join(prepared, "public", "train.csv"))
    test = pd.read_csv(os.path.join(prepared, "public", "test.csv"))
    answers = pd.read_csv(os.path.join(prepared, "private", "test.csv")).set_index("id").loc[test.id]
    truth = answers[CLASSES].to_numpy(dtype=float)
    seqs_tr, seqs_te = list(train.sequence), list(test.sequence)
    y_tr = train["class"].map({c: k for k, c in enumerate(CLASSES)}).to_numpy()
    rows = []
    trivial(rows, seqs_tr, y_tr, seqs_te, truth)
    print(f"trivial: {len(rows)} entries", flush=True)
    standard(rows, seqs_tr, y_tr, seqs_te, truth)
    print(f"standard: {len(rows)} entries, {time.process_time() - t0:.0f} CPU-s", flush=True)
    strong(rows, seqs_tr, y_tr, seqs_te, truth)
    write_board(rows, OUT, lower_is_better=True, note=f" in {time.process_time() - t0:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: leaderboard.py <data-dir>   (after: mlebench prepare -c dna-splice --data-dir <data-dir>)")
    main(sys.argv[1])
