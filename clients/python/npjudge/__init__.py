"""npjudge: the NumPy Transformer Judge from a terminal (``npjudge``) or a notebook (``%load_ext npjudge``)."""


def load_ipython_extension(ipython) -> None:
    from npjudge.notebook import load_ipython_extension as load

    load(ipython)
