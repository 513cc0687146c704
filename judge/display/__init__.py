"""How a graded submission is shown: its test rows and arrays (``results``), the pictures of an output beside
the expected one (``pictures``, ``token_picture``, ``curves``), the custom-input form (``custom_inputs``) and the
template tags that group the rows.

A layer of its own above the apps whose data it shows and below the pages and the API that show it, so the
submissions app keeps the rules (accept, claim, grade, record) and no code that draws.
"""
