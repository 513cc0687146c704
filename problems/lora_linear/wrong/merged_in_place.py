def lora_linear(x, weight, lora_a, lora_b, alpha):
    # Merging the adapter into the weight, as for deployment, but into the caller's array.
    weight += (alpha / lora_a.shape[1]) * (lora_a @ lora_b)
    return x @ weight
