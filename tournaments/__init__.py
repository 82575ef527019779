"""Tournaments (issue #46): Swiss events of Cargo Connect and Cargo Express.

This package owns the tournament rules that need no database: :mod:`tournaments.swiss`
pairs a Swiss round (Cargo Connect by the FIDE Dutch system, Cargo Express in tables of 3
or 4 by score groups) and breaks ties. The Django side (entries, rounds, the pages) will live
beside it and call it; nothing under ``tournaments/swiss/`` imports Django.
"""
