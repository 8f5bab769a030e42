"""spooky-author-identification: synthetic raw files and upstream's preparation steps."""
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _common import write_zip_csv


def spooky_raw(n=400, seed=11):
    rs = np.random.RandomState(seed)
    words = ["the", "night", "was", "dark,", "and", "\"strange\"", "whispers", "filled", "old", "house;", "I", "felt"]
    texts = [" ".join(rs.choice(words, size=rs.randint(3, 25))) for _ in range(n)]
    return pd.DataFrame({
        "id": ["id%05d" % i for i in rs.permutation(n * 3)[:n]],
        "text": texts,
        "author": rs.choice(["EAP", "HPL", "MWS"], size=n, p=[0.4, 0.29, 0.31]),
    })


def prepare(raw, public, private):
    import zipfile
    with zipfile.ZipFile(os.path.join(raw, "train.zip")) as z:
        z.extractall(raw)
    old_train = pd.read_csv(os.path.join(raw, "train.csv"))
    new_train, new_test = train_test_split(old_train, test_size=0.1, random_state=0)
    one_hot = pd.DataFrame(0, index=new_test.index, columns=["id", "EAP", "HPL", "MWS"])
    one_hot["id"] = new_test["id"]
    for i, row in new_test.iterrows():
        one_hot.loc[i, row["author"]] = 1
    sample = one_hot.copy()
    sample["EAP"] = 0.403493538995863
    sample["HPL"] = 0.287808366106543
    sample["MWS"] = 0.308698094897594
    new_train.to_csv(os.path.join(public, "train.csv"), index=False)
    new_test.drop(columns=["author"]).to_csv(os.path.join(public, "test.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)
    one_hot.to_csv(os.path.join(private, "test.csv"), index=False)


def make_raw(raw):
    write_zip_csv(spooky_raw(), raw, "train.zip", "train.csv")
