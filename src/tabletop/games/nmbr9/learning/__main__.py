"""``python -m tabletop.games.nmbr9.learning``: train the learned value (``train.main``)."""

from .train import main

raise SystemExit(main())
