"""ventilator-pressure-prediction: synthetic raw files and upstream's preparation steps."""
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

DTYPES = {
    "id": "int32",
    "breath_id": "int32",
    "R": "int8",
    "C": "int8",
    "time_step": "float64",
    "u_in": "float64",
    "u_out": "int8",
    "pressure": "float64",
}


def ventilator_raw(breaths=45, seed=11):
    """Breaths of uneven length, listed out of breath_id order, with one breath split in two runs
    of rows, so the grouping (sorted by breath_id) and the row order within a group both matter."""
    rs = np.random.RandomState(seed)
    ids = rs.choice(np.arange(1, 400), size=breaths, replace=False)
    frames = []
    for b in ids:
        n = int(rs.randint(3, 12))
        steps = np.cumsum(np.concatenate([[0.0], rs.uniform(0.03, 0.04, n - 1)]))
        u_in = rs.uniform(0, 100, n) * (rs.random_sample(n) < 0.8)
        u_in[rs.random_sample(n) < 0.05] = 100.0
        u_in[rs.random_sample(n) < 0.05] = rs.uniform(0, 1e-4)
        frames.append(
            pd.DataFrame(
                {
                    "breath_id": b,
                    "R": rs.choice([5, 20, 50]),
                    "C": rs.choice([10, 20, 50]),
                    "time_step": steps,
                    "u_in": u_in,
                    "u_out": (steps > 1.0).astype(int) | (rs.random_sample(n) < 0.3),
                    "pressure": rs.uniform(-2, 65, n),
                }
            )
        )
    df = pd.concat(frames, ignore_index=True)
    # Move the first rows of one breath to the end of the file.
    moved = df.index[df["breath_id"] == ids[2]][:2]
    df = pd.concat([df.drop(index=moved), df.loc[moved]], ignore_index=True)
    df.loc[5, "pressure"] = 6.2
    df.loc[6, "u_in"] = 12.5
    df.insert(0, "id", np.arange(1, len(df) + 1))
    return df


def prepare(raw, public, private):
    old_train = pd.read_csv(os.path.join(raw, "train.csv"), dtype=DTYPES, float_precision="round_trip")
    groups = [g.index.tolist() for _, g in old_train.groupby("breath_id")]
    train_groups, test_groups = train_test_split(groups, test_size=0.1, random_state=0)
    new_train = old_train.loc[[i for g in train_groups for i in g]].copy()
    new_test = old_train.loc[[i for g in test_groups for i in g]].copy()
    new_train["id"] = range(1, len(new_train) + 1)
    new_test["id"] = range(1, len(new_test) + 1)
    without = new_test.drop(columns=["pressure"])
    sample = without.copy()[["id"]]
    sample["pressure"] = 0
    fmt = "%.10g"
    new_train.to_csv(os.path.join(public, "train.csv"), index=False, float_format=fmt)
    without.to_csv(os.path.join(public, "test.csv"), index=False, float_format=fmt)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False, float_format=fmt)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False, float_format=fmt)


def make_raw(raw):
    ventilator_raw().to_csv(os.path.join(raw, "train.csv"), index=False)
