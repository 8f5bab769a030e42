"""chaii-hindi-and-tamil-question-answering: answers, leaderboard and submissions, scored independently with pandas + Python sets."""
import numpy as np
import pandas as pd

WORDS = (
    "भारत दिल्ली महात्मा गांधी 1947 स्वतंत्रता नदी गंगा हिमालय प्रधानमंत्री "
    "சென்னை தமிழ் நாடு இந்தியா கவிஞர் பாரதியார் 1882 ஆண்டு மொழி திருவள்ளுவர் "
    "ISRO Nobel UNESCO km² 3,214 (1950) सन् वर्ष"
).split()
ODD_SPACES = ["\xa0", "\u200c", "\u3000", "\u200b", "\x1f"]


def word_sets(values):
    return [set(v.lower().split()) for v in values]


def score(name, g):
    """Sample-averaged Jaccard of lower-cased word sets (scikit-learn's multilabel 'samples' average, written out)."""
    s = g.read(f"{name}.csv")
    a = g.read("answers.csv")
    if len(s) != len(a) or not {"id", "PredictionString"} <= set(s.columns):
        return None
    s = s.sort_values("id")
    a = a.sort_values("id")
    if (s.id.values != a.id.values).any():
        return None
    pred_values = s.PredictionString.fillna("").tolist()
    if not all(isinstance(v, str) for v in pred_values):
        return None  # .lower() on a number fails upstream
    pred = word_sets(pred_values)
    true = word_sets(a.PredictionString.fillna("").tolist())
    if len(set().union(*pred, *true)) < 2:
        return None  # one or no indicator column is not multilabel input
    return float(np.mean([len(p & t) / len(p | t) if p | t else 0.0 for p, t in zip(pred, true)]))


# chaii-hindi-and-tamil-question-answering: Jaccard of word sets averaged over rows, ids sorted and compared.
def generate(g):
    n = 200
    ids = g.hex_ids(n, 9)
    answers = []
    for i in range(n):
        toks = list(g.rng.choice(WORDS, g.rng.randint(1, 5)))
        if i % 11 == 0:
            toks[0] = toks[0] + ODD_SPACES[(i // 11) % len(ODD_SPACES)] + "x"
        answers.append(" ".join(toks))
    g.write(pd.DataFrame({"id": ids, "PredictionString": answers}), "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.6, 0.7630, 940), 5), reverse=True))
    partly = [a if g.rng.rand() < 0.6 else " ".join(g.rng.choice(WORDS, 3)) for a in answers]
    cases = {
        "perfect": answers,
        "sample_like": ["dummy text"] * n,
        "partly_right": partly,
        "extra_words": [a + " " + str(g.rng.choice(WORDS)) for a in answers],
        "upper_cased": [a.upper() for a in answers],
        "some_missing": [None if i % 5 == 0 else a for i, a in enumerate(answers)],
        "all_missing": [None] * n,
    }
    for name, pred in cases.items():
        g.write(pd.DataFrame({"id": ids, "PredictionString": pred}).sample(frac=1, random_state=2), f"{name}.csv")
        g.record(name, score(name, g))
    invalid = {
        "numbers": pd.DataFrame({"id": ids, "PredictionString": list(range(n))}),
        "numbers_with_gaps": pd.DataFrame({"id": ids, "PredictionString": [None if i % 3 else 1947.0 for i in range(n)]}),
        "missing_id": pd.DataFrame({"id": ids[1:], "PredictionString": answers[1:]}),
        "extra_id": pd.DataFrame({"id": ids + ["000000000"], "PredictionString": answers + ["x"]}),
        "duplicate_id": pd.DataFrame({"id": [ids[1]] + ids[1:], "PredictionString": answers}),
        "missing_column": pd.DataFrame({"id": ids, "answer_text": answers}),
    }
    for name, df in invalid.items():
        g.write(df, f"{name}.csv")
        assert score(name, g) is None, name
        g.record(name, None)
