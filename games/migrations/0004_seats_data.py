# Copy the two-column games into seats: Blue is seat 0, Orange seat 1; CargoBot's side becomes
# a bot seat at its level; a guest's session key moves to the person's seat; scores, places
# and outcomes from the stored result; sides of turns, rematch offers and challenges become
# seat numbers; the bay size moves into the options; kind human/bot/daily becomes the mode.

from django.db import migrations

SIDES = ("blue", "orange")
MODES = {"human": "online", "bot": "bot", "daily": "daily"}


def forward(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    Turn = apps.get_model("games", "Turn")
    Challenge = apps.get_model("games", "Challenge")
    for game in Game.objects.all().iterator():
        seats = []
        for index, side in enumerate(SIDES):
            seat = Seat(game_id=game.id, index=index)
            if game.bot_level and game.bot_side == side:
                seat.bot_level = game.bot_level
            else:
                seat.user_id = game.blue_id if side == "blue" else game.orange_id
                if seat.user_id is None and game.bot_side:
                    seat.guest_key = game.guest_key
            if game.status == "finished":
                seat.score = game.score_blue if side == "blue" else game.score_orange
                if game.winner is None:
                    seat.place, seat.outcome = 1, "draw"
                elif game.winner == side:
                    seat.place, seat.outcome = 1, "win"
                else:
                    seat.place, seat.outcome = 2, "loss"
                seat.resigned = game.resigned == side
            seats.append(seat)
        Seat.objects.bulk_create(seats)
        game.mode = MODES.get(game.kind, "online")
        game.options = {"size": game.size}
        if game.status == "finished":
            game.termination = "resigned" if game.resigned else "played_out"
        if game.rematch_offered_by in SIDES:
            game.rematch_seat = SIDES.index(game.rematch_offered_by)
        if game.bot_level:
            game.bot_version = "1"
        game.save(update_fields=["mode", "options", "termination", "rematch_seat",
                                 "bot_version"])
    for side in SIDES:
        Turn.objects.filter(side=side).update(seat=SIDES.index(side))
    for challenge in Challenge.objects.all().iterator():
        challenge.options = {"size": challenge.size}
        challenge.seat = SIDES.index(challenge.color) if challenge.color in SIDES else None
        challenge.save(update_fields=["options", "seat"])


class Migration(migrations.Migration):

    dependencies = [("games", "0003_seats_schema")]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
