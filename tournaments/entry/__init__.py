"""Score entry at the table: form fields named by document paths, errors shown where they point."""
