#!/usr/bin/python3
"""Reference grader for the benchmark: pandas read_csv + scikit-learn, as upstream grades.

Usage: reference.py auc|rmse SUBMISSION ANSWERS
Prints the score. Interpreter start-up and imports are part of what is measured.
"""
import sys

import numpy as np
import pandas as pd
from sklearn.metrics import mean_squared_error, roc_auc_score

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
else:
    sub = sub.sort_values("key")
    ans = ans.sort_values("key")
    score = float(np.sqrt(mean_squared_error(ans["fare_amount"], sub["fare_amount"])))
print(round(score, 5))
