"""The example answers the OpenAPI description carries for each endpoint (and the
reference page shows). They name real game types, as a client reading them would see
them, by the kinds' own keys (a kind's key is written only in its package:
tests/platform/test_boundaries.py)."""

from __future__ import annotations

from typing import Any

from games.kinds.cargo_connect import CARGO_CONNECT
from games.kinds.cargo_express import CARGO_EXPRESS

CONNECT, EXPRESS = CARGO_CONNECT.key, CARGO_EXPRESS.key

PROFILE: Any = {"username": "marta", "title": None, "url": "https://cargo.example/@/marta",
                "joined": "2026-03-14T09:26:53+00:00", "games_counted": 212,
                "ratings": [{"game": CONNECT, "game_name": "Cargo Connect",
                             "system": "elo", "rating": 1642, "games": 180, "provisional": False},
                            {"game": EXPRESS, "game_name": "Cargo Express",
                             "system": "openskill", "rating": 1530, "games": 12,
                             "provisional": True}]}

GAME: Any = {
    "id": "q3Zb81LxTa", "url": "https://cargo.example/g/q3Zb81LxTa", "game": EXPRESS,
    "mode": "online", "rated": True, "status": "active", "termination": "",
    "created_at": "2026-12-06T14:02:11+00:00", "finished_at": None, "ply": 14,
    "players": [{"seat": 0, "side": "seat1", "name": "marta", "username": "marta",
                 "title": None, "bot": None, "score": None, "place": None, "outcome": "",
                 "resigned": False},
                {"seat": 1, "side": "seat2", "name": "kofi", "username": "kofi",
                 "title": "BOT", "bot": None, "score": None, "place": None, "outcome": "",
                 "resigned": False}],
    "viewer": "seat", "seat": 0, "record": "[Game \"Cargo Express\"]\n…",
    "state": {"game_type": EXPRESS, "ply": 14, "you": "seat1", "viewer": 0}}

EXPORT_LINE: Any = ('{"id":"q3Zb81LxTa","url":"https://cargo.example/g/q3Zb81LxTa","game":'
                    '"' + CONNECT + '","mode":"online","rated":true,"status":"finished",'
                    '"termination":'
                    '"normal","created_at":"2026-12-06T14:02:11+00:00","finished_at":'
                    '"2026-12-06T14:20:40+00:00","ply":24,"tokens":["a+a1a2a3a4","…"],"players":'
                    '[{"seat":0,"side":"blue","name":"marta","username":"marta","title":null,'
                    '"bot":null,"score":41,"place":1,"outcome":"win","resigned":false},{"seat":1,'
                    '"side":"orange","name":"kofi","username":"kofi","title":null,"bot":null,'
                    '"score":33,"place":2,"outcome":"loss","resigned":false}]}\n')

BOARD: Any = {"game": CONNECT, "rating": "elo", "title": "Elo rating",
              "rules": "Players with at least 5 rated online games, one of them in the last "
                       "30 days.",
              "rows": [{"rank": 1, "username": "marta", "title": None, "rating": 1642,
                        "games": 180, "provisional": False},
                       {"rank": 2, "username": "kofi", "title": "BOT", "rating": 1610,
                        "games": 95, "provisional": False}]}

DAILY: Any = {"day": "2026-12-06", "size": 6, "ends_at": "2026-12-07T08:00:00+00:00",
                 "players": 132, "url": "https://cargo.example/puzzles/daily/",
                 "you": [{"difficulty": "easy", "state": "finished", "game_id": "Xo2k9LmQ1a",
                          "score": 44, "bot_score": 31, "outcome": "win", "shown": "44 (+13)"},
                         {"difficulty": "medium", "state": "not_started", "game_id": None,
                          "score": None, "bot_score": None, "outcome": "", "shown": None}]}

WEEK: Any = {"monday": "2026-11-30", "published": True, "puzzles": [
    {"date": "2026-11-30", "day": "Monday", "open": True,
     "url": "https://cargo.example/puzzles/2026-11-30/", "size": 5, "goal": "unload:L",
     "turns": 4, "start": "[Size \"5\"]…"},
    {"date": "2026-12-07", "day": "Sunday", "open": False, "url": None, "size": None,
     "goal": None, "turns": None, "start": None}]}

TOURNAMENT_ROW: Any = {"id": "T7c2mQ0aZe", "url": "https://cargo.example/tournaments/T7c2mQ0aZe/",
                       "name": "Sunday Swiss", "game": CONNECT, "system": "swiss",
                       "status": "scheduled", "rounds": 5, "time_control": "5+3", "rated": True,
                       "bots_allowed": False, "table_size": 2,
                       "starts_at": "2026-12-13T18:00:00+00:00", "players": 14}

TOURNAMENTS: Any = {"upcoming": [TOURNAMENT_ROW], "running": [], "finished": []}

TOURNAMENT: Any = {**TOURNAMENT_ROW, "status": "running",
                   "tie_breaks": ["Buchholz", "Sonneborn–Berger"],
                   "entrants": ["marta", "kofi"],
                   "standings": [{"rank": 1, "username": "marta", "title": None, "points": "1",
                                  "tie_breaks":
                                  ["0", "0"], "games": 1, "byes": 0, "withdrawn": False}],
                   "rounds_played": [{"number": 1, "finished": True, "byes": [], "tables": [
                       {"number": 1, "game_id": "q3Zb81LxTa", "result": "1–0", "active": False,
                        "places": [{"username": "marta", "seat": "Blue", "result": "1",
                                    "forfeit": False},
                                   {"username": "kofi", "seat": "Orange", "result": "0",
                                    "forfeit": False}]}]}]}

GAME_STREAM: Any = (
    '{"type":"state","state":{"game_type":"' + EXPRESS + '","ply":14,"viewer":0,"status":'
    '"active","…":"…"}}\n'
    '{"type":"turn","ply":14,"token":"?","seat":1,"events":[],"state":{"ply":15,"…":"…"}}\n'
    '{"type":"turn","ply":15,"token":"b2","seat":0,"events":[{"…":"…"}],"state":{"ply":16,'
    '"status":"finished","…":"…"}}\n')

EVENT_STREAM: Any = (
    '{"type":"gameStart","game":{"id":"q3Zb81LxTa","game_type":"' + EXPRESS + '","seats":[0],'
    '"your_turn":true,"deadline":"2026-12-09T14:02:11+00:00","url":"/g/q3Zb81LxTa"}}\n'
    '{"type":"challenge","challenge":{"id":"Hx2Kq9PzLm","url":"/challenge/Hx2Kq9PzLm",'
    '"status":"open","game":"' + CONNECT + '","challenger":{"username":"kofi","title":"BOT",'
    '"rating":1610},"dest":{"username":"marta","title":null},"…":"…"}}\n'
    '{"type":"seek_accepted","id":"Hx2Kq9PzLm","game":"Vn4Rt7YcQe","url":"/g/Vn4Rt7YcQe"}\n'
    '{"type":"gameFinish","game":{"id":"Vn4Rt7YcQe","game_type":"' + CONNECT + '","seats":[1],'
    '"status":"finished","termination":"resigned","outcome":"win","place":1,'
    '"url":"/g/Vn4Rt7YcQe"}}\n'
    '{"type":"notification","id":812,"kind":"your_turn","text":"Your turn against kofi",'
    '"url":"/g/q3Zb81LxTa","unread":3}\n')

DECISION: Any = {"ok": True, "frame": {
    "type": "turn", "ply": 14, "token": "b2", "seat": 0, "side": "seat1",
    "events": [{"type": "commit", "seat": 0}],
    "state": {"game_type": EXPRESS, "ply": 15, "viewer": 0, "status": "active"}}}

RESIGNED: Any = {"ok": True, "frame": {
    "type": "resigned", "ply": 15, "seat": 0, "side": "seat1", "events": [],
    "state": {"game_type": EXPRESS, "ply": 15, "viewer": 0, "status": "active"}}}

QUEUED: Any = {"ok": True, "frame": {"type": "queued", "key": "r3t7", "steps": ["m12", "d4"]}}

UPGRADED: Any = {"ok": True, "username": "cargo-bot-7", "title": "BOT",
                 "bot_since": "2026-12-06T18:40:02+00:00"}

CHALLENGE: Any = {
    "id": "Hx2Kq9PzLm", "url": "https://cargo.example/challenge/Hx2Kq9PzLm", "status": "open",
    "game": CONNECT, "game_name": "Cargo Connect", "options": {"size": 6},
    "description": "6×6", "rated": True, "time_control": "10+5",
    "time_control_label": "10+5", "seat_count": 2, "color": "random", "public": False,
    "challenger": {"username": "marta", "title": None, "rating": 1642},
    "dest": {"username": "cargo-bot-7", "title": "BOT"},
    "seats": [{"index": 0, "label": "Seat 1", "key": "", "name": "marta", "title": None,
               "holder": "member", "bot_level": None, "host": True},
              {"index": 1, "label": "Seat 2", "key": "", "name": None, "title": None,
               "holder": None, "bot_level": None, "host": False}],
    "free": 1, "decline_reason": None, "game_id": None}

TAKEN: Any = {"ok": True, "game_id": "Vn4Rt7YcQe",
              "game_url": "https://cargo.example/g/Vn4Rt7YcQe",
              "challenge": {**CHALLENGE, "status": "accepted", "free": 0,
                            "game_id": "Vn4Rt7YcQe", "seats": [
                                CHALLENGE["seats"][0],
                                {**CHALLENGE["seats"][1], "name": "cargo-bot-7",
                                 "title": "BOT", "holder": "member"}]}}

DECLINED: Any = {"ok": True, "challenge": {**CHALLENGE, "status": "declined",
                                           "decline_reason": "tooFast"}}

CANCELED: Any = {"ok": True, "challenge": {**CHALLENGE, "status": "cancelled"}}

ABORTED: Any = {"ok": True, "frame": {
    "type": "ended", "ply": 1, "termination": "aborted", "seat": 1, "side": "orange",
    "events": [], "state": {"game_type": CONNECT, "ply": 1, "status": "aborted"}}}

CLAIMED: Any = {"ok": True, "frame": {
    "type": "ended", "ply": 9, "termination": "abandoned", "seat": 0, "side": "blue",
    "events": [{"type": "resign", "seat": 1}],
    "state": {"game_type": CONNECT, "ply": 9, "status": "finished"}}}

CHAT_LINE: Any = {"seq": 3, "author": "kofi", "text": "Good game!",
                  "at": "2026-12-06T14:20:41+00:00"}

CHAT_SAID: Any = {"ok": True, "frame": {"type": "chat", "room": "players", **CHAT_LINE}}

CHAT_STATE: Any = {"type": "chat_state", "rooms": [
    {"room": "players", "seq": 3, "messages": [
        {"seq": 2, "author": "marta", "text": "Have fun", "at": "2026-12-06T14:02:30+00:00"},
        CHAT_LINE], "hidden": [], "version": 0}],
    "you": "kofi", "write": "players", "limit": 140, "muted": [], "reason": ""}

OPEN_CHALLENGE: Any = {**CHALLENGE, "id": "Pq8Zt3VnRe",
                       "url": "https://cargo.example/challenge/Pq8Zt3VnRe", "game": EXPRESS,
                       "game_name": "Cargo Express", "options": {}, "description":
                       "3 players", "seat_count": 3, "dest": None, "free": 2, "seats": [
                           CHALLENGE["seats"][0], CHALLENGE["seats"][1],
                           {**CHALLENGE["seats"][1], "index": 2, "label": "Seat 3"}]}
