"""npjudge: the NumPy Transformer Judge from a terminal or a notebook."""
