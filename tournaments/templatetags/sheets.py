"""Template filters for showing score sheets."""

import json

from django import template

register = template.Library()


@register.filter
def as_json(value) -> str:
    """A stored sheet as indented JSON, accents kept, for the audit trail."""
    return json.dumps(value, ensure_ascii=False, indent=1)
