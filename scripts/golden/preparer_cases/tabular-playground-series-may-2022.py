"""tabular-playground-series-may-2022: synthetic raw files and upstream's preparation steps.

Upstream holds out exactly 100,000 rows (an int test_size), so the raw train.csv must have more
than that. To keep the fixture small it has Kaggle's first and last columns only (id, target),
with ids 0.. as Kaggle numbers them; the 31 feature columns would only pass through unchanged."""
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

TEST_SIZE = 100_000
N_ROWS = TEST_SIZE + 137


def make_raw(raw):
    rs = np.random.RandomState(8)
    df = pd.DataFrame({"id": np.arange(N_ROWS), "target": (rs.random_sample(N_ROWS) < 0.49).astype(int)})
    df.to_csv(os.path.join(raw, "train.csv"), index=False)


def prepare(raw, public, private):
    old = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip", na_values=["None"])
    train, test = train_test_split(old, test_size=TEST_SIZE, random_state=0)
    # Fresh ids: 0.. for train, continuing for test.
    train = train.assign(id=np.arange(len(train)))
    test = test.assign(id=np.arange(len(train), len(train) + len(test)))
    gold = test[["id", "target"]].copy()
    sample = gold.assign(target=0.5)
    train.to_csv(os.path.join(public, "train.csv"), index=False)
    test.to_csv(os.path.join(private, "test.csv"), index=False)
    test.drop(columns=["target"]).to_csv(os.path.join(public, "test.csv"), index=False)
    gold.to_csv(os.path.join(private, "gold_submission.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
