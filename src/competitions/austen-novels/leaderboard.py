#!/usr/bin/python3
"""Reference leaderboard for the offline `austen-novels` competition.

Trains a documented population of pipelines on the public train split (7,089 passages from
189 chapters), scores each by multi-class log loss on the private answers (3,126 passages from
80 other chapters), and writes leaderboard.csv beside this script (best first). The scores form
a *reference population* of pipelines, not a leaderboard of human teams. Nothing but the final
scoring reads the answers: every hyper-parameter, temperature, blend weight and stacking model
is chosen by 5-fold cross-validation on train, with folds made of whole chapters (a chapter's
passages continue each other, so random folds would flatter the models that memorise scenes).

Every submission is floored at 1e-6 and renormalised; the log loss is the grader's formula
(probabilities clipped at float64 eps, rows not renormalised).

The population (about 500 entries), bottom to top:

1. Trivial: uniform probabilities; the training class shares; seeded random probabilities;
   a rule counting hand-listed character and place names of each novel (Woodhouse, Knightley,
   Highbury for Emma, Darcy, Bennet, Pemberley for Pride and Prejudice, ...) at three
   strengths.
2. Standard pipelines, every combination of
   - a vectorizer fitted on the training sample only: word counts, word tf-idf, word uni+bigram
     tf-idf, character 2-4-gram tf-idf;
   - a model, with its own probabilities as they come: multinomial and Bernoulli naive Bayes,
     one-vs-rest and multinomial logistic regression, SGD (log and modified Huber losses),
     cosine kNN, a decision tree, a random forest; linear SVMs and ridge classifiers through a
     plain softmax of their decision values;
   - a budget: a seeded 10%, 25% or 50% sample of train, or all of it.
3. Strong pipelines. Vectorizers are fitted once on the texts of train and test together (they
   see no labels): word 1-2-gram tf-idf, character-in-word 2-5-gram tf-idf, both side by side,
   and word counts. On them, with chapter-grouped 5-fold CV:
   - linear SVMs, ridge classifiers, one-vs-rest logistic regression, SGD and multinomial naive
     Bayes over small grids, each calibrated by a softmax temperature fitted on its out-of-fold
     scores; every model is two entries (its fold models averaged on test; a refit on all of
     train, with the same temperature);
   - MLPs on a 256-dimensional SVD of the combined tf-idf, over three seeds, and their bag;
   - blends: averages of the best calibrated models, greedy forward selection and weights
     optimised on the out-of-fold log loss, and stacking (multinomial logistic regression on the
     out-of-fold log-probabilities, alone and with the name counts of the trivial rule).

Runtime: about 7 CPU-minutes, single-threaded (OMP/BLAS threads pinned to 1).

Usage (Debian's interpreter, which has scikit-learn and scipy):
    node dist/cli/main.js prepare -c austen-novels --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/austen-novels/leaderboard.py /tmp/lb-data
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from scipy.optimize import minimize, minimize_scalar  # noqa: E402
from scipy.sparse import hstack  # noqa: E402
from scipy.special import log_softmax, softmax  # noqa: E402
from sklearn.decomposition import TruncatedSVD  # noqa: E402
from sklearn.ensemble import RandomForestClassifier  # noqa: E402
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer  # noqa: E402
from sklearn.linear_model import LogisticRegression, RidgeClassifier, SGDClassifier  # noqa: E402
from sklearn.model_selection import StratifiedGroupKFold  # noqa: E402
from sklearn.naive_bayes import BernoulliNB, MultinomialNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import log_loss, normalise, write_board  # noqa: E402

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
CLASSES = ["emma", "mansfieldpark", "northangerabbey", "persuasion", "prideprejudice", "sensesensibility"]
FOLDS = 5
FLOOR = 1e-6

# Principal characters and places of each novel, from a reader's memory of the books.
CAST = {
    "emma": ["Emma", "Woodhouse", "Knightley", "Harriet", "Elton", "Weston", "Churchill", "Fairfax", "Bates", "Highbury",
             "Hartfield", "Randalls", "Donwell", "Goddard", "Perry", "Cole"],
    "mansfieldpark": ["Fanny", "Edmund", "Bertram", "Crawford", "Norris", "Rushworth", "Yates", "Julia", "Maria", "Mansfield",
                      "Sotherton", "Portsmouth", "Grant", "Susan", "Thomas"],
    "northangerabbey": ["Catherine", "Morland", "Tilney", "Thorpe", "Isabella", "Eleanor", "Allen", "Northanger", "Fullerton",
                        "Woodston", "Henry", "Bath"],
    "persuasion": ["Anne", "Elliot", "Wentworth", "Musgrove", "Louisa", "Henrietta", "Kellynch", "Uppercross", "Russell",
                   "Benwick", "Harville", "Croft", "Lyme", "Walter", "Clay"],
    "prideprejudice": ["Elizabeth", "Darcy", "Bennet", "Bingley", "Jane", "Wickham", "Lydia", "Collins", "Lizzy", "Kitty",
                       "Netherfield", "Longbourn", "Pemberley", "Gardiner", "Lucas", "Meryton", "Rosings"],
    "sensesensibility": ["Elinor", "Marianne", "Dashwood", "Willoughby", "Brandon", "Edward", "Ferrars", "Jennings", "Lucy",
                         "Steele", "Barton", "Norland", "Middleton", "Palmer", "Cleveland"],
}


def cast_counts(texts):
    """How many names of each novel's cast a passage mentions (whole words, case-sensitive)."""
    return np.column_stack([texts.str.count(r"\b(?:" + "|".join(CAST[c]) + r")\b").to_numpy(float) for c in CLASSES])


STANDARD_VECTORIZERS = {
    "counts-w1": lambda: CountVectorizer(min_df=2),
    "tfidf-w1": lambda: TfidfVectorizer(min_df=2, sublinear_tf=True),
    "tfidf-w12": lambda: TfidfVectorizer(min_df=2, ngram_range=(1, 2), sublinear_tf=True, max_features=100000),
    "tfidf-c24": lambda: TfidfVectorizer(min_df=3, analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True, max_features=50000),
}


def standard_models(vname):
    """(name, factory, how) for the standard models run on a vectorizer; how is 'proba' or 'softmax' (of the decision function).
    The character features are dense per passage, which makes the slow models too slow: only the fast ones run on them."""
    cheap_only = vname == "tfidf-c24"
    for a in [0.01, 0.03, 0.1, 0.3, 1.0, 3.0]:
        yield f"multinomial-nb-a{a}", lambda a=a: MultinomialNB(alpha=a), "proba"
    yield "bernoulli-nb", lambda: BernoulliNB(alpha=1.0), "proba"
    for c in [1.0, 10.0, 100.0]:
        if not cheap_only or c == 10.0:
            yield f"logreg-ovr-C{c}", lambda c=c: LogisticRegression(C=c, solver="liblinear"), "proba"
    if vname in ("counts-w1", "tfidf-w1"):
        for c in [1.0, 10.0]:
            yield f"logreg-multinomial-C{c}", lambda c=c: LogisticRegression(C=c, max_iter=300), "proba"
    for alpha in [1e-4, 1e-5]:
        yield f"sgd-log-a{alpha:g}", lambda alpha=alpha: SGDClassifier(loss="log_loss", alpha=alpha, random_state=0), "proba"
    yield "sgd-modified-huber", lambda: SGDClassifier(loss="modified_huber", alpha=1e-4, random_state=0), "proba"
    for c in [0.1, 1.0]:
        yield f"linear-svm-C{c}", lambda c=c: LinearSVC(C=c), "softmax"
    yield "ridge-a1", lambda: RidgeClassifier(alpha=1.0), "softmax"
    if cheap_only:
        return
    for k in [10, 50]:
        yield f"knn-cosine-k{k}", lambda k=k: KNeighborsClassifier(n_neighbors=k, metric="cosine", algorithm="brute"), "proba"
    yield "tree-d20", lambda: DecisionTreeClassifier(max_depth=20, min_samples_leaf=3, random_state=0), "proba"
    if vname == "counts-w1":
        yield "forest-n100", lambda: RandomForestClassifier(n_estimators=100, min_samples_leaf=1, max_features="sqrt", random_state=0), "proba"


def model_scores(model, X, how):
    """Log-probability-like scores: log of the probabilities, or the raw decision function."""
    if how == "softmax":
        return model.decision_function(X)
    return np.log(np.clip(model.predict_proba(X), 1e-300, 1.0))


def fit_temperature(scores, y):
    """The softmax temperature minimising the log loss of the scores."""
    onehot = np.eye(len(CLASSES))[y]
    loss = lambda t: -(onehot * log_softmax(scores * t, axis=1)).sum(axis=1).mean()  # noqa: E731
    return float(minimize_scalar(loss, bounds=(1e-3, 1e3), method="bounded").x)


def fit_vector_scaling(scores, y, t0):
    """A temperature and a bias per class (vector scaling without per-class slopes) minimising the log loss."""
    onehot = np.eye(len(CLASSES))[y]

    def loss(v):
        lp = log_softmax(scores * v[0] + v[1:], axis=1)
        p = np.exp(lp)
        grad_z = (p - onehot) / len(y)
        return -(onehot * lp).sum(axis=1).mean(), np.concatenate([[(grad_z * scores).sum()], grad_z.sum(axis=0)])

    v = minimize(loss, np.concatenate([[t0], np.zeros(len(CLASSES))]), jac=True, method="L-BFGS-B").x
    return v[0], v[1:]


def main(data_dir):
    started = time.process_time()
    root = os.path.join(data_dir, "austen-novels", "prepared")
    train = pd.read_csv(os.path.join(root, "public", "train.csv"), keep_default_na=False)
    test = pd.read_csv(os.path.join(root, "public", "test.csv"), keep_default_na=False)
    answers = pd.read_csv(os.path.join(root, "private", "test.csv"))
    truth = test[["id"]].merge(answers, on="id", how="left")[CLASSES].to_numpy(dtype=float)
    assert not np.isnan(truth).any(), "answers do not cover every test id"
    y = train.novel.map({c: i for i, c in enumerate(CLASSES)}).to_numpy()
    onehot = np.eye(len(CLASSES))[y]
    prior = onehot.mean(axis=0)
    rows = []

    def add(team, pipeline, p):
        p = normalise(np.asarray(p, dtype=float), FLOOR)
        assert p.shape == truth.shape and np.isfinite(p).all(), team
        rows.append({"teamName": team, "score": log_loss(truth, p), "pipeline": pipeline})

    # 1. Trivial.
    n_test = len(test)
    add("uniform", "1/6 for every novel", np.full((n_test, 6), 1 / 6))
    add("prior", "the training share of each novel", np.tile(prior, (n_test, 1)))
    for s in range(2):
        add(f"random-{s}", f"seeded random probabilities (Dirichlet(1), seed {s})", np.random.default_rng(s).dirichlet(np.ones(6), n_test))
    names_test = cast_counts(test.text)
    for strength in [0.5, 1.0, 2.0]:
        add(f"cast-names/s{strength}", f"training shares times exp({strength} x the count of each novel's hand-listed names)",
            softmax(np.log(prior) + strength * names_test, axis=1))

    # 2. Standard pipelines over vectorizers and budgets.
    for budget in [0.05, 0.1, 0.25, 0.5, 1.0]:
        sub = train.sample(frac=budget, random_state=7) if budget < 1 else train
        ys = sub.novel.map({c: i for i, c in enumerate(CLASSES)}).to_numpy()
        pct = int(round(budget * 100))
        for vname, make_vec in STANDARD_VECTORIZERS.items():
            vec = make_vec()
            x_train, x_test = vec.fit_transform(sub.text), vec.transform(test.text)
            for name, factory, how in standard_models(vname):
                if name.startswith("forest") and budget < 0.5:
                    continue
                model = factory().fit(x_train, ys)
                scores = model_scores(model, x_test, how)
                add(f"{name}/{vname}/{pct}pct", f"{name} on {vname} features, {pct}% of train", softmax(scores, axis=1))
    print(f"standard done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 3. Strong pipelines: vectorizers fitted once on all texts (no labels), chapter-grouped CV.
    n = len(train)
    texts = pd.concat([train.text, test.text], ignore_index=True)
    word = TfidfVectorizer(min_df=2, ngram_range=(1, 2), sublinear_tf=True).fit_transform(texts).tocsr()
    char = TfidfVectorizer(min_df=3, analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True, max_features=100000).fit_transform(texts).tocsr()
    both = hstack([word, char]).tocsr()
    counts = CountVectorizer(min_df=1).fit_transform(texts).tocsr()
    counts12 = CountVectorizer(min_df=1, ngram_range=(1, 2)).fit_transform(texts).tocsr()
    sets = {"word12": word, "char25": char, "word12+char25": both, "counts-w1": counts, "counts-w12": counts12}
    groups = (train.novel + "/" + train.chapter.astype(str)).to_numpy()
    folds = list(StratifiedGroupKFold(FOLDS, shuffle=True, random_state=42).split(np.zeros(n), y, groups))
    test_rows = np.arange(n, n + n_test)
    library = {}

    def cv_loss(p):
        return log_loss(onehot, normalise(p, FLOOR))

    def cv_run(make, X, how):
        """Out-of-fold scores, fold-averaged test probabilities and a refit, calibrated by a temperature fitted on the folds."""
        oof = np.zeros((n, 6))
        fold_scores = []
        for a, b in folds:
            m = make().fit(X[a], y[a])
            oof[b] = model_scores(m, X[b], how)
            fold_scores.append(model_scores(m, X[test_rows], how))
        t = fit_temperature(oof, y)
        fold_avg = np.mean([softmax(s * t, axis=1) for s in fold_scores], axis=0)
        refit_scores = model_scores(make().fit(X[:n], y), X[test_rows], how)
        return oof, fold_avg, refit_scores, t

    def enter(team, pipeline, oof_scores, fold_avg, refit_scores, t):
        """Four entries per model: fold average and refit (temperature-calibrated), the refit uncalibrated and vector-scaled."""
        oof = softmax(oof_scores * t, axis=1)
        score = cv_loss(oof)
        add(f"{team}/fold-avg", f"{pipeline}, temperature {t:.3g} fitted on the folds, {FOLDS} fold models averaged (CV log loss {score:.4f})", fold_avg)
        refit = softmax(refit_scores * t, axis=1)
        add(f"{team}/refit", f"{pipeline}, temperature {t:.3g} fitted on the folds, refit on all of train (CV log loss {score:.4f})", refit)
        add(f"{team}/refit-uncalibrated", f"{pipeline}, refit on all of train, a plain softmax of its scores (no temperature)",
            softmax(refit_scores, axis=1))
        scale, bias = fit_vector_scaling(oof_scores, y, t)
        scaled = softmax(oof_scores * scale + bias, axis=1)
        add(f"{team}/refit-vector-scaled", f"{pipeline}, refit on all of train, temperature and per-novel biases fitted on the folds "
            f"(CV log loss {cv_loss(scaled):.4f})", softmax(refit_scores * scale + bias, axis=1))
        library[team] = (oof, refit)

    grid = []
    svm = lambda c: lambda: LinearSVC(C=c)  # noqa: E731
    ridge = lambda a: lambda: RidgeClassifier(alpha=a)  # noqa: E731
    sgd = lambda a: lambda: SGDClassifier(loss="modified_huber", alpha=a, random_state=0)  # noqa: E731
    for c in [0.1, 0.3, 1.0]:
        grid.append((f"linear-svm-C{c}/word12", f"linear SVM (C={c}) on word12 tf-idf", "word12", "softmax", svm(c)))
    for c in [0.1, 0.3]:
        grid.append((f"linear-svm-C{c}/char25", f"linear SVM (C={c}) on char25 tf-idf", "char25", "softmax", svm(c)))
        grid.append((f"linear-svm-C{c}/word12+char25", f"linear SVM (C={c}) on word12+char25 tf-idf", "word12+char25", "softmax", svm(c)))
    for a in [1.0, 3.0]:
        grid.append((f"ridge-a{a}/word12", f"ridge classifier (alpha={a}) on word12 tf-idf", "word12", "softmax", ridge(a)))
    grid.append(("ridge-a3.0/word12+char25", "ridge classifier (alpha=3.0) on word12+char25 tf-idf", "word12+char25", "softmax", ridge(3.0)))
    for c in [10.0, 30.0]:
        grid.append((f"logreg-ovr-C{c}/word12", f"one-vs-rest logistic regression (C={c}) on word12 tf-idf", "word12", "softmax",
                     lambda c=c: LogisticRegression(C=c, solver="liblinear")))
    for kind in ["word12", "char25", "word12+char25"]:
        for alpha in [1e-5, 3e-5]:
            grid.append((f"sgd-modified-huber-a{alpha:g}/{kind}", f"SGD, modified Huber loss (alpha={alpha:g}), on {kind} tf-idf", kind, "softmax",
                         sgd(alpha)))
    for kind in ["counts-w1", "counts-w12"]:
        for a in [0.03, 0.1, 0.3]:
            grid.append((f"multinomial-nb-a{a}/{kind}", f"multinomial naive Bayes (alpha={a}) on {kind}", kind, "proba",
                         lambda a=a: MultinomialNB(alpha=a)))
    for team, pipeline, kind, how, make in grid:
        enter(team, pipeline, *cv_run(make, sets[kind], how))
    print(f"linear models done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    svd = TruncatedSVD(256, random_state=0).fit_transform(both)
    svd = svd / np.linalg.norm(svd, axis=1, keepdims=True)
    mlp_oof, mlp_test = [], []
    for s in range(3):
        make = lambda s=s: MLPClassifier((128,), alpha=1e-3, learning_rate_init=1e-3, max_iter=200, early_stopping=True, random_state=s)  # noqa: E731
        oof_scores, fold_avg, refit_scores, t = cv_run(make, svd, "proba")
        enter(f"mlp-128/svd256/seed{s}", f"MLP (128 hidden) on a 256-d SVD of word12+char25 tf-idf, seed {s}", oof_scores, fold_avg, refit_scores, t)
        mlp_oof.append(softmax(oof_scores * t, axis=1))
        mlp_test.append(fold_avg)
    add("mlp-128/svd256/bag3", f"MLP bagged over 3 seeds x {FOLDS} folds (CV log loss {cv_loss(np.mean(mlp_oof, axis=0)):.4f})", np.mean(mlp_test, axis=0))
    library["mlp-128/svd256/bag3"] = (np.mean(mlp_oof, axis=0), np.mean(mlp_test, axis=0))
    print(f"mlp done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Blends and stacking, all on the out-of-fold probabilities.
    ranked = sorted(library, key=lambda k: cv_loss(library[k][0]))
    for top in [2, 3, 5, 8, len(ranked)]:
        members = ranked[:top]
        add(f"blend/mean-top{top}", f"average of the {top} best calibrated models by CV log loss: " + ", ".join(members),
            np.mean([library[k][1] for k in members], axis=0))
    for steps in [3, 5, 10, 20]:
        chosen = []
        for _ in range(steps):
            j = min(ranked, key=lambda k: cv_loss(np.mean([library[c][0] for c in chosen + [k]], axis=0)))
            chosen.append(j)
        add(f"blend/greedy-{steps}", f"greedy forward blend ({steps} steps, with replacement) on the out-of-fold log loss: "
            + ", ".join(sorted(set(chosen))), np.mean([library[k][1] for k in chosen], axis=0))
    logs_oof = [np.log(np.clip(library[k][0], FLOOR, 1)) for k in ranked]
    logs_test = [np.log(np.clip(library[k][1], FLOOR, 1)) for k in ranked]
    for top in [3, 6, 12]:
        def loss(w, top=top):
            return cv_loss(softmax(sum(wi * lo for wi, lo in zip(w, logs_oof[:top])), axis=1))
        w = minimize(loss, np.full(top, 1.0 / top), method="Powell", options={"maxiter": 2000, "xtol": 1e-3}).x
        add(f"blend/log-linear-top{top}", f"log-linear blend of the {top} best models, weights optimised on the out-of-fold log loss "
            f"({', '.join(f'{wi:.2f}' for wi in w)})", softmax(sum(wi * lo for wi, lo in zip(w, logs_test[:top])), axis=1))
    names_train = cast_counts(train.text)
    for top in [6, 12, len(ranked)]:
        for c in [0.01, 0.1]:
            for with_names in [False, True]:
                A = np.column_stack(logs_oof[:top] + ([np.log1p(names_train)] if with_names else []))
                B = np.column_stack(logs_test[:top] + ([np.log1p(names_test)] if with_names else []))
                meta = LogisticRegression(C=c, max_iter=2000).fit(A, y)
                extra = " and the cast-name counts" if with_names else ""
                add(f"stack-logreg-C{c}/top{top}" + ("+names" if with_names else ""), f"stacking: multinomial logistic regression (C={c}) "
                    f"on the out-of-fold log-probabilities of the {top} best models{extra}", meta.predict_proba(B))

    write_board(rows, OUT, lower_is_better=True, note=f" in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
