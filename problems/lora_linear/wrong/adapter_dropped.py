def lora_linear(x, weight, lora_a, lora_b, alpha):
    # "B starts at zero, so the adapter contributes nothing": true only before training.
    return x @ weight
