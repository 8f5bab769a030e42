"""google-quest-challenge: answers, leaderboard and submissions, scored independently with pandas + numpy."""
import numpy as np
import pandas as pd

CLASSES = (
    "question_asker_intent_understanding question_body_critical question_conversational "
    "question_expect_short_answer question_fact_seeking question_has_commonly_accepted_answer "
    "question_interestingness_others question_interestingness_self question_multi_intent "
    "question_not_really_a_question question_opinion_seeking question_type_choice question_type_compare "
    "question_type_consequence question_type_definition question_type_entity question_type_instructions "
    "question_type_procedure question_type_reason_explanation question_type_spelling question_well_written "
    "answer_helpful answer_level_of_information answer_plausible answer_relevance answer_satisfaction "
    "answer_type_instructions answer_type_procedure answer_type_reason_explanation answer_well_written"
).split()
LEVELS = [0.0, 0.333333333, 0.5, 0.666666667, 0.777777778, 0.833333333, 1.0]


def rho(x, y):
    """Spearman's rho: Pearson's r of average ranks (pandas ranks text by code point as well)."""
    rx = pd.Series(list(x)).rank(method="average").to_numpy()
    ry = pd.Series(list(y)).rank(method="average").to_numpy()
    return float(np.corrcoef(rx, ry)[0, 1])


def score(name, g):
    """Both sides sorted by qa_id and paired by position (ids never compared); mean rho over the 30 columns."""
    s = g.read(f"{name}.csv")
    a = g.read("answers.csv")
    if "qa_id" not in s.columns or not set(CLASSES) <= set(s.columns) or len(s.columns) != 31 or len(s) != len(a):
        return None
    s = s.sort_values("qa_id")
    a = a.sort_values("qa_id")
    return float(np.mean([rho(s[c], a[c]) for c in CLASSES]))


# google-quest-challenge: mean column-wise Spearman over 30 targets; rows paired after sorting, ids not checked.
def generate(g):
    n = 60
    ids = np.sort(g.rng.choice(np.arange(10, 9700), n, replace=False))
    truth = {}
    for c in CLASSES:
        if c == "question_type_spelling":
            col = np.zeros(n)
            col[g.rng.choice(n, 2, replace=False)] = [0.333333333, 0.666666667]
        else:
            p = g.rng.dirichlet(np.ones(len(LEVELS)))
            col = g.rng.choice(LEVELS, n, p=p)
            col[:2] = [0.0, 1.0]  # never constant
        truth[c] = col
    ans = pd.DataFrame({"qa_id": ids, **truth})
    g.write(ans, "answers.csv")
    g.leaderboard(sorted(np.round(g.rng.uniform(0.3, 0.4346, 600), 5), reverse=True))

    def frame(values, qa=ids):
        return pd.DataFrame({"qa_id": qa, **{c: values[c] for c in CLASSES}})

    noisy = {c: np.round(np.clip(truth[c] + g.rng.normal(0, 0.3, n), 0, 1), 3) for c in CLASSES}
    cases = {
        "perfect": frame(truth),
        "sample_like": frame({c: np.linspace(0, 1, n) for c in CLASSES}),
        "noisy": frame(noisy),
        "noisy_shuffled": frame(noisy).sample(frac=1, random_state=1),
        # Other ids in the same order pair the same rows: upstream never compares them.
        "wrong_ids": frame(noisy, qa=ids + 100000),
        "text_column": frame({**noisy, "answer_helpful": ["lvl%d" % int(v * 12) for v in noisy["answer_helpful"]]}),
        "columns_reordered": frame(noisy)[["qa_id"] + CLASSES[::-1]],
    }
    for name, df in cases.items():
        g.write(df, f"{name}.csv")
        g.record(name, score(name, g))
    invalid = {
        "missing_id_column": frame(noisy).drop(columns=["qa_id"]),
        "missing_class": frame(noisy).drop(columns=["answer_relevance"]),
        "extra_column": frame(noisy).assign(question_title="x"),
        "missing_row": frame(noisy).iloc[1:],
        "extra_row": pd.concat([frame(noisy), frame(noisy).iloc[:1]]),
    }
    for name, df in invalid.items():
        g.write(df, f"{name}.csv")
        assert score(name, g) is None, name
        g.record(name, None)
