"""Dates in each language's own style (``FORMAT_MODULE_PATH``), over Django's formats for the language.

Italian writes month names in lower case inside a date ("22 novembre 2026"), where Django's catalogue gives
them capitalised: its dates take the alternative month name (``E``), which ``locale/`` beside this package
gives in lower case. Spanish dates are Django's own ("22 de noviembre de 2026"); English keeps Django's too.
"""
