class Encoder:
    def __init__(self, comp):
        self.comp = comp

    def layout(self, players):
        return None
