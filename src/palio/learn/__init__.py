"""Learning for every game with an observation encoding: self-play training of a
policy-value network that guides an information-set search (``palio train``).

:mod:`palio.learn.selfplay` plays the games (NumPy only, so workers stay light);
:mod:`palio.learn.trainer` trains with PyTorch (``pip install 'palio[learn]'``) and exports the
network to the NumPy model file the ``learned`` bot plays with (:mod:`palio.bots.network`).
"""

LEARN_MISSING = "training needs PyTorch: pip install 'palio[learn]'"


def import_trainer():
    """The trainer module, or a clear :class:`OptionError` when PyTorch is missing."""
    from palio.core.errors import OptionError

    try:
        import torch  # noqa: F401
    except ImportError:
        raise OptionError(LEARN_MISSING) from None
    from palio.learn import trainer

    return trainer
