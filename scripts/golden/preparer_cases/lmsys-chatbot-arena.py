"""lmsys-chatbot-arena: synthetic raw files and upstream's preparation steps."""
import json
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _freetext import text

MODELS = ["gpt-4-1106-preview", "claude-2.1", "llama-2-70b-chat", "vicuna-13b", "mistral-medium", "gemini-pro-dev-api"]


def turns(rs, k, nulls):
    """One side of a conversation as Kaggle stores it: a JSON list of strings, null for a missing turn."""
    out = [None if rs.random_sample() < nulls else text(rs, 1, 25) for _ in range(k)]
    return json.dumps(out, ensure_ascii=bool(rs.random_sample() < 0.2))


def arena_raw(n=300, seed=71):
    rs = np.random.RandomState(seed)
    rows = []
    for i in range(n):
        k = 1 + (rs.random_sample() < 0.3) * rs.randint(1, 4)
        a, b = rs.choice(len(MODELS), size=2, replace=False)
        winner = rs.randint(0, 3)
        rows.append({
            "id": 30192 + 7919 * i % 4294967,
            "model_a": MODELS[a],
            "model_b": MODELS[b],
            "prompt": turns(rs, k, 0.0),
            "response_a": turns(rs, k, 0.05),
            "response_b": turns(rs, k, 0.05),
            "winner_model_a": int(winner == 0),
            "winner_model_b": int(winner == 1),
            "winner_tie": int(winner == 2),
        })
    return pd.DataFrame(rows)


def prepare(raw, public, private):
    old = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    train, answers = train_test_split(old, test_size=0.1, random_state=0)
    test = answers[["id", "prompt", "response_a", "response_b"]].copy()
    sample = answers[["id"]].copy()
    for c in ["winner_model_a", "winner_model_b", "winner_tie"]:
        sample[c] = 0.3333333333333333
    answers.to_csv(os.path.join(private, "answers.csv"), index=False)
    train.to_csv(os.path.join(public, "train.csv"), index=False)
    test.to_csv(os.path.join(public, "test.csv"), index=False)
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)


def make_raw(raw):
    arena_raw().to_csv(os.path.join(raw, "train.csv"), index=False)
