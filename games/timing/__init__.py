"""Clocks, deadlines and leavers: time controls and the clock arithmetic (`clocks`, pure), the
clocks during play and fallen flags (`timeouts`, reporting to the play layer registered by
games.apps), aborts, claims and the idle sweep (`abandonment`), correspondence deadlines
(`correspondence`). Never imports the turns' play module by name."""
