"""Goldfish play models: on which turn a card can first be played under a game's costs."""
