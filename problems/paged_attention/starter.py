import numpy as np


def paged_attention(q: np.ndarray, k_pages: np.ndarray, v_pages: np.ndarray, block_table: np.ndarray,
                    seq_lens: np.ndarray) -> np.ndarray:
    """One decoding step of attention over a paged KV cache (vLLM's PagedAttention).

    Args:
        q: float64 (B, H, d), each sequence's newest query.
        k_pages, v_pages: float64 (P, page_size, H, d), the pool of pages shared by all sequences.
        block_table: int64 (B, max_pages); block_table[b, i] is the page holding positions
            i * page_size .. (i + 1) * page_size - 1 of sequence b, -1 where unused.
        seq_lens: int64 (B,), each sequence's number of cached positions (>= 1, its newest included).

    Returns:
        float64 (B, H, d): for each sequence and head, softmax(q . k / sqrt(d)) . v over the keys
        and values of its positions 0 .. seq_lens[b] - 1.
    """
    raise NotImplementedError("gather each sequence's pages through its block table, then attend")
