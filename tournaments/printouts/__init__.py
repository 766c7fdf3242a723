"""The documents an event prints from its data: score sheets, standings, seating lists, cards, the ladder."""
