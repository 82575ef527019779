"""Tables and the lobby: seeks and challenges, joining and starting a table (`lobby`), the
lobby's forms (`forms`), the games waiting on a member (`waiting`). May import the turns (a
full table starts its game), frames and timing; never the sockets or views."""
