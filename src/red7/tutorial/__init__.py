"""The guided first game: short chapters on fixed deals that teach Red7 one idea at a time.

A chapter (:mod:`red7.tutorial.chapters`) is data: a position given card by card, built
through the engine (:meth:`~red7.core.game.Game.from_position`), what the learner must
find, and its words. A :class:`~red7.tutorial.lesson.Lesson` seats the learner at that
position through the same :class:`~red7.play.session.Session` as every game and judges
each decision by the engine's own answer (R4.7: is it safe?): a decision that would put
the learner out is taken back and explained. Progress (which chapters are done) is kept
by :mod:`red7.tutorial.progress`. The front ends are :mod:`red7.tutorial.text` (the
text game) and :mod:`red7.tutorial.screen` (the terminal game, Textual); the web game's
``/tutorial`` page drives the lesson over HTTP (:mod:`red7.web.learn`).

(Not :mod:`red7.learn`: that is the learned player's trainer.)
"""
