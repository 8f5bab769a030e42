#!/usr/bin/python3
"""Reference leaderboard for the offline `sotu-party` competition.

Runs a documented population of standard text-classification pipelines on the public train
split, scores each on the private answers with macro-averaged F1, and writes
src/competitions/sotu-party/leaderboard.csv (best first). The scores form a *reference
population* of pipelines, not a leaderboard of human teams.

The population:
- trivial baselines: the majority class, a stratified random guess and a uniform random guess
  (both seeded);
- five bag-of-words feature sets: word-unigram counts (2,000 terms), word 1-2-gram counts
  (20,000 terms), sublinear tf-idf of word unigrams (5,000 terms), sublinear tf-idf of word
  1-2-grams (50,000 terms) and sublinear tf-idf of character 2-5-grams within word boundaries
  (100,000 features);
- ten linear models on each: multinomial naive Bayes (alpha 1 and 0.1), complement naive Bayes,
  logistic regression (C 0.1 and 1, and C 1 and 10 with balanced class weights), linear SVMs
  (C 0.1 balanced, C 1) and an SGD-trained hinge-loss classifier;
- every pipeline trained on 25%, 50% and 100% of the training passages (a seeded sample).

Solvers keep scikit-learn's default iteration limits (logistic regression: lbfgs, 100
iterations), as a quick pipeline would; some fits stop before converging, which is part of what
spreads the population, so the convergence warnings are silenced.

Everything is seeded, so a rerun writes the same file.

Usage (Debian's interpreter, which has scikit-learn):
    node dist/cli/main.js prepare -c sotu-party --data-dir /tmp/lb-data
    /usr/bin/python3 src/competitions/sotu-party/leaderboard.py /tmp/lb-data
"""
import os
import sys
import warnings

import numpy as np
import pandas as pd
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.metrics import f1_score
from sklearn.naive_bayes import ComplementNB, MultinomialNB
from sklearn.svm import LinearSVC

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))
from board import write_board

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "leaderboard.csv")
BUDGETS = [0.25, 0.5, 1.0]


def feature_sets():
    """(name, description, vectorizer factory) for every text representation in the population."""
    yield "count-w1-2k", "word-unigram counts (2k terms)", lambda: CountVectorizer(max_features=2000)
    yield "count-w12-20k", "word 1-2-gram counts (20k terms)", lambda: CountVectorizer(
        ngram_range=(1, 2), min_df=2, max_features=20000)
    yield "tfidf-w1-5k", "sublinear tf-idf of word unigrams (5k terms)", lambda: TfidfVectorizer(
        sublinear_tf=True, max_features=5000)
    yield "tfidf-w12-50k", "sublinear tf-idf of word 1-2-grams (50k terms)", lambda: TfidfVectorizer(
        ngram_range=(1, 2), min_df=2, sublinear_tf=True, max_features=50000)
    yield "tfidf-c25-100k", "sublinear tf-idf of char 2-5-grams (100k features)", lambda: TfidfVectorizer(
        analyzer="char_wb", ngram_range=(2, 5), min_df=2, sublinear_tf=True, max_features=100000)


def models():
    """(name, factory) for every classifier trained on each feature set."""
    yield "mnb-a1", lambda: MultinomialNB(alpha=1.0)
    yield "mnb-a0.1", lambda: MultinomialNB(alpha=0.1)
    yield "cnb-a0.3", lambda: ComplementNB(alpha=0.3)
    yield "logreg-C0.1", lambda: LogisticRegression(C=0.1)
    yield "logreg-C1", lambda: LogisticRegression(C=1.0)
    yield "logreg-C1-bal", lambda: LogisticRegression(C=1.0, class_weight="balanced")
    yield "logreg-C10-bal", lambda: LogisticRegression(C=10.0, class_weight="balanced")
    yield "linsvc-C0.1-bal", lambda: LinearSVC(C=0.1, class_weight="balanced", random_state=0)
    yield "linsvc-C1", lambda: LinearSVC(C=1.0, random_state=0)
    yield "sgd-hinge", lambda: SGDClassifier(loss="hinge", alpha=1e-4, max_iter=50, tol=None, random_state=0)


def baselines():
    """(name, description, factory) for the pipelines that ignore the text."""
    yield "majority", "the most common party in train", lambda: DummyClassifier(strategy="most_frequent")
    yield "stratified-guess", "a random party drawn with the train class shares (seed 0)", lambda: DummyClassifier(
        strategy="stratified", random_state=0)
    yield "uniform-guess", "a uniformly random party (seed 0)", lambda: DummyClassifier(
        strategy="uniform", random_state=0)


def main(data_dir):
    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    pub = os.path.join(data_dir, "sotu-party", "prepared", "public")
    train = pd.read_csv(os.path.join(pub, "train.csv"), keep_default_na=False)
    test = pd.read_csv(os.path.join(pub, "test.csv"), keep_default_na=False)
    answers = pd.read_csv(os.path.join(data_dir, "sotu-party", "prepared", "private", "test.csv"),
                          keep_default_na=False)
    truth = test[["id"]].merge(answers, on="id", how="left").party.to_numpy()
    assert len(truth) == len(test) and all(isinstance(t, str) and t for t in truth), "answers do not cover test"
    rows = []

    def add(name, budget, description, pred):
        pct = int(budget * 100)
        score = float(f1_score(truth, pred, average="macro"))
        rows.append({"teamName": f"{name}/{pct}pct", "score": score, "pipeline": f"{description}, {pct}% of train"})

    for budget in BUDGETS:
        sub = train.sample(frac=budget, random_state=7) if budget < 1 else train
        for name, description, factory in baselines():
            pred = factory().fit(np.zeros((len(sub), 1)), sub.party).predict(np.zeros((len(test), 1)))
            add(name, budget, description, pred)
        for fname, fdesc, vectorizer in feature_sets():
            vec = vectorizer()
            x_train = vec.fit_transform(sub.text)
            x_test = vec.transform(test.text)
            for mname, factory in models():
                pred = factory().fit(x_train, sub.party).predict(x_test)
                add(f"{mname}/{fname}", budget, f"{mname} on {fdesc}", pred)
        print(f"{int(budget * 100)}% of train done: {len(rows)} entries", file=sys.stderr)
    write_board(rows, OUT, lower_is_better=False)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
