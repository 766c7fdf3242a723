"""Paper in: reading a photographed or scanned score sheet back into the table's form."""
