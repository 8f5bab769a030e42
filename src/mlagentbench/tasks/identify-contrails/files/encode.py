"""Run-length encoding of binary masks in the submission format.

Pixels are numbered from 1, down each column first and then across the columns; a mask becomes
pairs "start length" separated by spaces, and an empty mask is written as "-".
"""
import numpy as np


def encode_mask(mask):
    """Encode a 2-D 0/1 array (height × width) as a run-length string, "-" when nothing is set."""
    flat = np.asarray(mask).T.reshape(-1) > 0
    padded = np.concatenate([[False], flat, [False]])
    edges = np.flatnonzero(padded[1:] != padded[:-1])
    starts, ends = edges[0::2], edges[1::2]
    if len(starts) == 0:
        return "-"
    return " ".join(f"{s + 1} {e - s}" for s, e in zip(starts, ends))


def decode_mask(text, shape=(256, 256)):
    """Decode a run-length string (or "-") into a 0/1 array of the given (height, width)."""
    flat = np.zeros(shape[0] * shape[1], dtype=np.uint8)
    if text.strip() != "-":
        numbers = [int(v) for v in text.split()]
        for start, length in zip(numbers[0::2], numbers[1::2]):
            flat[start - 1:start - 1 + length] = 1
    return flat.reshape(shape, order="F")
