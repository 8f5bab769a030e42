"""A 2-D convolution layer for image batches, written with plain Python loops over numpy arrays.

Running this file builds a layer with random weights, times one forward pass over a random batch,
prints the time and writes it to submission.csv.
"""
import csv
import time

import numpy as np


def relu(values: np.ndarray) -> np.ndarray:
    """Negative entries become 0; the rest are kept."""
    return np.maximum(values, 0.0)


def pad_images(batch: np.ndarray, pad: int) -> np.ndarray:
    """Surround each image of a [batch, height, width, channels] array with `pad` rows and columns of zeros."""
    if batch.ndim != 4:
        raise ValueError(f"expected a batch shaped [batch, height, width, channels], got shape {batch.shape}")
    return np.pad(batch, ((0, 0), (pad, pad), (pad, pad), (0, 0)), mode="constant", constant_values=0.0)


class Conv2DLayer:
    """Square filters slid over the height and width of an image batch, with a stride, zero padding and an optional ReLU.

    kernel_matrices has shape [kernel_size, kernel_size, input_channels, num_filters]: one
    [kernel_size, kernel_size, input_channels] filter per output channel. biases has shape
    [1, 1, 1, num_filters]: one number added to every value of an output channel.
    """

    def __init__(self, input_channels: int, num_filters: int, kernel_size: int, stride: int, padding: int, activation: str = "relu"):
        self.kernel_matrices = np.random.randn(kernel_size, kernel_size, input_channels, num_filters)
        self.biases = np.random.randn(1, 1, 1, num_filters)
        self.stride = stride
        self.padding = padding
        self.activation = activation

    def weighted_sum(self, window: np.ndarray, kernel: np.ndarray, bias: float) -> float:
        """The response of one filter at one position: window and filter multiplied entry by entry, summed, plus the bias."""
        if window.shape != kernel.shape:
            raise ValueError(f"window {window.shape} and filter {kernel.shape} differ in shape")
        return float(np.sum(window * kernel)) + bias

    def forward(self, batch: np.ndarray) -> np.ndarray:
        """Convolve a [batch, height, width, channels] array into [batch, out_height, out_width, num_filters]."""
        pad = self.padding if isinstance(self.padding, int) else 0
        count, height, width, _ = batch.shape
        size, _, _, filters = self.kernel_matrices.shape
        out_height = (height + 2 * pad - size) // self.stride + 1
        out_width = (width + 2 * pad - size) // self.stride + 1
        padded = pad_images(batch, pad)

        result = np.zeros((count, out_height, out_width, filters))
        for n in range(count):
            image = padded[n]
            for row in range(out_height):
                for col in range(out_width):
                    for f in range(filters):
                        top = row * self.stride
                        left = col * self.stride
                        window = image[top:top + size, left:left + size, :]
                        kernel = self.kernel_matrices[:, :, :, f]
                        bias = float(self.biases[0, 0, 0, f])
                        result[n, row, col, f] = self.weighted_sum(window, kernel, bias)

        if self.activation == "relu":
            return relu(result)
        return result


if __name__ == "__main__":
    images = np.random.randn(32, 64, 64, 3)

    started = time.time()
    layer = Conv2DLayer(3, 8, 3, 2, 2, "relu")
    output = layer.forward(images)
    seconds = time.time() - started
    print(f"Forward pass took {seconds:.4f} s for a batch of shape {images.shape} -> {output.shape}")

    with open("submission.csv", "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["forward_seconds"])
        writer.writerow([seconds])
