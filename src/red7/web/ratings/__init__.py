"""Ratings (a club feature): the skills of the people and bots who play at rated tables
and their leaderboard (:mod:`.ratings`), the rating of each game as it ends, hearing the
table's events (:mod:`.rater`), the leaderboard's routes and page (:mod:`.routes`,
``static/``)."""
