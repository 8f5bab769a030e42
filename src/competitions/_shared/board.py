"""Shared pieces of the reference-leaderboard generators: probability clean-up, log loss by
formula, and writing the board (best first, ties by team name)."""
import os

import numpy as np
import pandas as pd


def normalise(p, floor):
    """Floor, then rescale each row to sum to one, as a submission must."""
    p = np.clip(p, floor, 1.0)
    return p / p.sum(axis=1, keepdims=True)


def log_loss(truth, p):
    """Multi-class log loss by its formula, clipped at float64 eps, rows not renormalised."""
    eps = np.finfo(np.float64).eps
    return float(-(truth * np.log(np.clip(p, eps, 1 - eps))).sum(axis=1).mean())


def write_board(rows, out, lower_is_better, note=""):
    """Write rows (teamName, score, pipeline) to `out`, best first, and print a one-line summary."""
    board = pd.DataFrame(rows).drop_duplicates("teamName")
    board = board.sort_values(["score", "teamName"], ascending=[lower_is_better, True], kind="mergesort")
    board.to_csv(out, index=False)
    print(f"wrote {len(board)} entries to {os.path.relpath(out)}{note}; best {board.score.iloc[0]:.5f}, "
          f"median {board.score.median():.5f}, worst {board.score.iloc[-1]:.5f}")
    return board
