"""A local stand-in for Kaggle's time-series API: it serves the test data one visit month at a time.

Usage:
    env = MockApi()
    for test, test_peptides, test_proteins, sample_submission in env.iter_test():
        sample_submission["rating"] = ...   # your forecasts for this month's rows
        env.predict(sample_submission)
When the last month has been predicted, all predictions are written to submission.csv.
"""

import pandas as pd

INPUTS = [
    "example_test_files/test.csv",
    "example_test_files/test_peptides.csv",
    "example_test_files/test_proteins.csv",
    "example_test_files/sample_submission.csv",
]
GROUP = "visit_month"


class MockApi:
    def __init__(self, inputs=INPUTS, group=GROUP, output="submission.csv"):
        self.inputs = list(inputs)
        self.group = group
        self.output = output
        self.predictions = []
        self._state = "ready"

    def iter_test(self):
        """Yield, for each visit month in the order test.csv first lists it, the rows of every input for that month."""
        if self._state != "ready":
            raise RuntimeError("iter_test() can only be iterated once")
        frames = [pd.read_csv(p, low_memory=False) for p in self.inputs]
        months = frames[0][self.group].drop_duplicates().tolist()
        for month in months:
            self._state = "waiting"
            yield tuple(frame[frame[self.group] == month].reset_index(drop=True) for frame in frames)
            if self._state != "answered":
                raise RuntimeError("call predict() with this month's predictions before asking for the next month")
        pd.concat(self.predictions).to_csv(self.output, index=False)
        self._state = "finished"

    def predict(self, predictions):
        """Record the predictions for the month just served."""
        if self._state != "waiting":
            raise RuntimeError("predict() must follow a month served by iter_test()")
        if not isinstance(predictions, pd.DataFrame):
            raise TypeError("predict() takes a pandas DataFrame")
        self.predictions.append(predictions.copy())
        self._state = "answered"


def make_env():
    return MockApi()
