"""Marks rule messages for translation without importing any framework.

``_`` returns its argument unchanged; ``makemessages`` finds the calls and the app
translates the message ids when it shows them.
"""


def _(message: str) -> str:
    return message
