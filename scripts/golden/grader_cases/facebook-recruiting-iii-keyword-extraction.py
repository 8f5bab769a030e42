"""facebook-recruiting-iii-keyword-extraction: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.preprocessing import MultiLabelBinarizer

TAGS = ["c#", "java", "php", "javascript", "android", "jquery", "c++", "python", "iphone", "asp.net",
        "mysql", "html", "linux", ".net", "ios", "objective-c", "sql", "css", "ruby-on-rails", "windows",
        "sql-server", "ruby", "wpf", "ajax", "regex", "xml", "database", "django", "arrays", "vb.net"]


# facebook-recruiting-iii-keyword-extraction: micro F1 over space-separated tags, rows matched by `Id`.
def generate(g):
    n = 220
    ids = g.rng.choice(np.arange(6034196, 6034196 + 5000), n, replace=False)
    truth = [list(g.rng.choice(TAGS[:25], g.rng.randint(1, 5), replace=False)) for _ in range(n)]
    answers = [" ".join(t) for t in truth]
    answers[7] = None  # a question without tags: skipped when collecting classes, filled with "".
    g.write(pd.DataFrame({"Id": ids, "Tags": answers}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.2, 0.81, 367), 5), reverse=True))

    def score(name):
        """Upstream's steps: same length, ids equal after sorting, classes from the answers' tags,
        NaN -> "", split on whitespace, binarize (unknown predicted tags dropped), micro F1."""
        a = g.read("answers.csv")
        s = g.read(f"{name}.csv")
        assert {"Id", "Tags"} <= set(s.columns) and len(s) == len(a)
        a = a.sort_values("Id").reset_index(drop=True)
        s = s.sort_values("Id").reset_index(drop=True)
        assert (a.Id.values == s.Id.values).all()
        classes = set()
        for t in a.Tags:
            if isinstance(t, str):
                classes.update(t.split())
        mlb = MultiLabelBinarizer(classes=sorted(classes), sparse_output=True)
        y_true = mlb.fit_transform(a.Tags.fillna("").str.split())
        y_pred = mlb.transform(s.Tags.fillna("").str.split())
        return f1_score(y_true, y_pred, average="micro")

    def write(name, preds, shuffle=True):
        df = pd.DataFrame({"Id": ids, "Tags": preds})
        g.write(df.sample(frac=1, random_state=3) if shuffle else df, f"{name}.csv")

    def noisy(t):
        keep = [x for x in t if g.rng.rand() < 0.6]
        extra = list(g.rng.choice(TAGS, g.rng.randint(0, 3)))
        return " ".join(keep + extra)

    noisy_preds = [noisy(t) for t in truth]
    cases = {
        "perfect": answers,
        "sample_like": ["javascript c# python php java"] * n,
        "noisy": noisy_preds,
        "noisy_file_order": noisy_preds,
        # Tags never used by the answers are ignored rather than counted as false positives.
        "unknown_tags": [p + " haskell fortran" for p in noisy_preds],
        "repeated_tags": [" ".join(t + t) for t in truth],
        "some_empty": [p if k % 4 else None for k, p in enumerate(noisy_preds)],
        "odd_whitespace": ["  " + p.replace(" ", " \t ") + " " for p in noisy_preds],
        "all_empty": [None] * n,
    }
    for name, preds in cases.items():
        write(name, preds, shuffle=name != "noisy_file_order")
        g.record(name, score(name))

    def invalid(name):
        try:
            score(name)
        except Exception:
            g.record(name, None)
            return
        raise AssertionError(f"{name} should be rejected")

    # pandas reads a column of bare numbers as integers, and `.str` refuses those.
    write("numeric_tags", [str(k) for k in range(n)])
    invalid("numeric_tags")
    base = pd.DataFrame({"Id": ids, "Tags": noisy_preds})
    g.write(base.drop(columns="Tags"), "missing_column.csv")
    g.write(base.rename(columns={"Id": "id"}), "wrong_id_name.csv")
    g.write(base.iloc[:-1], "missing_id.csv")
    g.write(pd.concat([base, pd.DataFrame({"Id": [1], "Tags": ["java"]})]), "extra_id.csv")
    dup = base.copy()
    dup.loc[0, "Id"] = dup.loc[1, "Id"]
    g.write(dup, "duplicate_id.csv")
    for name in ["missing_column", "wrong_id_name", "missing_id", "extra_id", "duplicate_id"]:
        invalid(name)
