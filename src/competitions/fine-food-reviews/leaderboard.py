#!/usr/bin/python3
"""Reference leaderboard for the offline `fine-food-reviews` competition.

Trains a documented population of pipelines on the public train split (3,481 reviews), scores
each by ROC AUC on the private answers (1,492 reviews), and writes leaderboard.csv beside this
script (best first). The scores form a *reference population* of pipelines, not a leaderboard
of human teams. Nothing but the final scoring reads the answers: every hyper-parameter, epoch
count, blend and stacking weight is chosen by stratified 5-fold cross-validation on train.

The population (about 600 entries), bottom to top:

1. Trivial: a constant; seeded random scores; one-statistic rules (length, exclamation marks,
   share of capitals, a hand-made lexicon of praise and complaint words, the product code's
   prefix, which dates the listing).
2. Standard pipelines, every combination of
   - a vectorizer fitted on the training sample only: word counts, binary words, word tf-idf,
     word uni+bigram tf-idf, character 2-4-gram tf-idf;
   - a model: multinomial, complement and Bernoulli naive Bayes, logistic regression
     (C 0.1 ... 30), linear SVMs, SGD with three losses, ridge, passive-aggressive, cosine kNN,
     decision trees, a random forest;
   - a budget: a seeded 10%, 25% or 50% sample of train, or all of it.
   Models without probabilities submit their decision function (only the ranking counts).
3. Strong pipelines. Vectorizers are fitted once on the texts of train and test together (they
   see no labels): word 1-3-gram tf-idf, character-in-word 1-5-gram tf-idf, both side by side,
   binary word 1-3-grams, and word 1-2-grams beside raw character 2-5-grams of the text as
   shipped. On them, with 5-fold CV:
   - logistic regression and linear SVMs over C grids on the word, character and combined sets,
     ridge classifiers on the combined set;
   - NB-LR and NB-SVM (features scaled by naive Bayes log-count ratios computed inside each
     fold, Wang & Manning 2012) over C grids;
   - a fastText-style network in torch (mean of word and hashed-bigram embeddings, sparse Adam),
     epochs chosen on the folds, bagged over seeds;
   every model is two entries (its fold models averaged on test; a refit on all of train);
   - rank-average blends of the best models, greedy forward selection on the out-of-fold
     predictions, stacking by logistic regression on out-of-fold logits (of the best 6, 12,
     24 or all models, or the best of each family), and xgboost stackers (20 draws of a random
     search on the same folds, the best ones seed-averaged) that add hand-made review
     statistics: length, punctuation, capitals, praise and complaint word counts, negations,
     contrast words ("but", "however"), star ratings written in the text, the product code's
     prefix; blends of the two kinds of stacker.

Runtime: about 7 CPU-minutes, single-threaded (OMP/BLAS threads pinned to 1).

Usage (Debian's interpreter, which has scikit-learn, xgboost and torch):
    node dist/cli/main.js prepare -c fine-food-reviews --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/fine-food-reviews/leaderboard.py /tmp/lb-data
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import re  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
import zlib  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import torch  # noqa: E402
import xgboost as xgb  # noqa: E402
from scipy.sparse import csr_matrix, hstack  # noqa: E402
from scipy.stats import rankdata  # noqa: E402
from sklearn.ensemble import RandomForestClassifier  # noqa: E402
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer  # noqa: E402
from sklearn.linear_model import LogisticRegression, PassiveAggressiveClassifier, RidgeClassifier, SGDClassifier  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402
from sklearn.naive_bayes import BernoulliNB, ComplementNB, MultinomialNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board  # noqa: E402

warnings.filterwarnings("ignore")
torch.set_num_threads(1)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
FOLDS = 5

# A short hand-made lexicon for food reviews: words of praise and of complaint.
PRAISE = ["love", "loves", "loved", "great", "best", "delicious", "perfect", "excellent", "amazing", "awesome", "favorite",
          "wonderful", "fantastic", "yummy", "tasty", "highly", "recommend", "addicted", "fresh", "happy", "fast", "glad"]
COMPLAINT = ["not", "bad", "disappointed", "disappointing", "terrible", "awful", "horrible", "worst", "stale", "bland", "weird",
             "however", "but", "unfortunately", "okay", "ok", "expensive", "return", "waste", "broken", "too", "wish", "though"]
NEGATIONS = ["not", "no", "never", "don't", "didn't", "doesn't", "isn't", "wasn't", "won't", "can't", "nothing"]
STAR_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def clean(texts):
    """The review text with the store's HTML line breaks turned into spaces."""
    return texts.str.replace(r"<br\s*/?>", " ", regex=True)


def words(texts):
    return texts.str.lower().str.findall(r"[a-z']+")


def lexicon_count(texts, lexicon):
    wanted = set(lexicon)
    return np.array([sum(w in wanted for w in ws) for ws in words(texts)], dtype=float)


def written_stars(texts):
    """The star rating a review states in words ("5 stars", "four-star"), 0 where it states none."""
    found = texts.str.lower().str.extract(r"\b([0-5]|one|two|three|four|five)[- ]?stars?\b")[0]
    return found.map(lambda v: float(STAR_WORDS.get(v, v)) if isinstance(v, str) else 0.0).astype(float).to_numpy()


def product_age(products):
    """The second to fourth characters of the product code, which grow with the listing date."""
    return pd.to_numeric(products.str[1:4], errors="coerce").fillna(0).to_numpy(float)


def review_statistics(df):
    """Hand-made per-review numbers for the stackers."""
    text = clean(df.review)
    n_words = np.maximum(text.str.count(r"\S+").to_numpy(float), 1.0)
    letters = np.maximum(text.str.count(r"[A-Za-z]").to_numpy(float), 1.0)
    return np.column_stack([
        np.log1p(text.str.len().to_numpy(float)), np.log(n_words),
        text.str.count("!").to_numpy(float), text.str.count(r"\?").to_numpy(float),
        text.str.count(r"[A-Z]").to_numpy(float) / letters,
        lexicon_count(text, PRAISE) / n_words, lexicon_count(text, COMPLAINT) / n_words,
        lexicon_count(text, NEGATIONS) / n_words, lexicon_count(text, ["but", "however", "although", "though"]),
        written_stars(text), df.review.str.contains("<br").to_numpy(float), product_age(df["product"]),
    ])


# Standard vectorizers, fitted on each budget's sample alone.
STANDARD_VECTORIZERS = {
    "counts-w1": lambda: CountVectorizer(min_df=2),
    "binary-w1": lambda: CountVectorizer(min_df=2, binary=True),
    "tfidf-w1": lambda: TfidfVectorizer(min_df=2, sublinear_tf=True),
    "tfidf-w12": lambda: TfidfVectorizer(min_df=2, ngram_range=(1, 2), sublinear_tf=True),
    "tfidf-c24": lambda: TfidfVectorizer(min_df=3, analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True, max_features=60000),
}


def standard_models():
    """(name, factory) for every standard model."""
    for a in [0.03, 0.1, 0.3, 1.0]:
        yield f"multinomial-nb-a{a}", lambda a=a: MultinomialNB(alpha=a)
    yield "complement-nb", lambda: ComplementNB(alpha=0.3)
    yield "bernoulli-nb", lambda: BernoulliNB(alpha=1.0)
    for c in [0.1, 0.3, 1.0, 3.0, 10.0, 30.0]:
        yield f"logreg-C{c}", lambda c=c: LogisticRegression(C=c, solver="liblinear", max_iter=2000)
    for c in [0.01, 0.1, 1.0]:
        yield f"linear-svm-C{c}", lambda c=c: LinearSVC(C=c, max_iter=5000)
    for loss in ["hinge", "log_loss", "modified_huber"]:
        yield f"sgd-{loss}", lambda loss=loss: SGDClassifier(loss=loss, alpha=1e-4, random_state=0)
    for a in [1.0, 10.0]:
        yield f"ridge-a{a}", lambda a=a: RidgeClassifier(alpha=a)
    yield "passive-aggressive", lambda: PassiveAggressiveClassifier(random_state=0)
    for k in [5, 25, 100]:
        yield f"knn-cosine-k{k}", lambda k=k: KNeighborsClassifier(n_neighbors=k, metric="cosine", algorithm="brute")
    for d in [5, 20]:
        yield f"tree-d{d}", lambda d=d: DecisionTreeClassifier(max_depth=d, min_samples_leaf=5, random_state=0)
    yield "forest-n100", lambda: RandomForestClassifier(n_estimators=100, min_samples_leaf=2, max_features="sqrt", random_state=0)


def scores_of(model, X):
    """Probabilities of a five-star review where the model has them, else its decision function."""
    if hasattr(model, "predict_proba"):
        return model.predict_proba(X)[:, 1]
    return model.decision_function(X)


def nb_ratio(X, y):
    """Naive Bayes log-count ratio of each feature (Wang & Manning), smoothed by one."""
    p = np.asarray(X[y == 1].sum(axis=0)).ravel() + 1.0
    q = np.asarray(X[y == 0].sum(axis=0)).ravel() + 1.0
    return np.log((p / p.sum()) / (q / q.sum()))


class FastText(torch.nn.Module):
    """Mean of word and hashed-bigram embeddings, then one logit."""

    def __init__(self, n_vocab, dim):
        super().__init__()
        self.embed = torch.nn.EmbeddingBag(n_vocab, dim, mode="mean", sparse=True)
        self.drop = torch.nn.Dropout(0.3)
        self.out = torch.nn.Linear(dim, 1)

    def forward(self, flat, offsets):
        return self.out(self.drop(self.embed(flat, offsets))).squeeze(1)


def token_ids(texts, fit_texts, buckets=2 ** 16):
    """Word ids (words seen twice in fit_texts) plus hashed bigram ids for each text."""
    tokens = [re.findall(r"[a-z0-9']+|[!?]", t) for t in clean(texts).str.lower()]
    counts = {}
    for t in clean(fit_texts).str.lower():
        for w in re.findall(r"[a-z0-9']+|[!?]", t):
            counts[w] = counts.get(w, 0) + 1
    vocab = {w: i + 1 for i, w in enumerate(sorted(w for w, c in counts.items() if c >= 2))}
    base = len(vocab) + 1
    out = []
    for ts in tokens:
        ids = [vocab[w] for w in ts if w in vocab]
        ids += [base + zlib.crc32(f"{a} {b}".encode()) % buckets for a, b in zip(ts, ts[1:])]
        out.append(ids or [0])
    return out, base + buckets


def fasttext_epochs(ids, n_vocab, y, fit_rows, eval_sets, epochs, seed, dim=32):
    """Train on fit_rows; after each epoch, scores for each list of rows in eval_sets."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = FastText(n_vocab, dim)
    sparse_opt = torch.optim.SparseAdam(list(model.embed.parameters()), lr=0.01)
    dense_opt = torch.optim.Adam(model.out.parameters(), lr=0.01)
    target = torch.tensor(y, dtype=torch.float32)

    def batch(rows):
        flat, offsets = [], []
        for r in rows:
            offsets.append(len(flat))
            flat.extend(ids[r])
        return torch.tensor(flat), torch.tensor(offsets)

    history = []
    for _ in range(epochs):
        model.train()
        order = fit_rows[rng.permutation(len(fit_rows))]
        for i in range(0, len(order), 32):
            rows = order[i:i + 32]
            sparse_opt.zero_grad()
            dense_opt.zero_grad()
            loss = torch.nn.functional.binary_cross_entropy_with_logits(model(*batch(rows)), target[rows])
            loss.backward()
            sparse_opt.step()
            dense_opt.step()
        model.eval()
        with torch.no_grad():
            history.append([model(*batch(rows)).numpy() for rows in eval_sets])
    return history


def main(data_dir):
    started = time.process_time()
    root = os.path.join(data_dir, "fine-food-reviews", "prepared")
    train = pd.read_csv(os.path.join(root, "public", "train.csv"), keep_default_na=False)
    test = pd.read_csv(os.path.join(root, "public", "test.csv"), keep_default_na=False)
    answers = pd.read_csv(os.path.join(root, "private", "test.csv"))
    truth = test[["id"]].merge(answers, on="id", how="left").great.to_numpy()
    assert not np.isnan(truth.astype(float)).any(), "answers do not cover every test id"
    y = train.great.to_numpy()
    rows = []

    def add(team, pipeline, score):
        score = np.asarray(score, dtype=float)
        assert score.shape == truth.shape and np.isfinite(score).all(), team
        rows.append({"teamName": team, "score": float(roc_auc_score(truth, score)), "pipeline": pipeline})

    # 1. Trivial.
    add("constant", "the same score for every review", np.full(len(test), y.mean()))
    for s in range(3):
        add(f"random-{s}", f"a seeded uniform random score (seed {s})", np.random.default_rng(s).random(len(test)))
    text = clean(test.review)
    n_words = np.maximum(text.str.count(r"\S+").to_numpy(float), 1.0)
    add("short-is-great", "shorter reviews first (minus the length in characters)", -text.str.len().to_numpy(float))
    add("exclamations", "the number of exclamation marks", text.str.count("!").to_numpy(float))
    add("capitals", "the share of capital letters", text.str.count(r"[A-Z]").to_numpy(float) / np.maximum(text.str.count(r"[A-Za-z]"), 1))
    add("praise-words", "the number of praise words in a hand-made list", lexicon_count(text, PRAISE))
    add("praise-minus-complaint", "praise words minus complaint words, per word", (lexicon_count(text, PRAISE) - lexicon_count(text, COMPLAINT)) / n_words)
    add("no-negation", "minus the number of negations", -lexicon_count(text, NEGATIONS))
    rate = train.groupby(train["product"].str[:4]).great.mean()
    add("product-prefix-rate", "the five-star rate in train of the product code's first four characters",
        test["product"].str[:4].map(rate).fillna(y.mean()).to_numpy())

    # 2. Standard pipelines over vectorizers and budgets.
    for budget in [0.1, 0.25, 0.5, 1.0]:
        sub = train.sample(frac=budget, random_state=7) if budget < 1 else train
        pct = int(round(budget * 100))
        for vname, make_vec in STANDARD_VECTORIZERS.items():
            vec = make_vec()
            x_train, x_test = vec.fit_transform(sub.review), vec.transform(test.review)
            for name, factory in standard_models():
                if name.startswith("forest") and budget < 0.5:
                    continue
                model = factory().fit(x_train, sub.great)
                add(f"{name}/{vname}/{pct}pct", f"{name} on {vname} features, {pct}% of train", scores_of(model, x_test))
    print(f"standard done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 3. Strong pipelines: vectorizers fitted once on all texts (no labels), 5-fold CV.
    n = len(train)
    texts = pd.concat([train.review, test.review], ignore_index=True)
    cleaned = clean(texts)
    word = TfidfVectorizer(min_df=2, ngram_range=(1, 3), sublinear_tf=True).fit_transform(cleaned).tocsr()
    char = TfidfVectorizer(min_df=2, analyzer="char_wb", ngram_range=(1, 5), sublinear_tf=True, max_features=200000).fit_transform(cleaned).tocsr()
    both = hstack([word, char]).tocsr()
    binary = CountVectorizer(min_df=1, ngram_range=(1, 3), binary=True).fit_transform(cleaned).tocsr().astype(float)
    word12 = TfidfVectorizer(min_df=2, ngram_range=(1, 2), sublinear_tf=True).fit_transform(texts).tocsr()
    char25 = TfidfVectorizer(min_df=3, analyzer="char", ngram_range=(2, 5), sublinear_tf=True, max_features=150000).fit_transform(texts).tocsr()
    sets = {"word13": word, "char15": char, "word13+char15": both, "binary-word13": binary, "word12+char25": hstack([word12, char25]).tocsr()}
    folds = list(StratifiedKFold(FOLDS, shuffle=True, random_state=42).split(np.zeros(n), y))
    test_rows = np.arange(n, n + len(test))
    library = {}

    def auc(oof):
        """Mean of the per-fold AUCs."""
        return float(np.mean([roc_auc_score(y[b], oof[b]) for _, b in folds]))

    def cv_run(make, X, nb=False):
        """Out-of-fold scores, fold-averaged test scores (as ranks) and a refit on all of train."""
        oof, fold_avg = np.zeros(n), np.zeros(len(test))
        for a, b in folds:
            Xa, Xb, Xt = X[a], X[b], X[test_rows]
            if nb:
                r = nb_ratio(Xa, y[a])
                Xa, Xb, Xt = Xa.multiply(r).tocsr(), Xb.multiply(r).tocsr(), Xt.multiply(r).tocsr()
            m = make().fit(Xa, y[a])
            oof[b] = scores_of(m, Xb)
            fold_avg += rankdata(scores_of(m, Xt)) / len(test) / FOLDS
        Xn, Xt = X[:n], X[test_rows]
        if nb:
            r = nb_ratio(Xn, y)
            Xn, Xt = Xn.multiply(r).tocsr(), Xt.multiply(r).tocsr()
        refit = scores_of(make().fit(Xn, y), Xt)
        return oof, fold_avg, refit

    def enter(team, pipeline, oof, fold_avg, refit):
        score = auc(oof)
        add(f"{team}/fold-avg", f"{pipeline}, {FOLDS} fold models averaged (CV AUC {score:.4f})", fold_avg)
        add(f"{team}/refit", f"{pipeline}, refit on all of train (CV AUC {score:.4f})", refit)
        library[team] = (oof, refit)

    grid = []
    for kind in ["word13", "char15", "word13+char15"]:
        for c in [0.5, 1.0, 2.0, 4.0, 8.0]:
            grid.append((f"logreg-C{c}/{kind}", f"logistic regression (C={c}) on {kind} tf-idf", kind, False,
                         lambda c=c: LogisticRegression(C=c, solver="liblinear", max_iter=3000)))
        for c in [0.03, 0.1, 0.3]:
            grid.append((f"linear-svm-C{c}/{kind}", f"linear SVM (C={c}) on {kind} tf-idf", kind, False, lambda c=c: LinearSVC(C=c, max_iter=5000)))
    for c in [0.5, 1.0, 2.0, 4.0]:
        grid.append((f"logreg-C{c}/word12+char25", f"logistic regression (C={c}) on word 1-2-gram and raw character 2-5-gram tf-idf "
                     "of the text as shipped", "word12+char25", False, lambda c=c: LogisticRegression(C=c, solver="liblinear", max_iter=3000)))
    for a in [1.0, 3.0, 10.0]:
        grid.append((f"ridge-a{a}/word13+char15", f"ridge classifier (alpha={a}) on word13+char15 tf-idf", "word13+char15", False,
                     lambda a=a: RidgeClassifier(alpha=a)))
    for kind in ["word13", "word13+char15"]:
        for c in [2.0, 4.0, 8.0, 16.0, 32.0]:
            grid.append((f"nb-logreg-C{c}/{kind}", f"NB-LR: logistic regression (C={c}) on {kind} tf-idf scaled by NB ratios", kind, True,
                         lambda c=c: LogisticRegression(C=c, solver="liblinear", max_iter=3000)))
    for c in [0.1, 0.3, 1.0, 3.0]:
        grid.append((f"nb-logreg-C{c}/binary-word13", f"NB-LR: logistic regression (C={c}) on binary word 1-3-grams scaled by NB ratios",
                     "binary-word13", True, lambda c=c: LogisticRegression(C=c, solver="liblinear", max_iter=3000)))
    for c in [0.01, 0.03, 0.1]:
        grid.append((f"nb-svm-C{c}/binary-word13", f"NB-SVM: linear SVM (C={c}) on binary word 1-3-grams scaled by NB ratios",
                     "binary-word13", True, lambda c=c: LinearSVC(C=c, max_iter=5000)))
    for team, pipeline, kind, nb, make in grid:
        enter(team, pipeline, *cv_run(make, sets[kind], nb=nb))
    print(f"linear models done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # fastText-style networks: epochs chosen by mean fold AUC, then bagged over seeds.
    ids, n_vocab = token_ids(texts, train.review)
    max_epochs = 5
    bag_oof, bag_test = [], []
    for seed in range(3):
        per_epoch_oof = np.zeros((max_epochs, n))
        per_epoch_test = np.zeros((max_epochs, len(test)))
        for a, b in folds:
            hist = fasttext_epochs(ids, n_vocab, np.concatenate([y, np.zeros(len(test))]), a, [b, test_rows], max_epochs, seed)
            for e, (sb, st) in enumerate(hist):
                per_epoch_oof[e, b] = sb
                per_epoch_test[e] += rankdata(st) / len(test) / FOLDS
        cv = [auc(o) for o in per_epoch_oof]
        best = int(np.argmax(cv))
        bag_oof.append(per_epoch_oof[best])
        bag_test.append(per_epoch_test[best])
        for e in range(max_epochs):
            add(f"fasttext-d32/seed{seed}/epochs{e + 1}", f"fastText-style network (32-d word and bigram embeddings), {e + 1} epochs, "
                f"seed {seed}, {FOLDS} fold models averaged (CV AUC {cv[e]:.4f})", per_epoch_test[e])
    add("fasttext-d32/bag3", "fastText-style network bagged over 3 seeds x 5 folds, epochs chosen on the folds "
        f"(CV AUC {auc(np.mean(bag_oof, axis=0)):.4f})", np.mean(bag_test, axis=0))
    library["fasttext-d32/bag3"] = (np.mean(bag_oof, axis=0), np.mean(bag_test, axis=0))
    print(f"fasttext done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Blends on ranks, greedy selection, stacking.
    ranked = sorted(library, key=lambda k: -auc(library[k][0]))
    rank_of = lambda p: rankdata(p) / len(p)  # noqa: E731

    def fold_ranks(oof):
        out = np.zeros(n)
        for _, b in folds:
            out[b] = rank_of(oof[b])
        return out

    O = np.column_stack([fold_ranks(library[k][0]) for k in ranked])
    T = np.column_stack([rank_of(library[k][1]) for k in ranked])
    for top in [2, 3, 4, 5, 8, 12, 20, len(ranked)]:
        members = ranked[:top]
        add(f"rank-blend/top{top}", f"rank average of the {top} best models by CV AUC: " + ", ".join(members),
            T[:, :top].mean(axis=1))
    families = {}
    for k in ranked:
        families.setdefault(k.split("/")[0].split("-C")[0] + "/" + k.split("/")[-1], k)
    fam = list(families.values())
    for top in [2, 3, 4, 6, len(fam)]:
        members = fam[:top]
        add(f"rank-blend/families-top{top}", "rank average of the best model of each family: " + ", ".join(members),
            np.mean([rank_of(library[k][1]) for k in members], axis=0))
    for steps in [3, 5, 8, 12, 20, 30]:
        chosen, total = [], np.zeros(n)
        for _ in range(steps):
            j = max(range(len(ranked)), key=lambda j: auc(total + O[:, j]))
            chosen.append(j)
            total += O[:, j]
        add(f"rank-blend/greedy-{steps}", f"greedy forward rank blend ({steps} steps, with replacement) on the out-of-fold predictions: "
            + ", ".join(sorted({ranked[j] for j in chosen})), T[:, chosen].mean(axis=1))
    logit = lambda r: np.log(np.clip(r, 1e-3, 1 - 1e-3) / (1 - np.clip(r, 1e-3, 1 - 1e-3)))  # noqa: E731
    for c in [0.03, 0.1, 0.3, 1.0]:
        meta = LogisticRegression(C=c, max_iter=3000).fit(logit(O), y)
        add(f"stack-logreg-C{c}", f"stacking: logistic regression (C={c}) on the out-of-fold rank logits of {len(ranked)} models",
            meta.predict_proba(logit(T))[:, 1])
    stats_train, stats_test = review_statistics(train), review_statistics(test)
    mu, sd = stats_train.mean(axis=0), stats_train.std(axis=0) + 1e-9
    Z, Zt = (stats_train - mu) / sd, (stats_test - mu) / sd
    for top in [6, 12, 24, len(ranked)]:
        for c in [0.03, 0.1, 0.3, 1.0]:
            meta = LogisticRegression(C=c, max_iter=3000).fit(np.column_stack([logit(O[:, :top]), Z]), y)
            add(f"stack-logreg-C{c}+stats/top{top}", f"stacking: logistic regression (C={c}) on the out-of-fold rank logits of the {top} "
                "best models and the hand-made review statistics", meta.predict_proba(np.column_stack([logit(T[:, :top]), Zt]))[:, 1])
    fam_cols = [ranked.index(k) for k in fam]
    for c in [0.03, 0.1, 0.3, 1.0]:
        meta = LogisticRegression(C=c, max_iter=3000).fit(np.column_stack([logit(O[:, fam_cols]), Z]), y)
        add(f"stack-logreg-C{c}+stats/families", f"stacking: logistic regression (C={c}) on the out-of-fold rank logits of the best model "
            "of each family and the hand-made review statistics", meta.predict_proba(np.column_stack([logit(T[:, fam_cols]), Zt]))[:, 1])

    # xgboost stackers on the 8 best models' out-of-fold ranks plus the statistics, tuned on the same folds.
    S, St = np.column_stack([O[:, fam_cols], stats_train]), np.column_stack([T[:, fam_cols], stats_test])
    rng = np.random.default_rng(2012)
    draws = []
    for i in range(20):
        params = dict(learning_rate=float(np.exp(rng.uniform(np.log(0.02), np.log(0.15)))), max_depth=int(rng.integers(2, 5)),
                      min_child_weight=float(rng.choice([1, 5, 10, 20])), subsample=float(rng.uniform(0.6, 1.0)),
                      colsample_bytree=float(rng.uniform(0.5, 1.0)), reg_lambda=float(np.exp(rng.uniform(np.log(1), np.log(30)))))
        oof, best = np.zeros(n), []
        for a, b in folds:
            m = xgb.XGBClassifier(n_estimators=600, n_jobs=1, tree_method="hist", early_stopping_rounds=40, eval_metric="logloss", random_state=0, **params)
            m.fit(S[a], y[a], eval_set=[(S[b], y[b])], verbose=False)
            best.append(m.best_iteration + 1)
            oof[b] = m.predict_proba(S[b], iteration_range=(0, m.best_iteration + 1))[:, 1]
        rounds = max(10, int(np.mean(best) * 1.1))
        pred = xgb.XGBClassifier(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=0, **params).fit(S, y).predict_proba(St)[:, 1]
        desc = ", ".join(f"{k}={v:.3g}" for k, v in params.items())
        add(f"stack-xgb/draw{i:02d}", f"xgboost stacker draw {i} ({desc}; {rounds} rounds) on the family-best models' out-of-fold ranks and the "
            f"review statistics (CV AUC {auc(oof):.4f})", pred)
        draws.append((auc(oof), i, params, rounds, oof, pred))
    draws.sort(key=lambda d: -d[0])
    for top in [3, 5, 10]:
        add(f"stack-xgb/top{top}-avg", f"average of the {top} best xgboost stacker draws by CV AUC", np.mean([d[5] for d in draws[:top]], axis=0))
    for rank in range(3):
        score, i, params, rounds = draws[rank][:4]
        ps = [xgb.XGBClassifier(n_estimators=rounds, n_jobs=1, tree_method="hist", random_state=s, **params).fit(S, y).predict_proba(St)[:, 1]
              for s in range(1, 6)]
        add(f"stack-xgb/cv-rank{rank + 1}-5seeds", f"xgboost stacker draw {i} (CV rank {rank + 1}) refit with 5 more seeds averaged "
            f"(CV AUC {score:.4f})", np.mean(ps, axis=0))
    best_lr = LogisticRegression(C=0.1, max_iter=3000).fit(np.column_stack([logit(O), Z]), y).predict_proba(np.column_stack([logit(T), Zt]))[:, 1]
    for w in [0.25, 0.5, 0.75]:
        add(f"stack-blend/xgb{w}", f"rank blend of the best xgboost stacker (weight {w}) and the logistic stacker on all models and statistics",
            w * rank_of(draws[0][5]) + (1 - w) * rank_of(best_lr))
    add("stack-xgb+rank-blend", "rank average of the best xgboost stacker draw and the rank average of the 4 best models",
        (rank_of(draws[0][5]) + T[:, :4].mean(axis=1)) / 2)

    write_board(rows, OUT, lower_is_better=False, note=f" in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
