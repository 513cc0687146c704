import numpy as np


def paged_attention(q, k_pages, v_pages, block_table, seq_lens):
    batch, heads, dim = q.shape
    page_size = k_pages.shape[1]
    out = np.empty_like(q)
    for b in range(batch):
        n = int(seq_lens[b])
        pages = block_table[b, : -(-n // page_size)]
        # Offsets before pages: position t read from page t % n_pages at offset t // n_pages.
        k = k_pages[pages].transpose(1, 0, 2, 3).reshape(-1, heads, dim)[:n]
        v = v_pages[pages].transpose(1, 0, 2, 3).reshape(-1, heads, dim)[:n]
        scores = np.einsum("hd,nhd->hn", q[b], k) / np.sqrt(dim)
        weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
        weights /= weights.sum(axis=-1, keepdims=True)
        out[b] = np.einsum("hn,nhd->hd", weights, v)
    return out
