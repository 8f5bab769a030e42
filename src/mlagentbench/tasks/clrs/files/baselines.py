"""The model class the evaluator loads the checkpoint with.

The evaluator imports BaselineModel from this file, so a changed architecture must be reachable from here:
subclass the library's model below, or replace this import with your own implementation.
"""
from clrs._src.baselines import BaselineModel, BaselineModelChunked  # noqa: F401
