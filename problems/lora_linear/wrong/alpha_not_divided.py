def lora_linear(x, weight, lora_a, lora_b, alpha):
    return x @ weight + alpha * (x @ lora_a) @ lora_b
