"""us-patent-phrase-to-phrase-matching: synthetic raw files and upstream's preparation steps."""
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _freetext import hex_ids

PHRASES = ["abatement", "abatement of pollution", "act of abating", "active catalyst", "eliminating process",
           "forest region", "greenhouse gases", "increased rate", "ph value", "wood article", "\"t\" joint",
           "bolt, nut", "o-ring", "naïve bayes", "β-lactam", "1,2-diol", "3d printing", "NA", "100", "0.5 mm"]
CONTEXTS = ["A47", "A61", "B60", "C07", "F16", "G06", "H01", "H04", "E04", "B29"]


def patent_raw(n=400, seed=91):
    rs = np.random.RandomState(seed)
    return pd.DataFrame({
        "id": hex_ids(rs, n, 16),
        "anchor": [PHRASES[k] for k in rs.randint(0, len(PHRASES) - 3, size=n)],
        "target": [PHRASES[k] for k in rs.randint(0, len(PHRASES), size=n)],
        "context": [CONTEXTS[k] for k in rs.randint(0, len(CONTEXTS), size=n)],
        "score": rs.choice([0.0, 0.25, 0.5, 0.75, 1.0], size=n, p=[0.2, 0.3, 0.34, 0.12, 0.04]),
    })


def prepare(raw, public, private):
    old = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    train, test = train_test_split(old, test_size=0.1, random_state=0)
    test_public = test.drop(columns=["score"])
    train.to_csv(os.path.join(public, "train.csv"), index=False)
    test.to_csv(os.path.join(private, "test.csv"), index=False)
    test_public.to_csv(os.path.join(public, "test.csv"), index=False)
    sample = test.copy()[["id", "score"]]
    sample["score"] = 0
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)


def make_raw(raw):
    patent_raw().to_csv(os.path.join(raw, "train.csv"), index=False)
