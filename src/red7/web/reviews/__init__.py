"""Reviews and hints (a club feature): the hint a person on their turn may ask for
(:mod:`.hints`), the review of a finished game, worked out once and kept
(:mod:`.reviews`), their routes (:mod:`.routes`), their part of the wire (:mod:`.wire`)
and the review's page (``static/``)."""
