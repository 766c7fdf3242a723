"""What the views share: the manche page and the doors to it."""
