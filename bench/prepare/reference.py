#!/usr/bin/python3
"""Reference preparer for the benchmark: upstream's new-york-city-taxi-fare-prediction steps with
pandas and scikit-learn (read_csv with round-trip floats, train_test_split, four to_csv calls and
a file copy).

Usage: reference.py RAW PUBLIC PRIVATE
Interpreter start-up and imports are part of what is measured.
"""
import os
import shutil
import sys

import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
rides = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
train, test = train_test_split(rides, test_size=9914, random_state=0)
sample = test.copy()[["key"]]
sample["fare_amount"] = 11.35
train.to_csv(os.path.join(public, "labels.csv"), index=False)
test.drop(columns=["fare_amount"]).to_csv(os.path.join(public, "test.csv"), index=False)
sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
test.to_csv(os.path.join(private, "test.csv"), index=False)
shutil.copy(os.path.join(raw, "GCP-Coupons-Instructions.rtf"), os.path.join(public, "GCP-Coupons-Instructions.rtf"))
