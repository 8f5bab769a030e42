"""ml2021spring-hw2: synthetic raw files and upstream's preparation steps."""
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

# 11 frames of 39 MFCC features per sample, as in Kaggle's timit_11 arrays.
FEATURES = 11 * 39


def timit_dir(root):
    return os.path.join(root, "timit_11", "timit_11")


def make_raw(raw):
    rs = np.random.RandomState(21)
    d = timit_dir(raw)
    os.makedirs(d)
    np.save(os.path.join(d, "train_11.npy"), rs.normal(0, 1, size=(120, FEATURES)).astype(np.float32))
    # Kaggle's labels are phoneme indices stored as text ('<U2'), not integers.
    np.save(os.path.join(d, "train_label_11.npy"), rs.randint(0, 39, size=120).astype("<U2"))
    np.save(os.path.join(d, "test_11.npy"), rs.normal(0, 1, size=(45, FEATURES)).astype(np.float32))


def prepare(raw, public, private):
    d = timit_dir(raw)
    old_train = np.load(os.path.join(d, "train_11.npy"))
    old_labels = np.load(os.path.join(d, "train_label_11.npy"))
    old_test = np.load(os.path.join(d, "test_11.npy"))
    prop = len(old_test) / (len(old_train) + len(old_test))
    train_idx, test_idx = train_test_split(range(len(old_train)), test_size=prop, random_state=0)
    answers = pd.DataFrame({"Id": range(len(test_idx)), "ClassId": old_labels[test_idx]})
    sample = answers.copy()
    sample["ClassId"] = 0
    out = timit_dir(public)
    os.makedirs(out)
    np.save(os.path.join(out, "train_11.npy"), old_train[train_idx])
    np.save(os.path.join(out, "train_label_11.npy"), old_labels[train_idx])
    np.save(os.path.join(out, "test_11.npy"), old_train[test_idx])
    sample.to_csv(os.path.join(public, "sampleSubmission.csv"), index=False)
    answers.to_csv(os.path.join(private, "answers.csv"), index=False)
