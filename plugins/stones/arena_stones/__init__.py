"""Game of Stones (Kris Burm's TZAAR, 2014 contest protocol) for arena."""
