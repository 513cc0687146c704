import numpy as np


def paged_attention(q, k_pages, v_pages, block_table, seq_lens):
    batch, heads, dim = q.shape
    page_size = k_pages.shape[1]
    out = np.empty_like(q)
    for b in range(batch):
        pages = block_table[b, : -(-int(seq_lens[b]) // page_size)]
        # Every slot of every page, the unfilled end of the last page included.
        k = k_pages[pages].reshape(-1, heads, dim)
        v = v_pages[pages].reshape(-1, heads, dim)
        scores = np.einsum("hd,nhd->hn", q[b], k) / np.sqrt(dim)
        weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
        weights /= weights.sum(axis=-1, keepdims=True)
        out[b] = np.einsum("hn,nhd->hd", weights, v)
    return out
