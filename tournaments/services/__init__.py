"""The organiser's day as plain functions: seating rounds, recording sheets, building standings."""
