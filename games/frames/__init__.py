"""What each viewer is sent: a viewer's state gathered (`states`) and shaped (`protocol`),
frames built once per audience (`audiences`), the channel layer's groups and sends
(`broadcast`), presence and who is away (`presence`, `away`), the ratings shown
(`shown_ratings`), the live path's counters (`metrics`). Reading a state never sends a frame
or ends a game; may import the models, kinds, store and timing's pure clocks."""
