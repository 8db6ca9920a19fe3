"""Dominion (base set, 1st edition) without a protocol: cards, the rules engine and the
reference strategies that both Dominion plugins share."""
