"""learning-agency-lab-automated-essay-scoring-2: synthetic raw files and upstream's preparation steps."""
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _freetext import hex_ids, text


def essay(rs):
    """A few paragraphs separated by blank lines, as the essays are."""
    return "\n\n".join(text(rs, 8, 45, 0.02) for _ in range(rs.randint(1, 5)))


def essays_raw(n=300, seed=61):
    rs = np.random.RandomState(seed)
    return pd.DataFrame({
        "essay_id": hex_ids(rs, n, 7),
        "full_text": [essay(rs) for _ in range(n)],
        "score": rs.choice([1, 2, 3, 4, 5, 6], size=n, p=[0.07, 0.27, 0.36, 0.23, 0.06, 0.01]),
    })


def prepare(raw, public, private):
    old = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    train, answers = train_test_split(old, test_size=0.1, random_state=0)
    test = answers.drop(columns=["score"])
    sample = answers[["essay_id"]].copy()
    sample["score"] = np.random.RandomState(42).randint(1, 7, size=len(sample))
    answers.to_csv(os.path.join(private, "answers.csv"), index=False)
    train.to_csv(os.path.join(public, "train.csv"), index=False)
    test.to_csv(os.path.join(public, "test.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)


def make_raw(raw):
    essays_raw().to_csv(os.path.join(raw, "train.csv"), index=False)
