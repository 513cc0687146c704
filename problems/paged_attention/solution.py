import numpy as np


def paged_attention(q: np.ndarray, k_pages: np.ndarray, v_pages: np.ndarray, block_table: np.ndarray,
                    seq_lens: np.ndarray) -> np.ndarray:
    """Reference: one decode step over a paged KV cache. Position t of sequence b is at offset
    t % page_size of page block_table[b, t // page_size]."""
    batch, heads, dim = q.shape
    page_size = k_pages.shape[1]
    out = np.empty_like(q)
    for b in range(batch):
        n = int(seq_lens[b])
        pages = block_table[b, : -(-n // page_size)]  # the pages holding positions 0 .. n - 1
        k = k_pages[pages].reshape(-1, heads, dim)[:n]  # (n, H, d), in position order
        v = v_pages[pages].reshape(-1, heads, dim)[:n]
        scores = np.einsum("hd,nhd->hn", q[b], k) / np.sqrt(dim)
        weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
        weights /= weights.sum(axis=-1, keepdims=True)
        out[b] = np.einsum("hn,nhd->hd", weights, v)
    return out
