"""The games app's management commands (`load_setup`: players and games for the live
load script)."""
