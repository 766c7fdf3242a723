"""Each player gets the secret of their own link."""

import secrets

from django.db import migrations, models

import tournaments.models.tokens


def give_each_player_a_token(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    for player in Player.objects.filter(token__isnull=True).only("pk"):
        player.token = secrets.token_urlsafe(16)
        player.save(update_fields=["token"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_game_options")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="token",
            field=models.CharField(max_length=32, null=True, editable=False),
        ),
        migrations.RunPython(give_each_player_a_token, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="token",
            field=models.CharField(
                default=tournaments.models.tokens.new_token,
                editable=False,
                help_text="The secret of the player's own link; a new one revokes the old link.",
                max_length=32,
                unique=True,
                validators=[tournaments.models.tokens.validate_token],
                verbose_name="player link token",
            ),
        ),
        migrations.AlterField(
            model_name="table",
            name="token",
            field=models.CharField(
                default=tournaments.models.tokens.new_token,
                editable=False,
                max_length=32,
                unique=True,
                validators=[tournaments.models.tokens.validate_token],
                verbose_name="scorer token",
            ),
        ),
    ]
