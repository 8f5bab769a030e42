"""tabular-playground-series-dec-2021: synthetic raw files and upstream's preparation steps."""
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split


def tps_dec_raw(n=500, seed=3):
    rs = np.random.RandomState(seed)
    df = pd.DataFrame({"Id": np.arange(n)})
    for c in ["Elevation", "Aspect", "Slope", "Horizontal_Distance_To_Hydrology", "Hillshade_9am"]:
        df[c] = rs.randint(-50, 4000, size=n)
    for k in range(1, 5):
        df["Wilderness_Area%d" % k] = (rs.random_sample(n) < 0.25).astype(int)
    for k in range(1, 6):
        df["Soil_Type%d" % k] = (rs.random_sample(n) < 0.1).astype(int)
    df["Cover_Type"] = rs.choice([1, 2, 3, 4, 6, 7], size=n, p=[0.36, 0.56, 0.05, 0.001, 0.009, 0.02])
    return df


def prepare(raw, public, private):
    old_train = pd.read_csv(os.path.join(raw, "train.csv"))
    new_train, new_test = train_test_split(old_train, test_size=0.1, random_state=0)
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False)
    new_test.drop(columns=["Cover_Type"]).to_csv(os.path.join(public, "test.csv"), index=False)
    pd.DataFrame({"Id": new_test["Id"].values, "Cover_Type": 2}).to_csv(os.path.join(public, "sample_submission.csv"), index=False)


def make_raw(raw):
    tps_dec_raw().to_csv(os.path.join(raw, "train.csv"), index=False)
