"""herbarium-2020-fgvc7: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
from _herbarium import generate_herbarium


# herbarium-2020-fgvc7: macro F1 of the category id (0..32092), integer image ids, sample submission predicts 0.
def generate(g):
    generate_herbarium(g, n_categories=32093, sample_value=0, top_score=0.889, teams=150, ids=[int(x) for x in g.rng.choice(100000, 300, replace=False)])
