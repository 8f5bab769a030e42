#!/usr/bin/python3
"""Reference leaderboard for the offline `wordnet-senses` competition.

Trains a documented population of multi-label text classifiers on the public train split
(30,000 noun synsets: their lemmas and masked glosses), scores each by the mean over the 18
category columns of the ROC AUC on the private answers (6,000 other synsets), and writes
leaderboard.csv beside this script (best first). The scores form a *reference population* of
pipelines, not a leaderboard of human teams. Nothing but the final scoring reads the answers:
every hyper-parameter, blend and stacking weight is chosen by 5-fold cross-validation on train.

The population (about 600 entries), bottom to top:

1. Trivial: constants; seeded random scores; each label's train rate; one-feature rules (the
   lemma is capitalised, the gloss starts with a domain tag such as "(botany)"); keyword rules
   (the gloss mentions "person", "plant", "genus" ...).
2. Standard pipelines, every combination of
   - text views: the lemmas' words, the gloss's words (unigrams and bigrams), both, the
     lemmas' character n-grams, and both words with those characters, TF-IDF weighted;
   - models, one per label: multinomial and complement naive Bayes, logistic regression
     (C 0.1 ... 30), ridge classifiers, linear SVMs, SGD (hinge and modified Huber), nearest
     centroids and cosine k-nearest neighbours (k 5 ... 100), decision trees on the densest terms;
   - budgets: 3%, 10%, 20%, 30%, 50% and 100% of train.
3. Strong pipelines on hand-made views that use what is known about WordNet glosses
   ("engineered"): the head of the definition (its first words: "a person who", "the act of",
   "any of various"), the domain tag, Latin binomials among the lemmas ("Veronica arvensis":
   nearly always a plant or an animal), taxonomic suffixes (-idae, -aceae, -ales), agent and
   abstract suffixes (-ist, -er, -ness, -tion, -ity), capitalisation and the number of lemmas,
   next to word TF-IDF of lemmas and gloss and character TF-IDF of the lemmas:
   - logistic regression (C 2 and 8) with C chosen per label by 5-fold CV; linear SVMs; out-of-fold
     (5-fold) predictions of each, fold-averaged or refit on all of train;
   - xgboost per label on an SVD of the views plus the dense engineered columns;
   - a torch MLP (multi-label, sigmoid outputs) over the whole vocabulary of the word views and
     the definition head (TF-IDF weighted term embeddings with sparse gradients), an entry per
     seed and epoch (3, 4, 5), and bags over 3 seeds;
   - label-aware stacking: a second-stage logistic regression per label on the out-of-fold
     predictions of all 18 labels of the first-stage models (it learns the nesting: a person
     is an organism), and the hierarchy rule that a parent category scores at least its
     children;
   - rank-average blends: of the best models by CV, of every pair of the ten best and every
     triple of the six best, and by greedy forward selection on the out-of-fold predictions.

Runtime: about 30 CPU-minutes, single-threaded (OMP/BLAS/torch threads pinned to 1); the per-label
linear models on the large sparse views, the MLPs and the stacking dominate.

Usage (Debian's interpreter, which has scikit-learn, xgboost and torch):
    node dist/cli/main.js prepare -c wordnet-senses --data-dir /tmp/lb-data
    nice /usr/bin/python3 src/competitions/wordnet-senses/leaderboard.py /tmp/lb-data
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import itertools  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import scipy.sparse as sp  # noqa: E402
import torch  # noqa: E402
import xgboost as xgb  # noqa: E402
from scipy.stats import rankdata  # noqa: E402
from sklearn.decomposition import TruncatedSVD  # noqa: E402
from sklearn.feature_extraction.text import TfidfVectorizer  # noqa: E402
from sklearn.linear_model import LogisticRegression, Ridge, SGDClassifier  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402
from sklearn.model_selection import KFold  # noqa: E402
from sklearn.naive_bayes import ComplementNB, MultinomialNB  # noqa: E402
from sklearn.preprocessing import normalize  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board  # noqa: E402

warnings.filterwarnings("ignore")
torch.set_num_threads(1)
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "leaderboard.csv")
LABELS = ["person", "animal", "plant", "organism", "artifact", "device", "food", "location", "act", "event", "attribute",
          "communication", "cognition", "matter", "body_part", "group", "state", "measure"]
# Nesting known from the category definitions: parent -> children.
CHILDREN = {"organism": ["person", "animal", "plant"], "artifact": ["device"], "matter": ["food"], "event": ["act"], "attribute": ["state"]}
FOLDS = 5
MLP_HIDDEN, MLP_EPOCHS = 256, (3, 4, 5)

KEYWORDS = {
    "person": r"\b(person|someone|man|woman|who)\b", "animal": r"\b(animal|genus|mammal|bird|fish|insect)\b",
    "plant": r"\b(plant|tree|shrub|herb|genus|flowers?)\b", "organism": r"\b(genus|species|person|animal|plant|who)\b",
    "artifact": r"\b(device|made|used|building|instrument)\b", "device": r"\b(device|instrument|apparatus|mechanism)\b",
    "food": r"\b(food|dish|cooked|eaten|sauce)\b", "location": r"\b(city|region|area|place|capital|town)\b",
    "act": r"\b(act|action|activity|practice)\b", "event": r"\b(act|event|happens|occurrence|battle)\b",
    "attribute": r"\b(quality|state|condition|property)\b", "communication": r"\b(message|writing|language|statement|book)\b",
    "cognition": r"\b(knowledge|belief|idea|theory|science|study)\b", "matter": r"\b(substance|compound|liquid|material|mineral)\b",
    "body_part": r"\b(body|organ|tissue|bone|muscle)\b", "group": r"\b(group|members|family|organization|people)\b",
    "state": r"\b(state|condition|disease)\b", "measure": r"\b(unit|amount|quantity|measure|equal)\b",
}
DOMAIN = re.compile(r"^\(([^)]+)\)")
HEAD_SKIP = {"a", "an", "the", "any", "one", "of", "some", "various", "or", "and"}


def engineered(df):
    """Dense hand-made columns and a 'head' text view from lemmas and gloss."""
    lemmas = df.lemmas.str.split("; ")
    gloss = df.gloss
    definition = gloss.str.split(r'; "', n=1, regex=True).str[0]
    X = pd.DataFrame(index=df.index)
    X["n_lemmas"] = lemmas.str.len()
    X["capitalised"] = lemmas.map(lambda ls: np.mean([x[:1].isupper() for x in ls]))
    X["multiword"] = lemmas.map(lambda ls: np.mean([" " in x for x in ls]))
    X["binomial"] = lemmas.map(lambda ls: float(any(re.fullmatch(r"[A-Z][a-z]+ [a-z]+", x) for x in ls)))
    X["genus_name"] = lemmas.map(lambda ls: float(any(re.fullmatch(r"(genus|family|order|class) [A-Z]\w+", x) for x in ls)))
    for suffix in ["idae", "aceae", "ales", "ist", "er", "or", "ness", "tion", "ity", "ism", "itis", "ing", "ment", "ology"]:
        X["suffix_" + suffix] = lemmas.map(lambda ls, s=suffix: float(any(x.split(" ")[-1].endswith(s) for x in ls)))
    X["examples"] = gloss.str.count(r'; "')
    X["gloss_len"] = np.log1p(definition.str.len())
    X["digits"] = definition.str.contains(r"\d").astype(float)
    X["domain_tag"] = definition.str.match(DOMAIN).astype(float)

    def head(text):
        words = re.findall(r"[a-z]+", DOMAIN.sub("", text.lower()))
        core = [w for w in words if w not in HEAD_SKIP][:3]
        return " ".join([f"h{i}_{w}" for i, w in enumerate(core)] + [f"first_{words[0]}" if words else "first_none"]
                        + [f"dom_{m}" for m in DOMAIN.findall(text.lower())[:1]])
    return X.astype(float), definition.map(head)


def mean_auc(Y, P):
    """Mean over label columns of the ROC AUC."""
    return float(np.mean([roc_auc_score(Y[:, j], P[:, j]) for j in range(Y.shape[1])]))


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def per_label(make, X, Y, Xt, score="proba"):
    """One model per label column; returns an (n_test, n_labels) score matrix."""
    out = np.zeros((Xt.shape[0], Y.shape[1]))
    for j in range(Y.shape[1]):
        if Y[:, j].min() == Y[:, j].max():
            out[:, j] = Y[0, j]
            continue
        m = make().fit(X, Y[:, j])
        out[:, j] = m.predict_proba(Xt)[:, 1] if score == "proba" else m.decision_function(Xt)
    return out


def ridge_scores(X, Y, Xt, alpha):
    """Multi-output ridge regression on the 0/1 labels, one solve for all columns."""
    return Ridge(alpha=alpha, solver="sparse_cg" if sp.issparse(X) else "auto").fit(X, Y).predict(Xt)


def knn_scores(X, Y, Xt, k):
    """Cosine k-nearest neighbours: the similarity-weighted label mean of the k most similar train rows."""
    A, B = normalize(Xt), normalize(X)
    out = np.zeros((Xt.shape[0], Y.shape[1]))
    for s in range(0, Xt.shape[0], 1000):
        S = (A[s:s + 1000] @ B.T).toarray()
        idx = np.argpartition(-S, k, axis=1)[:, :k]
        w = np.take_along_axis(S, idx, axis=1) + 1e-6
        out[s:s + 1000] = np.einsum("ik,ikj->ij", w, Y[idx]) / w.sum(1, keepdims=True)
    return out


def centroid_scores(X, Y, Xt):
    """Nearest centroid: cosine similarity to each label's positive centroid minus its negative one."""
    A, B = normalize(Xt), normalize(X)
    pos = normalize(sp.csr_matrix(Y.T @ B) if not sp.issparse(B) else sp.csr_matrix(Y.T) @ B)
    neg = normalize(sp.csr_matrix(1 - Y.T) @ B)
    return (A @ pos.T).toarray() - (A @ neg.T).toarray()


class BagMLP(torch.nn.Module):
    """TF-IDF weighted sum of term embeddings -> ReLU -> one logit per label. The embedding's gradient is sparse,
    so a step touches only the rows of the batch's terms and the whole vocabulary stays affordable."""

    def __init__(self, n_in, hidden, n_out, dropout):
        super().__init__()
        self.emb = torch.nn.EmbeddingBag(n_in, hidden, mode="sum", sparse=True)
        torch.nn.init.normal_(self.emb.weight, 0.0, 0.05)
        self.b = torch.nn.Parameter(torch.zeros(hidden))
        self.drop = torch.nn.Dropout(dropout)
        self.out = torch.nn.Linear(hidden, n_out)

    def forward(self, X):
        X = X.tocsr()
        bags = self.emb(torch.from_numpy(X.indices.astype(np.int64)), torch.from_numpy(X.indptr[:-1].astype(np.int64)),
                        per_sample_weights=torch.from_numpy(X.data.astype(np.float32)))
        return self.out(self.drop(torch.relu(bags + self.b)))


def mlp_scores(X, Y, Xts, seed, keep_epochs, hidden=MLP_HIDDEN, dropout=0.3, lr=3e-3):
    """Train the MLP with binary cross-entropy; returns {epoch: [probabilities for each matrix of Xts]} for the kept epochs."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    X = X.tocsr()
    model = BagMLP(X.shape[1], hidden, Y.shape[1], dropout)
    sparse_opt = torch.optim.SparseAdam(list(model.emb.parameters()), lr=lr)
    dense_opt = torch.optim.Adam([model.b, *model.out.parameters()], lr=lr)
    Yt = torch.tensor(Y, dtype=torch.float32)
    kept = {}
    for epoch in range(1, max(keep_epochs) + 1):
        model.train()
        perm = rng.permutation(X.shape[0])
        for s in range(0, len(perm), 256):
            idx = perm[s:s + 256]
            loss = torch.nn.functional.binary_cross_entropy_with_logits(model(X[idx]), Yt[idx])
            sparse_opt.zero_grad()
            dense_opt.zero_grad()
            loss.backward()
            sparse_opt.step()
            dense_opt.step()
        if epoch in keep_epochs:
            model.eval()
            with torch.no_grad():
                kept[epoch] = [torch.sigmoid(model(Xt)).numpy() for Xt in Xts]
    return kept


def main(data_dir):
    started = time.process_time()
    root = os.path.join(data_dir, "wordnet-senses", "prepared")
    read = lambda f: pd.read_csv(os.path.join(root, f), keep_default_na=False)  # noqa: E731
    train, test, answers = read("public/train.csv"), read("public/test.csv"), read("private/test.csv")
    truth = test[["id"]].merge(answers, on="id", how="left")[LABELS].to_numpy()
    Y = train[LABELS].to_numpy()
    n, nt, L = len(train), len(test), len(LABELS)
    rows = []

    def add(team, pipeline, P):
        P = np.asarray(P, dtype=float)
        assert P.shape == (nt, L) and np.isfinite(P).all(), team
        rows.append({"teamName": team, "score": mean_auc(truth, P), "pipeline": pipeline})

    # 1. Trivial.
    add("constant", "0.5 for every label", np.full((nt, L), 0.5))
    for s in range(3):
        add(f"random-{s}", f"seeded uniform random scores (seed {s})", np.random.default_rng(s).random((nt, L)))
    add("label-rate", "each label's train rate for every synset (a constant per column)", np.tile(Y.mean(0), (nt, 1)))
    cap = test.lemmas.str[:1].str.isupper().to_numpy(dtype=float)
    add("capitalised-rule", "1 if the first lemma is capitalised, for every label", np.tile(cap[:, None], (1, L)))
    rate_by_cap = {c: Y[train.lemmas.str[:1].str.isupper().to_numpy() == c].mean(0) for c in [False, True]}
    add("capitalised-rate", "each label's train rate among synsets with/without a capitalised first lemma",
        np.array([rate_by_cap[bool(c)] for c in cap]))
    tag_train = train.gloss.str.extract(DOMAIN)[0].fillna("")
    tag_test = test.gloss.str.extract(DOMAIN)[0].fillna("")
    rates = pd.DataFrame(Y, columns=LABELS).groupby(tag_train.to_numpy()).mean()
    for smooth in [0, 20]:
        counts = tag_train.value_counts()
        shrunk = (rates.mul(counts.reindex(rates.index), axis=0) + smooth * Y.mean(0)).div(counts.reindex(rates.index) + smooth, axis=0)
        add(f"domain-tag-rate/s{smooth}", f"each label's train rate for the gloss's domain tag, e.g. '(botany)' (smoothing {smooth})",
            shrunk.reindex(tag_test.to_numpy()).fillna(pd.Series(Y.mean(0), index=LABELS)).to_numpy())
    for field in ["gloss", "lemmas", "both"]:
        text = (test.gloss if field == "gloss" else test.lemmas if field == "lemmas" else test.lemmas + " " + test.gloss).str.lower()
        P = np.column_stack([text.str.contains(KEYWORDS[c]).to_numpy(dtype=float) for c in LABELS])
        add(f"keyword-rules/{field}", f"1 where the {field} text matches a hand-written keyword list per label", P)
    print(f"trivial done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Text views, fitted on train (vocabulary and IDF) and applied to test.
    views = {}

    def view(name):
        if name not in views:
            kind, field = name.split(":")
            src_train = train[field] if field in ("lemmas", "gloss") else train.lemmas + " ; " + train.gloss
            src_test = test[field] if field in ("lemmas", "gloss") else test.lemmas + " ; " + test.gloss
            if kind == "words":
                vec = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True, max_features=60000, dtype=np.float32)
            else:
                vec = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), min_df=3, sublinear_tf=True, max_features=60000, dtype=np.float32)
            views[name] = (vec.fit_transform(src_train).tocsr(), vec.transform(src_test).tocsr())
        return views[name]

    def stack_views(names):
        parts = [view(v) for v in names]
        return sp.hstack([p[0] for p in parts]).tocsr(), sp.hstack([p[1] for p in parts]).tocsr()

    feature_sets = {
        "lemma-words": ["words:lemmas"],
        "gloss-words": ["words:gloss"],
        "both-words": ["words:lemmas", "words:gloss"],
        "lemma-chars": ["chars:lemmas"],
        "both+lemma-chars": ["words:lemmas", "words:gloss", "chars:lemmas"],
    }

    # 2. Standard pipelines over views, models and budgets.
    def standard_models(budget):
        yield "multinomial-nb-a0.1", lambda X, Yb, Xt: per_label(lambda: MultinomialNB(alpha=0.1), X, Yb, Xt)
        yield "multinomial-nb-a1", lambda X, Yb, Xt: per_label(lambda: MultinomialNB(alpha=1.0), X, Yb, Xt)
        yield "complement-nb-a0.3", lambda X, Yb, Xt: per_label(lambda: ComplementNB(alpha=0.3), X, Yb, Xt)
        for c in [0.1, 1.0, 10.0] + ([30.0] if budget == 1.0 else []):
            yield f"logreg-C{c:g}", lambda X, Yb, Xt, c=c: per_label(lambda: LogisticRegression(C=c, solver="liblinear"), X, Yb, Xt)
        for a in [0.3, 3.0]:
            yield f"ridge-a{a:g}", lambda X, Yb, Xt, a=a: ridge_scores(X, Yb, Xt, a)
        for c in [0.03, 0.3]:
            yield f"linear-svm-C{c:g}", lambda X, Yb, Xt, c=c: per_label(lambda: LinearSVC(C=c, random_state=0), X, Yb, Xt, score="decision")
        for loss in ["hinge", "modified_huber"]:
            yield f"sgd-{loss.replace('_', '-')}", lambda X, Yb, Xt, loss=loss: per_label(
                lambda: SGDClassifier(loss=loss, alpha=1e-5, max_iter=15, tol=None, random_state=0), X, Yb, Xt, score="decision")
        yield "nearest-centroid", lambda X, Yb, Xt: centroid_scores(X, Yb, Xt)
        for k in [5, 25, 100]:
            yield f"knn-cosine-k{k}", lambda X, Yb, Xt, k=k: knn_scores(X, Yb, Xt, k)

    for budget in [0.03, 0.1, 0.2, 0.3, 0.5, 1.0]:
        idx = np.random.default_rng(11).permutation(n)[:int(round(budget * n))]
        pct = f"{budget * 100:g}pct"
        for fs, names in feature_sets.items():
            Xall, Xt = stack_views(names)
            X, Yb = Xall[idx], Y[idx]
            for name, fit in standard_models(budget):
                if name.startswith("knn") and budget < 0.1:
                    continue
                add(f"{name}/{fs}/{pct}", f"{name} per label on {fs} TF-IDF, {pct} of train", fit(X, Yb, Xt))
            if budget == 1.0 and fs in ("lemma-words", "both-words"):
                for depth in [4, 12]:
                    dense = np.asarray((X > 0).sum(0)).ravel().argsort()[::-1][:2000]
                    add(f"tree-d{depth}/{fs}/{pct}", f"decision tree (depth {depth}) per label on the 2,000 commonest {fs} terms, {pct} of train",
                        per_label(lambda d=depth: DecisionTreeClassifier(max_depth=d, min_samples_leaf=5, random_state=0), X[:, dense], Yb, Xt[:, dense]))
        print(f"standard {pct} done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # 3. Strong pipelines on engineered views, chosen by 5-fold CV.
    E_train, head_train = engineered(train)
    E_test, head_test = engineered(test)
    head_vec = TfidfVectorizer(token_pattern=r"\S+", min_df=2, sublinear_tf=True, dtype=np.float32)
    H, Ht = head_vec.fit_transform(head_train), head_vec.transform(head_test)
    mu, sd = E_train.mean(), E_train.std().replace(0, 1)
    Es, Est = sp.csr_matrix(((E_train - mu) / sd).to_numpy(np.float32)), sp.csr_matrix(((E_test - mu) / sd).to_numpy(np.float32))
    # Character n-grams of the long glosses would multiply the non-zeros (and the fitting time) for little gain over their words.
    base, base_t = stack_views(["words:lemmas", "words:gloss", "chars:lemmas"])
    Xe = sp.hstack([base, H, Es * 0.3]).tocsr()
    Xet = sp.hstack([base_t, Ht, Est * 0.3]).tocsr()
    folds = list(KFold(FOLDS, shuffle=True, random_state=42).split(np.arange(n)))
    library = {}

    def cv_auc(oof):
        """Mean over folds of the mean column AUC (each fold's models on their own scale)."""
        return float(np.mean([mean_auc(Y[b], oof[b]) for _, b in folds]))

    def enter(team, pipeline, oof, pred, keep=True):
        add(team, f"{pipeline} (CV {cv_auc(oof):.4f})", pred)
        if keep:
            library[team] = (oof, pred)

    def cv_run(fit, X, Xt, refit=True):
        """Out-of-fold scores, fold-averaged test scores and (optionally) a refit on all of train."""
        oof, avg = np.zeros((n, L)), np.zeros((nt, L))
        for a, b in folds:
            pa, pt = fit(X[a], Y[a], [X[b], Xt])
            oof[b], avg = pa, avg + pt / FOLDS
        full = fit(X, Y, [Xt])[0] if refit else None
        return oof, avg, full

    def lr_fit(c):
        def fit(X, Yb, targets):
            ms = [LogisticRegression(C=c, solver="liblinear").fit(X, Yb[:, j]) for j in range(L)]
            return [np.column_stack([m.predict_proba(T)[:, 1] for m in ms]) for T in targets]
        return fit

    def svm_fit(c):
        def fit(X, Yb, targets):
            ms = [LinearSVC(C=c, random_state=0).fit(X, Yb[:, j]) for j in range(L)]
            return [np.column_stack([m.decision_function(T) for m in ms]) for T in targets]
        return fit

    lr_runs = {}
    for c in [2.0, 8.0]:
        oof, avg, full = cv_run(lr_fit(c), Xe, Xet)
        lr_runs[c] = (oof, avg, full)
        enter(f"logreg-C{c:g}/engineered", f"logistic regression (C={c:g}) per label on engineered views, fold models averaged", oof, avg)
        add(f"logreg-C{c:g}/engineered/refit", f"logistic regression (C={c:g}) per label on engineered views, refit on all of train "
            f"(CV {cv_auc(oof):.4f})", full)
    # C per label: the one with the best out-of-fold AUC of that column.
    best_c = [max(lr_runs, key=lambda c: roc_auc_score(Y[:, j], lr_runs[c][0][:, j])) for j in range(L)]
    pick = lambda part: np.column_stack([lr_runs[best_c[j]][part][:, j] for j in range(L)])  # noqa: E731
    enter("logreg-per-label-C/engineered", "logistic regression, C per label by 5-fold CV (" + ", ".join(f"{lab}={c:g}" for lab, c in zip(LABELS, best_c))
          + "), refit on all of train", pick(0), pick(2))
    add("logreg-per-label-C/engineered/fold-avg", "logistic regression, C per label by 5-fold CV, fold models averaged", pick(1))
    for c in [0.1, 0.3]:
        oof, avg, full = cv_run(svm_fit(c), Xe, Xet)
        enter(f"linear-svm-C{c:g}/engineered", f"linear SVM (C={c:g}) per label on engineered views, refit on all of train", oof, full)
        add(f"linear-svm-C{c:g}/engineered/fold-avg", f"linear SVM (C={c:g}) per label on engineered views, fold models averaged (CV {cv_auc(oof):.4f})", avg)
    nb_oof, nb_avg, nb_full = cv_run(lambda X, Yb, T: [per_label(lambda: MultinomialNB(alpha=0.1), X, Yb, t) for t in T],
                                     sp.hstack([base, H]).tocsr(), sp.hstack([base_t, Ht]).tocsr())
    enter("multinomial-nb/engineered", "multinomial naive Bayes (alpha 0.1) on engineered text views, refit", nb_oof, nb_full)
    print(f"linear models done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # MLPs over the whole vocabulary of the word views and the definition head, bagged over seeds; an entry per kept epoch.
    words, words_t = stack_views(["words:lemmas", "words:gloss"])
    Xm, Xmt = sp.hstack([words, H]).tocsr(), sp.hstack([words_t, Ht]).tocsr()
    last = max(MLP_EPOCHS)
    mlp_oof, mlp_pred = {e: [] for e in MLP_EPOCHS}, {e: [] for e in MLP_EPOCHS}
    for seed in range(3):
        oof, avg = {e: np.zeros((n, L)) for e in MLP_EPOCHS}, {e: np.zeros((nt, L)) for e in MLP_EPOCHS}
        for a, b in folds:
            for e, (pb, pt) in mlp_scores(Xm[a], Y[a], [Xm[b], Xmt], seed, MLP_EPOCHS).items():
                oof[e][b], avg[e] = pb, avg[e] + pt / FOLDS
        for e in MLP_EPOCHS:
            mlp_oof[e].append(oof[e])
            mlp_pred[e].append(avg[e])
            enter(f"mlp-{MLP_HIDDEN}/engineered/seed{seed}/epoch{e}", f"MLP (TF-IDF weighted term embeddings of {MLP_HIDDEN}, dropout 0.3, "
                  f"{e} epochs of batches of 256, Adam) on the word views and the definition head, fold models averaged, seed {seed}",
                  oof[e], avg[e], keep=False)
    for e in MLP_EPOCHS[1:]:
        enter(f"mlp-{MLP_HIDDEN}/engineered/bag3/epoch{e}", f"the {e}-epoch MLP bagged over 3 seeds x 5 folds", np.mean(mlp_oof[e], 0),
              np.mean(mlp_pred[e], 0), keep=e == last)
    print(f"mlp done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # xgboost on an SVD of the views plus the dense engineered columns.
    svd = TruncatedSVD(120, random_state=0).fit(base)
    Z = np.hstack([svd.transform(base), H @ TruncatedSVD(30, random_state=0).fit(H).components_.T, E_train.to_numpy()])
    Zt = np.hstack([svd.transform(base_t), Ht @ TruncatedSVD(30, random_state=0).fit(H).components_.T, E_test.to_numpy()])
    for depth, lr in [(4, 0.15)]:
        oof, avg = np.zeros((n, L)), np.zeros((nt, L))
        for a, b in folds:
            for j in range(L):
                m = xgb.XGBClassifier(n_estimators=300, max_depth=depth, learning_rate=lr, subsample=0.8, colsample_bytree=0.3, tree_method="hist",
                                      max_bin=64, n_jobs=1, early_stopping_rounds=20, eval_metric="auc", random_state=0)
                m.fit(Z[a], Y[a, j], eval_set=[(Z[b], Y[b, j])], verbose=False)
                it = (0, m.best_iteration + 1)
                oof[b, j] = m.predict_proba(Z[b], iteration_range=it)[:, 1]
                avg[:, j] += m.predict_proba(Zt, iteration_range=it)[:, 1] / FOLDS
        enter(f"xgb-d{depth}-lr{lr:g}/svd+engineered", f"xgboost per label (depth {depth}, lr {lr:g}, early-stopped) on an SVD of the views and "
              "the engineered columns, fold models averaged", oof, avg)
        print(f"xgb d{depth} done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # Label-aware stacking: each label from the out-of-fold scores of all labels of the first-stage models.
    ranked = sorted(library, key=lambda k: -cv_auc(library[k][0]))

    # Inputs are ranks within each fold (train) and within test: one model's out-of-fold scores and the average of its
    # five fold models differ in scale (averaging shrinks the bagged networks' scores most), and ranks undo that.
    def ranks(P):
        return np.column_stack([rankdata(P[:, j]) / len(P) for j in range(P.shape[1])])

    def fold_ranks(P):
        out = np.zeros_like(P)
        for _, b in folds:
            out[b] = ranks(P[b])
        return out

    for top in [1, 3, 8]:
        members = ranked[:top]
        S = np.hstack([fold_ranks(library[m][0]) for m in members])
        St = np.hstack([ranks(library[m][1]) for m in members])
        inner = list(KFold(FOLDS, shuffle=True, random_state=7).split(S))
        for c in [0.1, 1.0]:
            oof2 = np.zeros((n, L))
            for a, b in inner:
                oof2[b] = np.column_stack([LogisticRegression(C=c, max_iter=500).fit(S[a], Y[a, j]).predict_proba(S[b])[:, 1] for j in range(L)])
            pred2 = np.column_stack([LogisticRegression(C=c, max_iter=500).fit(S, Y[:, j]).predict_proba(St)[:, 1] for j in range(L)])
            add(f"stack-labels-C{c:g}/top{top}", f"stacking: logistic regression per label (C={c:g}) on the ranked out-of-fold scores of all 18 labels of "
                + ", ".join(members) + f" (CV {mean_auc(Y, oof2):.4f})", pred2)
            library_key = f"stack-labels-C{c:g}/top{top}"
            library[library_key] = (oof2, pred2)
    print(f"stacking done: {len(rows)} entries, {time.process_time() - started:.0f} CPU-s", flush=True)

    # The hierarchy rule, and rank blends chosen on the out-of-fold predictions.
    def hierarchy(P):
        P = P.copy()
        for parent, kids in CHILDREN.items():
            j = LABELS.index(parent)
            P[:, j] = np.maximum(P[:, j], P[:, [LABELS.index(k) for k in kids]].max(1))
        return P

    ranked = sorted(library, key=lambda k: -cv_auc(library[k][0]))
    for k in ranked[:8]:
        oof, pred = library[k]
        add(f"{k}/hierarchy", f"{k} with each parent category scoring at least its children (CV {cv_auc(hierarchy(fold_ranks(oof))):.4f})",
            hierarchy(ranks(pred)))
    for top in [2, 3, 5, 8, len(ranked)]:
        members = ranked[:top]
        add(f"rank-blend/top{top}", "rank average of " + ", ".join(members), np.mean([ranks(library[m][1]) for m in members], 0))
    # Every pair of the ten best by CV, and every triple of the six best: the blends a field of teams would try.
    for size, pool in [(2, 10), (3, 6)]:
        for combo in itertools.combinations(ranked[:pool], size):
            oof = np.mean([fold_ranks(library[m][0]) for m in combo], 0)
            add("rank-blend/" + "+".join(combo), f"rank average of {' and '.join(combo)} (CV {cv_auc(oof):.4f})",
                np.mean([ranks(library[m][1]) for m in combo], 0))
    O = [fold_ranks(library[m][0]) for m in ranked]
    T = [ranks(library[m][1]) for m in ranked]
    for steps in [4, 8, 12]:
        chosen, total = [], np.zeros((n, L))
        for _ in range(steps):
            j = max(range(len(ranked)), key=lambda j: cv_auc(total + O[j]))
            chosen.append(j)
            total += O[j]
        blend = np.mean([T[j] for j in chosen], 0)
        add(f"rank-blend/greedy-{steps}", f"greedy forward rank blend ({steps} steps, with replacement) on the out-of-fold predictions: "
            + ", ".join(sorted({ranked[j] for j in chosen})), blend)
        add(f"rank-blend/greedy-{steps}/hierarchy", f"the greedy-{steps} blend with the hierarchy rule", hierarchy(blend))

    write_board(rows, OUT, lower_is_better=False, note=f" in {time.process_time() - started:.0f} CPU-s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
