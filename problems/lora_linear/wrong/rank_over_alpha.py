def lora_linear(x, weight, lora_a, lora_b, alpha):
    rank = lora_a.shape[1]
    return x @ weight + (rank / alpha) * (x @ lora_a) @ lora_b
