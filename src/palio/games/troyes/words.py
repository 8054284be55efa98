from palio.core.words import GameWords


class TroyesWords(GameWords):
    domain = "troyes"


def legend(comp):
    return {}
