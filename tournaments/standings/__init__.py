"""Standings: tournament points, then game score, the game's tiebreak, and opponents' points."""
