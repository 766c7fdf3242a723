"""Defences at the edge of the app, one job a module: answered before or around the views."""
