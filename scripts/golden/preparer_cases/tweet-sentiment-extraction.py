"""tweet-sentiment-extraction: synthetic raw files and upstream's preparation steps."""
import os

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from _freetext import WORDS, hex_ids, text

TWEET_WORDS = WORDS + ["I`d", "****", "soooo", "lol", "http://twitpic.com/4w75p", "#fail", ":-)", "<3", "&lt;3"]


def tweets_raw(n=300, seed=81):
    rs = np.random.RandomState(seed)
    rows = []
    for tid in hex_ids(rs, n, 10):
        tweet = text(rs, 1, 25, 0.03, TWEET_WORDS)
        # Many tweets keep the leading or trailing blanks of the original scrape.
        tweet = [" ", "", "", "  "][rs.randint(0, 4)] + tweet + ["", "", " "][rs.randint(0, 3)]
        toks = tweet.split(" ")
        a = rs.randint(0, len(toks))
        rows.append({"textID": tid, "text": tweet, "selected_text": " ".join(toks[a:a + rs.randint(1, 6)]),
                     "sentiment": ["neutral", "negative", "positive"][rs.randint(0, 3)]})
    # Kaggle's train.csv has one row whose text and selected_text are both missing.
    rows[13]["text"] = rows[13]["selected_text"] = np.nan
    # A selection that is a whole-cell missing-value token reads back as NaN.
    rows[29]["selected_text"] = "NA"
    return pd.DataFrame(rows)


def prepare(raw, public, private):
    old = pd.read_csv(os.path.join(raw, "train.csv"), float_precision="round_trip")
    train, test = train_test_split(old, test_size=0.1, random_state=0)
    test_public = test.drop(columns=["selected_text"])
    train.to_csv(os.path.join(public, "train.csv"), index=False)
    test.to_csv(os.path.join(private, "test.csv"), index=False)
    test_public.to_csv(os.path.join(public, "test.csv"), index=False)
    sample = test.copy()[["textID", "selected_text"]]
    sample["selected_text"] = ""
    sample.to_csv(os.path.join(public, "sample_submission.csv"), index=False)


def make_raw(raw):
    tweets_raw().to_csv(os.path.join(raw, "train.csv"), index=False)
