"""An event's game options become one JSON value that the game's bundle checks.

The Snack Match component names and diet cards move from their own columns into ``options``.
"""

from django.db import migrations, models

#: The rulebook's Snack Match components by kind, as they were named in the old columns.
RULEBOOK = {
    "snacks": ("sandwich", "donut", "sausage", "soda"),
    "cloths": ("orange", "green"),
}
KIND = {"snacks": "snack", "cloths": "cloth"}


def names_of(old):
    """``{key: name}`` for the rulebook's components, or already ``{kind: {key: name}}``."""
    if not isinstance(old, dict) or not old:
        return {}
    if set(old) <= set(RULEBOOK):
        return {kind: dict(named) for kind, named in old.items() if isinstance(named, dict) and named}
    return {
        kind: {key: name for key, name in old.items() if key in keys and name}
        for kind, keys in RULEBOOK.items()
        if any(key in old for key in keys)
    }


def diet_of(old, names):
    cards = []
    for card in old if isinstance(old, list) else []:
        if not isinstance(card, dict):
            continue
        component = card.get("component")
        kinds = [kind for kind, keys in RULEBOOK.items() if component in keys or component in names.get(kind, {})]
        cards.append({"kind": KIND[kinds[0]] if kinds else "snack", **card})
    return cards


def move_options(apps, schema_editor):
    Event = apps.get_model("tournaments", "Event")
    for event in Event.objects.exclude(component_names={}, diet=[]):
        names = names_of(event.component_names)
        options = {"names": names} if names else {}
        diet = diet_of(event.diet, names)
        if diet:
            options["diet"] = diet
        event.options = options
        event.save(update_fields=["options"])


def move_back(apps, schema_editor):
    Event = apps.get_model("tournaments", "Event")
    for event in Event.objects.exclude(options={}):
        event.component_names = (event.options or {}).get("names", {})
        event.diet = [
            {key: value for key, value in card.items() if key != "kind"} for card in event.options.get("diet", [])
        ]
        event.save(update_fields=["component_names", "diet"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="options",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="What the game lets an event decide, as its game checks it.",
                verbose_name="game options",
            ),
        ),
        migrations.RunPython(move_options, move_back),
        migrations.RemoveField(
            model_name="event",
            name="component_names",
        ),
        migrations.RemoveField(
            model_name="event",
            name="diet",
        ),
        migrations.AlterField(
            model_name="event",
            name="game",
            field=models.CharField(
                help_text="The key of one of the games the app knows.", max_length=20, verbose_name="game"
            ),
        ),
    ]
