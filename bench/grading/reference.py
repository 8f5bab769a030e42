#!/usr/bin/python3
"""Reference grader for the benchmark: pandas read_csv + scikit-learn, or the metric as upstream
writes it in Python, following upstream's grading steps.

Usage: reference.py auc|rmse|text-accuracy|map12 SUBMISSION ANSWERS
Prints the score. Interpreter start-up and imports are part of what is measured.
"""
import sys

import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score, mean_squared_error, roc_auc_score


def apk(actual, predicted, k):
    predicted = predicted[:k]
    score, hits = 0.0, 0.0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            hits += 1.0
            score += hits / (i + 1.0)
    return score / min(len(actual), k) if actual else 0.0


kind, sub_path, ans_path = sys.argv[1:4]
sub = pd.read_csv(sub_path, float_precision="round_trip")
ans = pd.read_csv(ans_path, float_precision="round_trip")
if kind == "auc":
    assert len(sub) == len(ans)
    pd.to_numeric(sub["has_cactus"])
    assert sub["has_cactus"].min() >= 0 and sub["has_cactus"].max() <= 1
    sub = sub.sort_values("id")
    ans = ans.sort_values("id")
    assert not (sub["id"].values != ans["id"].values).any()
    score = roc_auc_score(ans["has_cactus"].to_numpy(), sub["has_cactus"].to_numpy())
elif kind == "text-accuracy":
    assert len(sub) == len(ans)
    sub = sub.sort_values("id")
    ans = ans.sort_values("id")
    assert not (sub["id"].values != ans["id"].values).any()
    score = accuracy_score(ans["after"].astype(str).to_numpy(), sub["after"].astype(str).to_numpy())
elif kind == "map12":
    assert set(sub["customer_id"]) >= set(ans["customer_id"])
    sub = sub[sub["customer_id"].isin(ans["customer_id"])].sort_values("customer_id").reset_index(drop=True)
    ans = ans.sort_values("customer_id").reset_index(drop=True)
    actual = ans["prediction"].astype(str).str.split(" ").apply(set).tolist()
    predicted = sub["prediction"].astype(str).str.split(" ").tolist()
    score = np.mean([apk(a, p, 12) for a, p in zip(actual, predicted)])
else:
    sub = sub.sort_values("key")
    ans = ans.sort_values("key")
    score = float(np.sqrt(mean_squared_error(ans["fare_amount"], sub["fare_amount"])))
print(round(score, 5))
