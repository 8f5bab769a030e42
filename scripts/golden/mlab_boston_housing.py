#!/usr/bin/python3
"""Golden values for the boston-housing research task: writes test/fixtures/mlagentbench/boston-housing/.

Run with Debian's /usr/bin/python3 (numpy 1.24, pandas 1.5, scikit-learn 1.2). Writes
- answers.csv and submission.csv: a small made-up answers table and a submission for it whose rows are
  shuffled, so the evaluator has to match rows by Id;
- expected.json: scikit-learn's mean_absolute_error of that submission, and, for the task's real split of
  scikit-learn's Boston table (train_test_split, test_size=0.2, random_state=42, column B dropped), the
  test tracts' MEDV in split order, the first test tract's features and the MAE of predicting the training
  median for every test tract (what sample_submission.csv holds).
"""
import json
import os

import numpy as np
import pandas as pd
import sklearn
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import train_test_split

assert np.__version__.startswith("1.24") and sklearn.__version__.startswith("1.2") and pd.__version__.startswith("1.5")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "fixtures", "mlagentbench", "boston-housing")
SOURCE = os.path.join(os.path.dirname(sklearn.__file__), "datasets", "data", "boston_house_prices.csv")

rng = np.random.RandomState(7)
n = 25
ids = np.arange(405, 405 + n)
truth = np.round(rng.uniform(5, 50, n), 1)
guess = np.round(truth + rng.normal(0, 4, n), 3)
order = rng.permutation(n)
answers = pd.DataFrame({"Id": ids, "MEDV": truth})
submission = pd.DataFrame({"Id": ids[order], "MEDV": guess[order]})
os.makedirs(OUT, exist_ok=True)
answers.to_csv(os.path.join(OUT, "answers.csv"), index=False)
submission.to_csv(os.path.join(OUT, "submission.csv"), index=False)
# Read back, so the value is for exactly the numbers the files hold.
a = pd.read_csv(os.path.join(OUT, "answers.csv"))
s = pd.read_csv(os.path.join(OUT, "submission.csv")).set_index("Id").loc[a["Id"]]
fixture_mae = mean_absolute_error(a["MEDV"], s["MEDV"])

boston = pd.read_csv(SOURCE, skiprows=1).drop(columns=["B"])
train, test = train_test_split(boston, test_size=0.2, random_state=42)
median = float(train["MEDV"].median())
features = [c for c in boston.columns if c != "MEDV"]

expected = {
    "fixture_mae": fixture_mae,
    "split": {
        "train_rows": len(train),
        "test_rows": len(test),
        "test_medv": test["MEDV"].tolist(),
        "first_test_features": {c: float(test[c].iloc[0]) for c in features},
        "train_median": median,
        "median_mae": mean_absolute_error(test["MEDV"], np.full(len(test), median)),
    },
}
with open(os.path.join(OUT, "expected.json"), "w") as f:
    json.dump(expected, f, indent=2)
    f.write("\n")
print(json.dumps({k: v for k, v in expected.items() if k != "split"}), expected["split"]["median_mae"])
