#!/usr/bin/python3
"""Reference leaderboard for the offline `spam-assassin` competition.

Runs a documented population of standard spam-filtering pipelines on the public train split,
scores each on the private answers by ROC AUC, and writes
src/competitions/spam-assassin/leaderboard.csv (best first). The scores form a *reference
population* of pipelines, not a leaderboard of human teams.

The population:
- `constant`: 0.5 for every message (the sample submission).
- single-feature baselines: a logistic regression on one hand-made statistic of the message
  (length, links, uppercase share, exclamation marks, HTML tags, typical spam words). With one
  feature only the sign is learned, so the ranking is the same at every budget: one entry each.
- bag-of-words pipelines: a vectorizer (word counts, word or word-bigram tf-idf, character
  n-gram tf-idf; several vocabulary sizes; with and without lowercasing) over the whole message,
  the headers, the body or the subject line, followed by a linear model (multinomial or
  complement naive Bayes, logistic regression with several C, SGD, linear SVM). Models without
  probabilities submit their decision function min-max scaled to [0, 1] over the test set, which
  keeps the ranking (a sigmoid would round large margins to exactly 1.0 and create ties).
Every bag-of-words pipeline is trained on 10%, 30% and 100% of train (a fixed random sample), and
its vectorizer only ever sees that sample.

Usage (Debian's interpreter, which has scikit-learn; five to seven minutes on two cores):
    node dist/cli/main.js prepare -c spam-assassin --data-dir /tmp/lb-data
    /usr/bin/python3 src/competitions/spam-assassin/leaderboard.py /tmp/lb-data
"""
import os
import sys
import time

import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.metrics import roc_auc_score
from sklearn.naive_bayes import ComplementNB, MultinomialNB
from sklearn.svm import LinearSVC

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
BUDGETS = [0.1, 0.3, 1.0]
# Character n-grams of long messages (up to 300 kB) are slow and add little: they see a prefix only.
CHAR_PREFIX = 2000
PART_NAMES = {"full": "whole message", "headers": "headers", "body": "body", "subject": "subject line"}
STATISTICS = {
    "length": "length in characters",
    "links": "number of links",
    "uppercase": "share of uppercase letters",
    "exclamations": "number of exclamation marks",
    "html-tags": "number of HTML tags",
    "spam-words": "number of typical spam words",
}
# A hand-written list of words common in 2002-era spam, for the keyword-count baseline.
SPAM_WORDS = (r"(?i)\b(?:free|click|money|offer|remove|removal|guarantee[d]?|credit|cash|income|"
              r"opportunity|unsubscribe|limited|order|save|winner|investment|mortgage|viagra|"
              r"million|dollars|act now|no obligation)\b")


def parts(texts):
    """The whole message, its header block, its body (after the first blank line) and its subject."""
    split = texts.str.split("\n\n", n=1, expand=True).reindex(columns=[0, 1]).fillna("")
    subject = split[0].str.extract(r"(?im)^subject:[ \t]*(.*)$")[0].fillna("")
    return {"full": texts, "headers": split[0], "body": split[1], "subject": subject}


def statistic(texts, name):
    """One hand-made number per message, log-scaled where it is a count."""
    if name == "length":
        return np.log1p(texts.str.len().to_numpy(float))
    if name == "links":
        return np.log1p(texts.str.count(r"(?i)https?://").to_numpy(float))
    if name == "uppercase":
        letters = texts.str.count(r"[A-Za-z]").to_numpy(float)
        return texts.str.count(r"[A-Z]").to_numpy(float) / np.maximum(letters, 1.0)
    if name == "exclamations":
        return np.log1p(texts.str.count("!").to_numpy(float))
    if name == "html-tags":
        return np.log1p(texts.str.count(r"(?i)<(?:html|body|font|table|td|br|p|a|img)\b").to_numpy(float))
    if name == "spam-words":
        return np.log1p(texts.str.count(SPAM_WORDS).to_numpy(float))
    raise ValueError(name)


def vectorizers():
    """(name, factory, parts) for every text representation in the population."""
    word = dict(token_pattern=r"(?u)\b\w[\w'$.-]*\w\b|[$!]", dtype=np.float32)
    yield "count-word-1k", lambda: CountVectorizer(max_features=1000, **word), ["full", "headers", "body", "subject"]
    yield "count-word-10k", lambda: CountVectorizer(max_features=10000, **word), ["full", "body"]
    yield "count-word-cased-10k", lambda: CountVectorizer(max_features=10000, lowercase=False, **word), ["full"]
    yield "tfidf-word-5k", lambda: TfidfVectorizer(max_features=5000, sublinear_tf=True, **word), ["full", "headers", "body", "subject"]
    yield "tfidf-word12-50k", lambda: TfidfVectorizer(ngram_range=(1, 2), max_features=50000, min_df=2, sublinear_tf=True, **word), ["full", "body"]
    yield "tfidf-char25-20k", lambda: TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), max_features=20000, sublinear_tf=True, dtype=np.float32), ["body", "subject"]


def models(vectorizer):
    """(name, factory, probabilistic) for every classifier that suits this representation."""
    if vectorizer.startswith("count"):
        yield "multinomial-nb", lambda: MultinomialNB(alpha=1.0), True
        yield "complement-nb", lambda: ComplementNB(alpha=1.0), True
    else:
        yield "multinomial-nb-a0.1", lambda: MultinomialNB(alpha=0.1), True
    for c in [0.01, 1.0, 100.0]:
        yield f"logreg-C{c:g}", lambda c=c: LogisticRegression(C=c, max_iter=2000), True
    yield "sgd-hinge", lambda: SGDClassifier(loss="hinge", alpha=1e-4, max_iter=50, tol=None, random_state=0), False
    # On raw counts liblinear does not converge; the SVM only runs on the normalised tf-idf features.
    if vectorizer.startswith("tfidf"):
        yield "linear-svm-C0.1", lambda: LinearSVC(C=0.1, max_iter=5000, random_state=0), False


def scores(model, probabilistic, x):
    """Spam scores in [0, 1]: predict_proba, or the decision function min-max scaled."""
    if probabilistic:
        return model.predict_proba(x)[:, 1]
    d = model.decision_function(x)
    return (d - d.min()) / max(d.max() - d.min(), 1e-300)


def main(data_dir):
    pub = os.path.join(data_dir, "spam-assassin", "prepared", "public")
    train = pd.read_csv(os.path.join(pub, "train.csv"))
    test = pd.read_csv(os.path.join(pub, "test.csv"))
    answers = pd.read_csv(os.path.join(data_dir, "spam-assassin", "prepared", "private", "test.csv"))
    truth = test[["id"]].merge(answers, on="id", how="left").label.to_numpy()
    if np.isnan(truth.astype(float)).any():
        sys.exit("the answers do not cover every test id; prepare the competition again")
    started = time.time()
    rows = []

    def add(team, score, pipeline):
        rows.append({"teamName": team, "score": float(score), "pipeline": pipeline})

    add("constant-0.5", roc_auc_score(truth, np.full(len(test), 0.5)), "0.5 for every message")
    test_parts = parts(test.text)
    # One statistic gives the same ranking at every budget (only the sign is learned): one entry each.
    for stat, meaning in STATISTICS.items():
        x_tr, x_te = statistic(train.text, stat).reshape(-1, 1), statistic(test.text, stat).reshape(-1, 1)
        # Standardised so the regression's default penalty means the same for every statistic.
        mean, std = x_tr.mean(), max(x_tr.std(), 1e-9)
        model = LogisticRegression().fit((x_tr - mean) / std, train.label)
        add(f"{stat}/logreg", roc_auc_score(truth, model.predict_proba((x_te - mean) / std)[:, 1]),
            f"logistic regression on the message's {meaning} alone, 100% of train")
    for budget in BUDGETS:
        pct = f"{int(budget * 100)}pct"
        sub = train.sample(frac=budget, random_state=7) if budget < 1 else train
        y = sub.label.to_numpy()
        train_parts = parts(sub.text)
        for vec_name, make_vec, fields in vectorizers():
            for part in fields:
                prefix = CHAR_PREFIX if "char" in vec_name and part != "subject" else None
                tr_text, te_text = train_parts[part], test_parts[part]
                if prefix:
                    tr_text, te_text = tr_text.str.slice(0, prefix), te_text.str.slice(0, prefix)
                vec = make_vec()
                x_tr = vec.fit_transform(tr_text)
                x_te = vec.transform(te_text)
                where = f"the first {prefix} characters of the {PART_NAMES[part]}" if prefix else f"the {PART_NAMES[part]}"
                for model_name, make_model, probabilistic in models(vec_name):
                    model = make_model().fit(x_tr, y)
                    add(f"{vec_name}/{part}/{model_name}/{pct}", roc_auc_score(truth, scores(model, probabilistic, x_te)),
                        f"{model_name} on {vec_name} features of {where}, {int(budget * 100)}% of train")
            print(f"  {pct} {vec_name}: {time.time() - started:.0f}s", file=sys.stderr)

    write_board(rows, OUT, lower_is_better=False, note=f" in {time.time() - started:.0f}s")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
