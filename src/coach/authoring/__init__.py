"""The author's half of the coach: page-version stamps, distractor and draft generation, the review queue,
export and import. Pure modules take their embedder, chat model and decision log as arguments."""
