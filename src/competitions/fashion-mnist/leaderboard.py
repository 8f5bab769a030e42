#!/usr/bin/python3
"""Reference leaderboard for the offline `fashion-mnist` competition.

Runs a documented population of standard pipelines on the public train split, scores each by
accuracy on the private answers, and writes src/competitions/fashion-mnist/leaderboard.csv
(best first). The scores form a *reference population* of pipelines, not a leaderboard of
human teams.

Classical models, each trained on random 1%, 2%, 5%, 10%, 20%, 50% and 100% subsamples of the
60,000 training images:
- trivial: the majority class of the subsample;
- prototype and generative models: nearest centroid, Gaussian naive Bayes;
- linear models: multinomial logistic regression (several C) and linear SVMs / logistic
  regression trained by SGD (several alpha), on raw pixels (0-255), on pixels / 255, and on
  PCA features;
- k nearest neighbours (several k) on PCA features;
- decision trees (several depths), random forests and extra trees, on pixels and on PCA features;
- an RBF support vector machine on PCA features and a one-hidden-layer perceptron on pixels / 255.

Neural networks (torch, one thread), each trained on the 5%, 20%, 50% and 100% subsamples, with one
entry per finished epoch (the network as it stood then, scored on the test images), as a field
of teams that stopped training at different points:
- two perceptrons on pixels / 255: one hidden layer of 256 units, and two of 512 with dropout;
- two convolutional networks (3x3 convolutions and 2x2 max pooling: 16 then 32 channels and a
  dense layer of 128; 32 then 64 channels, dropout and a dense layer of 128), each trained plainly
  and with augmentation (random horizontal flips, random shifts of up to two pixels);
- at the top, blends of the last epochs' class probabilities: snapshot averages of a network's
  last three epochs, flip test-time augmentation, and averages over the networks of a subsample.

Features: "raw" is the 784 pixels as given, "scaled" is pixels / 255, "pcaN" is the first N
principal components of the scaled pixels, fitted on the training subsample only (one exact
SVD per subsample; the first N components of a 100-component fit are exactly an N-component fit).

Models that are slow on all 60,000 images have a cap on their training rows: they see the
first `cap` images of the subsample, and the entry's name records the share of the training
set actually used (e.g. "33pct" for 20,000 images). Every random choice has a fixed seed, and
nothing is chosen by its test score: every configuration is fixed in advance and every epoch is
entered. The subsamples are nested (pandas draws one permutation and keeps its head), so a capped
model whose cap matches a smaller budget would repeat that budget's entry; it is listed once.
The whole run takes about 40 CPU-minutes (2,365 CPU-seconds measured on one core of an AMD EPYC,
with torch and scikit-learn on that core alone); two runs wrote the same board.

Usage (Debian's interpreter, which has scikit-learn and torch):
    node dist/cli/main.js prepare -c fashion-mnist --data-dir /tmp/lb-data
    /usr/bin/python3 src/competitions/fashion-mnist/leaderboard.py /tmp/lb-data
"""
import os
import sys
import time
import warnings

import numpy as np
import pandas as pd
import torch
from sklearn.decomposition import PCA
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
ID = "fashion-mnist"
BUDGETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0]
NET_BUDGETS = [0.05, 0.2, 0.5, 1.0]
EPOCHS = 10
PCA_MAX = 100


def models():
    """(name, features, row cap or None, factory) for every model in the population."""
    yield "majority", "none", None, None
    yield "nearest-centroid", "raw", None, NearestCentroid
    yield "nearest-centroid", "pca30", None, NearestCentroid
    for feats in ["raw", "pca30", "pca50"]:
        yield "naive-bayes", feats, None, GaussianNB
    for c in [0.001, 0.01, 0.1, 1.0]:
        yield f"logreg-C{c}", "pca50", None, lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=300))
    for feats in ["pca10", "pca100"]:
        for c in [0.01, 1.0]:
            yield f"logreg-C{c}", feats, None, lambda c=c: make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=300))
    for c in [0.01, 1.0]:
        yield f"logreg-C{c}", "scaled", 20_000, lambda c=c: LogisticRegression(C=c, max_iter=100)
    yield "logreg-C0.01", "raw", 12_000, lambda: LogisticRegression(C=0.01, max_iter=100)
    # Weak regularisation, and unscaled pixels, make SGD take many epochs to settle: capped.
    for alpha, cap in [(1e-5, 20_000), (1e-4, None), (1e-3, None)]:
        yield f"sgd-svm-a{alpha}", "scaled", cap, lambda a=alpha: SGDClassifier(alpha=a, random_state=0, n_jobs=2)
    yield "sgd-svm-a0.0001", "raw", 20_000, lambda: SGDClassifier(alpha=1e-4, random_state=0, n_jobs=2)
    yield "sgd-logreg-a0.0001", "pca50", None, lambda: SGDClassifier(loss="log_loss", alpha=1e-4, random_state=0, n_jobs=2)
    for feats in ["pca30", "pca50"]:
        for k in [1, 3, 5, 10, 25]:
            yield f"knn-k{k}", feats, None, lambda k=k: KNeighborsClassifier(n_neighbors=k, n_jobs=2)
    for depth in [4, 8, 12, None]:
        yield f"tree-d{depth}", "pca50", None, lambda d=depth: DecisionTreeClassifier(max_depth=d, random_state=0)
    for depth in [5, 10, None]:
        yield f"tree-d{depth}", "raw", 20_000, lambda d=depth: DecisionTreeClassifier(max_depth=d, random_state=0)
    for n in [10, 100]:
        yield f"forest-n{n}", "pca50", None, lambda n=n: RandomForestClassifier(n_estimators=n, random_state=0, n_jobs=2)
    yield "forest-n30", "raw", 20_000, lambda: RandomForestClassifier(n_estimators=30, random_state=0, n_jobs=2)
    yield "extra-trees-n100", "pca50", None, lambda: ExtraTreesClassifier(n_estimators=100, random_state=0, n_jobs=2)
    yield "extra-trees-n50", "raw", 20_000, lambda: ExtraTreesClassifier(n_estimators=50, random_state=0, n_jobs=2)
    for c, cap in [(1.0, 20_000), (10.0, None)]:
        yield f"svm-rbf-C{c}", "pca50", cap, lambda c=c: SVC(C=c)
    yield "mlp-256", "scaled", 20_000, lambda: MLPClassifier(hidden_layer_sizes=(256,), max_iter=20, random_state=0)


def features(x_train, x_test, kind, cache):
    """The feature matrices of one kind for a training subsample and the test set."""
    if kind == "raw":
        return x_train, x_test
    if kind == "scaled":
        return x_train / 255.0, x_test / 255.0
    n = int(kind[3:])
    if "pca" not in cache:
        pca = PCA(n_components=PCA_MAX, svd_solver="full").fit(x_train / 255.0)
        cache["pca"] = pca.transform(x_train / 255.0), pca.transform(x_test / 255.0)
    p_train, p_test = cache["pca"]
    return p_train[:, :n], p_test[:, :n]


def perceptron(hidden, dropout):
    """A fully connected network on the flattened image."""
    layers, width = [torch.nn.Flatten()], 784
    for units in hidden:
        layers += [torch.nn.Linear(width, units), torch.nn.ReLU()]
        if dropout:
            layers.append(torch.nn.Dropout(dropout))
        width = units
    return torch.nn.Sequential(*layers, torch.nn.Linear(width, 10))


def convnet(first, second, dropout):
    """Two 3x3 convolution + 2x2 max-pooling stages, then a dense layer of 128 units."""
    layers = [torch.nn.Conv2d(1, first, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
              torch.nn.Conv2d(first, second, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
              torch.nn.Flatten()]
    if dropout:
        layers.append(torch.nn.Dropout(dropout))
    return torch.nn.Sequential(*layers, torch.nn.Linear(second * 49, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))


def networks():
    """(name, description, augment, factory) for every network in the population."""
    yield "mlp-256", "perceptron, one hidden layer of 256", False, lambda: perceptron([256], 0)
    yield "mlp-512x2", "perceptron, two hidden layers of 512, dropout 0.2", False, lambda: perceptron([512, 512], 0.2)
    for aug in [False, True]:
        yield "cnn-16-32", "convolutional network, 16 and 32 channels", aug, lambda: convnet(16, 32, 0)
        yield "cnn-32-64", "convolutional network, 32 and 64 channels, dropout 0.3", aug, lambda: convnet(32, 64, 0.3)


def augment(batch, gen):
    """Random horizontal flips (per image) and one random shift of up to two pixels (per batch)."""
    flip = torch.rand(len(batch), generator=gen) < 0.5
    batch = torch.where(flip[:, None, None, None], batch.flip(3), batch)
    dy, dx = (int(v) for v in torch.randint(0, 5, (2,), generator=gen))
    return torch.nn.functional.pad(batch, (2, 2, 2, 2))[:, :, dy:dy + 28, dx:dx + 28]


def probabilities(model, x):
    """Softmax class probabilities, in batches, with the network in evaluation mode."""
    model.eval()
    with torch.no_grad():
        out = torch.cat([torch.softmax(model(x[i:i + 256]), 1) for i in range(0, len(x), 256)])
    model.train()
    return out.numpy()


def train_network(factory, aug, x, y, x_test, seed):
    """Train with Adam (batches of 128, learning rate 1e-3 decayed by 0.8 an epoch) and yield the
    test probabilities after every epoch; after the last, also those of the flipped test images."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    model = factory()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, 0.8)
    for epoch in range(EPOCHS):
        order = torch.randperm(len(x), generator=gen)
        for i in range(0, len(x), 128):
            idx = order[i:i + 128]
            batch = augment(x[idx], gen) if aug else x[idx]
            opt.zero_grad()
            torch.nn.functional.cross_entropy(model(batch), y[idx]).backward()
            opt.step()
        sched.step()
        flipped = probabilities(model, x_test.flip(3)) if epoch == EPOCHS - 1 else None
        yield epoch + 1, probabilities(model, x_test), flipped


def neural_rows(train, x_test_all, truth, pixels, total, log):
    """One entry per network, subsample and epoch, then the blends of each subsample."""
    torch.set_num_threads(1)
    x_test = torch.tensor(x_test_all / 255.0, dtype=torch.float32).reshape(-1, 1, 28, 28)
    rows = []

    def enter(team, pipeline, proba):
        score = float((proba.argmax(1) == truth).mean())
        rows.append({"teamName": team, "score": score, "pipeline": pipeline})
        log(team, score)

    for budget in NET_BUDGETS:
        sub = train.sample(frac=budget, random_state=7)
        n, pct = len(sub), int(round(100 * len(sub) / total))
        x = torch.tensor(sub[pixels].to_numpy(np.float32) / 255.0).reshape(-1, 1, 28, 28)
        y = torch.tensor(sub.label.to_numpy(), dtype=torch.long)
        images = f"{n:,} of the {total:,} training images ({pct}%)"
        finals = {}
        for seed, (name, what, aug, factory) in enumerate(networks()):
            label = name + ("-aug" if aug else "")
            how = what + (", random flips and shifts" if aug else "")
            last = []
            for epoch, proba, flipped in train_network(factory, aug, x, y, x_test, seed):
                enter(f"{label}-e{epoch:02d}/scaled/{pct}pct", f"{how}, after epoch {epoch} of {EPOCHS}, {images}", proba)
                last = (last + [proba])[-3:]
            finals[label] = proba
            enter(f"{label}-last3/scaled/{pct}pct", f"{how}, class probabilities of epochs {EPOCHS - 2}-{EPOCHS} averaged, {images}", np.mean(last, 0))
            if name.startswith("cnn"):
                enter(f"{label}-flip-tta/scaled/{pct}pct", f"{how}, after epoch {EPOCHS}, averaged with its prediction for the mirrored test images, {images}",
                      (proba + flipped) / 2)
        cnns = [k for k in finals if k.startswith("cnn")]
        blends = [("cnn-aug", [k for k in cnns if k.endswith("-aug")], "the two augmented convolutional networks"),
                  ("cnn-all", cnns, "the four convolutional networks"),
                  ("all-nets", list(finals), "all six networks")]
        for tag, members, what in blends:
            enter(f"blend-{tag}/scaled/{pct}pct", f"blend: class probabilities of {what} after epoch {EPOCHS} averaged, {images}",
                  np.mean([finals[k] for k in members], 0))
    return rows


def classical_rows(train, x_test_all, truth, pixels, total, log):
    """One entry per classical model and subsample."""
    rows = []
    for budget in BUDGETS:
        # frac=1.0 too: a shuffled full set, whose head is what capped models see.
        sub = train.sample(frac=budget, random_state=7)
        caches = {}
        for name, kind, cap, factory in models():
            n = len(sub) if cap is None else min(len(sub), cap)
            pct = int(round(100 * n / total))
            team = f"{name}/{kind}/{pct}pct"
            if any(r["teamName"] == team for r in rows):
                continue  # capped at a smaller budget's size: the very rows of that earlier entry
            part = sub.iloc[:n]
            y_train = part.label.to_numpy()
            if factory is None:
                pred = np.full(len(x_test_all), part.label.mode()[0])
            else:
                x_train, x_test = features(part[pixels].to_numpy(np.float64), x_test_all, kind, caches.setdefault(n, {}))
                pred = factory().fit(x_train, y_train).predict(x_test)
            score = float((pred == truth).mean())
            what = "majority class, no features" if factory is None else f"{name} on {kind} features"
            rows.append({"teamName": team, "score": score,
                         "pipeline": f"{what}, {n:,} of the {total:,} training images ({pct}%)"})
            log(team, score)
    return rows


def main(data_dir):
    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    root = os.path.join(data_dir, ID, "prepared")
    train = pd.read_csv(os.path.join(root, "public", "train.csv"))
    test = pd.read_csv(os.path.join(root, "public", "test.csv"))
    answers = pd.read_csv(os.path.join(root, "private", "test.csv"))
    truth = test[["id"]].merge(answers, on="id", how="left").label.to_numpy()
    pixels = [c for c in train.columns if c.startswith("pixel")]
    x_test_all = test[pixels].to_numpy(np.float64)
    started, last = time.process_time(), [time.process_time()]

    def log(team, score):
        now = time.process_time()
        print(f"{team:40s} {score:.4f} {now - last[0]:6.1f} CPU-s (total {now - started:6.0f})", file=sys.stderr, flush=True)
        last[0] = now

    rows = classical_rows(train, x_test_all, truth, pixels, len(train), log)
    rows += neural_rows(train, x_test_all, truth, pixels, len(train), log)
    write_board(rows, OUT, lower_is_better=False, note=f", {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
