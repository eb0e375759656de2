"""Training the learned player (``python -m red7.learn``; needs ``red7[train]``).

:mod:`red7.learn.train` trains the value network that :mod:`red7.bots.learned` plays
with numpy alone. Nothing here is imported by the rest of the package, and PyTorch is
imported only inside the functions that train.
"""
