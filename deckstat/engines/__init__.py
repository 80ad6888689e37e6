"""The engines: numpy arrays in, numpy arrays out.

``cells``   the one partition of a deck (or several decks) into disjoint cells by group membership;
``exact``   exact probabilities over the segments of a shuffled deck;
``kernel``  the vectorised Monte Carlo dealer (opening hands, mulligans, draws);
``race``    the two-player deck-out race, turn by turn, vectorised over trials;
``tasks``   what one block of simulated trials tallies for each question;
``runner``  blocks of trials on spawned random streams, chunks, workers, intervals.

Layer rule: engines import numpy and scipy, and from deckstat only the
modules below them (``errors``, ``events``, ``terms``, ``text``,
``_validate``); never pandas, decks, profiles, questions, presentation or the
command line.
"""
