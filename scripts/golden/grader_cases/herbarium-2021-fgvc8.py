"""herbarium-2021-fgvc8: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
from _herbarium import generate_herbarium


# herbarium-2021-fgvc8: macro F1 of the category id (0..64499), integer image ids, sample submission predicts 0.
def generate(g):
    generate_herbarium(g, n_categories=64500, sample_value=0, top_score=0.757, teams=110, ids=[int(x) for x in g.rng.choice(100000, 300, replace=False)])
