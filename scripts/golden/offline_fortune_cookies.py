#!/usr/bin/python3
"""Expected values for test/prepare/fortune-cookies.test.ts, computed independently of the
TypeScript grader with pandas and scikit-learn on the prepared files.

Usage: /usr/bin/python3 scripts/golden/offline_fortune_cookies.py <data dir>
"""
import os
import sys

import numpy as np
import pandas as pd
from sklearn.metrics import log_loss

root = os.path.join(sys.argv[1], "fortune-cookies", "prepared")
train = pd.read_csv(os.path.join(root, "public", "train.csv"), keep_default_na=False)
test = pd.read_csv(os.path.join(root, "public", "test.csv"), keep_default_na=False)
answers = pd.read_csv(os.path.join(root, "private", "test.csv"))
classes = [c for c in answers.columns if c != "id"]
truth = test[["id"]].merge(answers, on="id")[classes].to_numpy().argmax(axis=1)


def score(p):
    """scikit-learn's log loss (its own eps clipping, labels fixed to all 22 columns)."""
    return log_loss(truth, p, labels=list(range(len(classes))))


print("train/test rows", len(train), len(test))
print("train per class", train.collection.value_counts().reindex(classes).tolist())
print("test per class", answers[classes].sum().tolist())
print("uniform", score(np.full((len(test), len(classes)), 1 / len(classes))))
prior = train.collection.value_counts(normalize=True).reindex(classes).to_numpy()
print("prior", score(np.tile(prior, (len(test), 1))))
# Keyword rule: weight 1 per collection, plus 9 for a collection whose keyword the text holds.
keywords = {"computers": "computer", "linux": "linux", "law": "law", "love": "love", "food": "eat"}
w = np.ones((len(test), len(classes)))
lower = test.text.str.lower()
for label, word in keywords.items():
    w[:, classes.index(label)] += 9 * lower.str.contains(word, regex=False).to_numpy()
print("keywords", score(w / w.sum(axis=1, keepdims=True)))
