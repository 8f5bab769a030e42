"""playground-series-s3e18: synthetic raw files and upstream's preparation steps."""
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

# The 31 descriptor columns of Kaggle's train.csv, in file order; the last two are counts.
FLOAT_FEATURES = [
    "BertzCT", "Chi1", "Chi1n", "Chi1v", "Chi2n", "Chi2v", "Chi3v", "Chi4n", "EState_VSA1", "EState_VSA2",
    "ExactMolWt", "FpDensityMorgan1", "FpDensityMorgan2", "FpDensityMorgan3", "HallKierAlpha", "HeavyAtomMolWt",
    "Kappa3", "MaxAbsEStateIndex", "MinEStateIndex",
]
INT_FEATURES = ["NumHeteroatoms"]
MORE_FLOATS = ["PEOE_VSA10", "PEOE_VSA14", "PEOE_VSA6", "PEOE_VSA7", "PEOE_VSA8", "SMR_VSA10", "SMR_VSA5", "SlogP_VSA3", "VSA_EState9"]
COUNTS = ["fr_COO", "fr_COO2"]
TARGETS = ["EC1", "EC2", "EC3", "EC4", "EC5", "EC6"]


def s3e18_raw(n=420, seed=18):
    rs = np.random.RandomState(seed)
    df = pd.DataFrame({"id": np.arange(n)})
    for c in FLOAT_FEATURES:
        scale = rs.choice([1.0, 10.0, 100.0, 1000.0])
        v = rs.normal(0, 1, size=n) * scale
        # Mixed precisions: the Kaggle file has exact small decimals next to full doubles and tiny values.
        kind = rs.randint(0, 3, size=n)
        v = np.where(kind == 0, np.round(v, 6), np.where(kind == 1, np.round(v, 1), v * 1e-5))
        df[c] = v
    df["NumHeteroatoms"] = rs.randint(0, 40, size=n)
    for c in MORE_FLOATS:
        df[c] = np.where(rs.random_sample(n) < 0.3, 0.0, np.round(rs.exponential(20, size=n), 6))
    for c in COUNTS:
        df[c] = rs.randint(0, 3, size=n)
    for c in TARGETS:
        df[c] = (rs.random_sample(n) < 0.6).astype(int)
    return df


def prepare(raw, public, private):
    old_train = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    new_train, new_test = train_test_split(old_train, test_size=0.1, random_state=0)
    sample = new_test.copy()
    sample["EC1"] = 0.5
    sample["EC2"] = 0.5
    sample = sample[[c for c in sample.columns if c in ("id", "EC1", "EC2")]]
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    new_test.to_csv(os.path.join(private, "test.csv"), index=False)
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    new_test.drop(columns=TARGETS).to_csv(os.path.join(public, "test.csv"), index=False)


def make_raw(raw):
    s3e18_raw().to_csv(os.path.join(raw, "train.csv"), index=False)
