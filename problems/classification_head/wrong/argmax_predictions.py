import numpy as np


def classification_head(y, weight, bias):
    return np.argmax(y @ weight + bias, axis=-1)  # the predicted class of each image
