"""Forms: each validates what an organiser or a player types and hands it to a service."""
