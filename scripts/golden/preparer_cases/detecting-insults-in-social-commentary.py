"""detecting-insults-in-social-commentary: synthetic raw files and upstream's preparation steps."""
import os
import shutil

import numpy as np
import pandas as pd

# Comments as Kaggle ships them: wrapped in literal double quotes, with escapes left as text
# (backslash-x-a-0, backslash-n, doubled backslashes) and the odd real unicode character.
PIECES = [
    "You fuck your dad.",
    "i really don't understand your point.\\xa0 It seems that you are mixing apples and oranges.",
    "A\\\\xc2\\\\xa0majority of Canadians can and has been wrong before now.\\n\\nUnless you're supportive",
    "listen, idiot, \"nobody\" cares",
    "@LoL \u00e9t\u00e9 na\u00efve \u2014 really?",
    "THE DRUDGE REPORT\\n\\n\\n\\nYou won't see this story",
    "NA",
    "haha,, lol",
    "\\u00a0\\u2019s not ok",
]


def dates(rs, n):
    out = []
    for _ in range(n):
        if rs.random_sample() < 0.2:
            out.append(None)  # Kaggle leaves the timestamp empty for some comments
        else:
            out.append("2012%02d%02d%02d%02d%02dZ" % (rs.randint(3, 7), rs.randint(1, 29), rs.randint(0, 24),
                                                      rs.randint(0, 60), rs.randint(0, 60)))
    return out


def comments(rs, n, taken=()):
    """n comments, none of them in taken: upstream checks that no test comment is also a training one
    (Kaggle's are distinct), while repeats within one file are kept."""
    out = []
    while len(out) < n:
        text = '"%s"' % " ".join(rs.choice(PIECES, size=rs.randint(1, 4)))
        if text not in taken:
            out.append(text)
    return out


def make_raw(raw):
    rs = np.random.RandomState(17)
    n_train, n_test = 200, 150
    train = pd.DataFrame({
        "Insult": (rs.random_sample(n_train) < 0.26).astype(int),
        "Date": dates(rs, n_train),
        "Comment": comments(rs, n_train),
    })
    test = pd.DataFrame({
        "Insult": (rs.random_sample(n_test) < 0.26).astype(int),
        "Date": dates(rs, n_test),
        "Comment": comments(rs, n_test, taken=set(train["Comment"])),
        "Usage": rs.choice(["PublicTest", "PrivateTest"], size=n_test),
    })
    train.to_csv(os.path.join(raw, "train.csv"), index=False)
    # Windows line ends in the solutions file: read_csv takes them in its stride.
    test.to_csv(os.path.join(raw, "test_with_solutions.csv"), index=False, lineterminator="\r\n")


def read_csv(path):
    # Upstream's read_csv, with pandas 2.2's extra default missing-value token.
    return pd.read_csv(path, float_precision="round_trip", na_values=["None"])


def prepare(raw, public, private):
    shutil.copy(os.path.join(raw, "train.csv"), os.path.join(public, "train.csv"))
    shutil.copy(os.path.join(raw, "test_with_solutions.csv"), os.path.join(private, "test.csv"))
    gold = read_csv(os.path.join(private, "test.csv"))[["Insult", "Date", "Comment"]]
    gold.to_csv(os.path.join(private, "gold_submission.csv"), index=False)
    gold.drop(columns=["Insult"]).to_csv(os.path.join(public, "test.csv"), index=False)
    sample = gold.copy()
    sample["Insult"] = 0
    sample.to_csv(os.path.join(public, "sample_submission_null.csv"), index=False)
