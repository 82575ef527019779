import sys

from express.cli import main

sys.exit(main())
