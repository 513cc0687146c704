import numpy as np


def paged_attention(q, k_pages, v_pages, block_table, seq_lens):
    batch, heads, dim = q.shape
    page_size = k_pages.shape[1]
    out = np.empty_like(q)
    for b in range(batch):
        n = int(seq_lens[b]) - 1  # takes seq_lens as the index of the newest position, and stops before it
        pages = block_table[b, : -(-int(seq_lens[b]) // page_size)]
        k = k_pages[pages].reshape(-1, heads, dim)[:n]
        v = v_pages[pages].reshape(-1, heads, dim)[:n]
        scores = np.einsum("hd,nhd->hn", q[b], k) / np.sqrt(dim)
        with np.errstate(invalid="ignore"):
            weights = np.exp(scores - scores.max(axis=-1, keepdims=True, initial=-np.inf))
            weights /= weights.sum(axis=-1, keepdims=True)
        out[b] = np.einsum("hn,nhd->hd", weights, v)
    return out
