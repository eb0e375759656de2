"""The chat at a table (a club feature): canned reactions and short free text, kept
(:mod:`.store`), rate-limited and told to every process serving the table (:mod:`.chat`);
its part of the wire (:mod:`.wire`) and its panel's script (``static/chat.js``)."""
