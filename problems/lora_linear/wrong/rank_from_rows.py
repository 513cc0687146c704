def lora_linear(x, weight, lora_a, lora_b, alpha):
    rank = lora_a.shape[0]
    return x @ weight + (alpha / rank) * (x @ lora_a) @ lora_b
