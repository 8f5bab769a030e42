"""herbarium-2022-fgvc9: answers, leaderboard and submissions, scored independently with pandas + scikit-learn."""
from _herbarium import generate_herbarium


# herbarium-2022-fgvc9: macro F1 of the category id (0..15500), ids 0..n-1 (test images numbered by position), sample submission predicts 42.
def generate(g):
    generate_herbarium(g, n_categories=15501, sample_value=42, top_score=0.870, teams=140, ids=list(range(300)))
